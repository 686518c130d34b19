// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * fentry: a BPF_PROG_TYPE_TRACING program loaded for one kernel function
 * (its BTF id) runs at that function's entry through a BPF trampoline,
 * attached as a bpf_link that lives as long as its fd (or pin). Unlike a
 * kprobe program it also runs where the kernel keeps kprobe programs out
 * (inside another BPF program, in the bpf() syscall's map operations).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "loader/attach_probe.h"
#include "prologue/insn.h"
#include "util/log.h"

int bp_fentry__probe(__u32 btf_id)
{
	const struct bpf_insn insns[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		.expected_attach_type = BPF_TRACE_FENTRY,
		.attach_btf_id = btf_id,
	);
	int fd;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "bpfprobe_probe", "GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), &opts);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int bp_fentry__attach(int prog_fd, const char *func, int *link_fd)
{
	int fd, err;

	*link_fd = -1;
	fd = bpf_raw_tracepoint_open(NULL, prog_fd);
	if (fd < 0) {
		err = -errno;
		bp_err("cannot attach the fentry program to kernel function %s: %s\n", func,
		       strerror(-err));
		return err;
	}
	*link_fd = fd;
	return 0;
}
