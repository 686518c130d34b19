// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "util/pidns.h"

/* the inode of the initial PID namespace (include/linux/proc_ns.h) */
#define PROC_PID_INIT_INO	0xEFFFFFFCU

bool bp_pidns__is_initial(void)
{
	struct stat st;

	if (!stat("/proc/self/ns/pid", &st))
		return st.st_ino == PROC_PID_INIT_INO;
	return bp_pidns__self_global() == getpid();
}

pid_t bp_pidns__self_global(void)
{
	/* r0 = bpf_get_current_pid_tgid(); r0 >>= 32; exit */
	const struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_current_pid_tgid },
		{ .code = BPF_ALU64 | BPF_RSH | BPF_K, .dst_reg = BPF_REG_0, .imm = 32 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	__u64 args[1] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, run, .ctx_in = args, .ctx_size_in = sizeof(args));
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "bpfprobe_pid", "Dual BSD/GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), NULL);
	if (fd < 0)
		return -errno;
	err = bpf_prog_test_run_opts(fd, &run);
	err = err ? -errno : (pid_t)run.retval;
	close(fd);
	return err;
}
