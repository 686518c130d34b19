// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Does the kernel accept cpu v4's sign-extending loads and moves? A kprobe
 * program that uses each form the prologues do (a load from pt_regs, one
 * from the stack, a move) loads on Linux 6.6+; an older verifier refuses
 * it (EINVAL: reserved fields). The answer is kept for the process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>

#include "loader/cpu_v4.h"
#include "prologue/arch.h"
#include "prologue/insn.h"
#include "util/log.h"

#define WHAT	"BPF cpu v4 instructions (sign-extending loads and moves, Linux 6.6+)"

/* 0 when a program with them loads, else -errno */
static int try_load(void)
{
	const struct bpf_insn insns[] = {
		LDX_MEMSX(BPF_W, BPF_REG_2, BPF_REG_1,
			  bp_arch__pt_regs_off(bp_arch__arg_reg(0))),
		STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_2, -8),
		LDX_MEMSX(BPF_H, BPF_REG_3, BPF_REG_10, -8),
		MOVSX64_REG(BPF_REG_0, BPF_REG_3, 8),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT_INSN(),
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "bp_cpu_v4", "GPL", insns,
			       sizeof(insns) / sizeof(insns[0]), NULL);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* 0: decide; 1: the environment says they are not used (-v says so);
 * -EINVAL: it says something else (after a message) */
static int env_says(void)
{
	const char *env = getenv(BP_CPU_V4_ENV);

	if (!env || !*env)
		return 0;
	if (strcmp(env, "0")) {
		bp_err("%s=%s: only 0 (do not use %s) is understood\n", BP_CPU_V4_ENV, env, WHAT);
		return -EINVAL;
	}
	bp_info("%s: not used (%s=0): prologues extend values with shifts\n", WHAT, BP_CPU_V4_ENV);
	return 1;
}

int bp_cpu_v4__usable(void)
{
	static int known;	/* 0: not asked yet, else the answer + 1 */
	int err;

	if (known)
		return known - 1;
	err = env_says();
	if (err) {
		known = err < 0 ? err + 1 : 1;
		return known - 1;
	}
	err = try_load();
	if (!err)
		bp_info("%s: accepted by this kernel: prologues use them\n", WHAT);
	else if (err == -EINVAL)
		bp_info("%s: refused by this kernel: prologues extend values with shifts\n", WHAT);
	else
		bp_info("%s: cannot be checked (%s): prologues extend values with shifts\n", WHAT,
			strerror(-err));
	known = err ? 1 : 2;
	return known - 1;
}

int bp_cpu_v4__expected(void)
{
	static int known;	/* 0: not decided yet, else the answer + 1 */
	struct utsname u;
	int err, major = 0, minor = 0;

	if (known)
		return known - 1;
	err = env_says();
	if (err) {
		known = err < 0 ? err + 1 : 1;
		return known - 1;
	}
	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		major = 0;
	known = major > 6 || (major == 6 && minor >= 6) ? 2 : 1;
	bp_info("%s: %s of Linux %s (what load asks the kernel, resolve guesses from its release): prologues %s\n",
		WHAT, known > 1 ? "expected" : "not expected", major ? u.release : "(unknown)",
		known > 1 ? "use them" : "extend values with shifts");
	return known - 1;
}
