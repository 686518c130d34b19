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

/* 0: ask; 1: the environment says they are not used (-v says so);
 * -EINVAL: it says something else (after a message) */
static int env_says(void)
{
	const char *env = getenv(BP_CPU_V4_ENV);

	if (!env || !*env)
		return 0;
	if (strcmp(env, "0")) {
		bp_err("%s=%s: the one value understood is 0 (prologues without BPF cpu v4's sign-extending instructions)\n",
		       BP_CPU_V4_ENV, env);
		return -EINVAL;
	}
	bp_info("%s: not used (%s=0): prologues extend values with shifts\n", WHAT, BP_CPU_V4_ENV);
	return 1;
}

/* The environment's answer, else ask()'s, found once: *known caches it
 * (0: not yet, else the answer + 1). */
static int answer(int *known, int (*ask)(void))
{
	int v;

	if (!*known) {
		v = env_says();
		*known = (v < 0 ? v : v ? 0 : ask()) + 1;
	}
	return *known - 1;
}

/* The kernel's own answer: a program with them loads. */
static int ask_kernel(void)
{
	int err = try_load();

	if (!err)
		bp_info("%s: accepted by this kernel: prologues use them\n", WHAT);
	else if (err == -EINVAL)
		bp_info("%s: refused by this kernel: prologues extend values with shifts\n", WHAT);
	else
		bp_info("%s: cannot be checked (%s): prologues extend values with shifts\n", WHAT,
			strerror(-err));
	return !err;
}

/* What its release says: Linux 6.6 brought them. */
static int ask_release(void)
{
	struct utsname u;
	int major = 0, minor = 0, yes;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		major = 0;
	yes = major > 6 || (major == 6 && minor >= 6);
	bp_info("%s: %s of Linux %s (load asks the kernel, resolve goes by its release): prologues %s\n",
		WHAT, yes ? "expected" : "not expected", major ? u.release : "(unknown)",
		yes ? "use them" : "extend values with shifts");
	return yes;
}

int bp_cpu_v4__usable(void)
{
	static int known;

	return answer(&known, ask_kernel);
}

int bp_cpu_v4__expected(void)
{
	static int known;

	return answer(&known, ask_release);
}
