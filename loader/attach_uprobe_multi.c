// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * uprobe_multi links (Linux 6.6+): one link attaches one program to many
 * offsets of one file, in one system call, and detaches them all with one
 * close (no grace period per probe, as closing a uprobe perf event costs).
 * The program must have been loaded with expected_attach_type
 * BPF_TRACE_UPROBE_MULTI. Debian's uapi headers (6.1) know neither the
 * attach type nor its part of union bpf_attr: both are written out here.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "loader/attach_probe.h"
#include "util/log.h"

/* BPF_LINK_CREATE's attr for uprobe_multi, as the 6.6+ uapi lays it out */
struct link_create_uprobe_multi {
	__u32 prog_fd;
	__u32 target_fd;
	__u32 attach_type;
	__u32 flags;
	__u64 path;
	__u64 offsets;
	__u64 ref_ctr_offsets;
	__u64 cookies;
	__u32 cnt;
	__u32 multi_flags;	/* BPF_F_UPROBE_MULTI_RETURN */
	__u32 pid;
	__u32 pad;
};

#define UPROBE_MULTI_RETURN	1u

static int link_create(int prog_fd, const char *path, const uint64_t *offsets,
		       const uint64_t *cookies, const uint64_t *ref_ctr_offsets, size_t cnt,
		       bool retprobe, pid_t pid)
{
	union {
		union bpf_attr attr;
		struct link_create_uprobe_multi um;
	} a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.um.prog_fd = prog_fd;
	a.um.attach_type = BP_TRACE_UPROBE_MULTI;
	a.um.path = (uintptr_t)path;
	a.um.offsets = (uintptr_t)offsets;
	a.um.cookies = (uintptr_t)cookies;
	a.um.ref_ctr_offsets = (uintptr_t)ref_ctr_offsets;
	a.um.cnt = cnt;
	a.um.multi_flags = retprobe ? UPROBE_MULTI_RETURN : 0;
	a.um.pid = pid > 0 ? (__u32)pid : 0;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &a, sizeof(a));
	return fd < 0 ? -errno : fd;
}

/* The smallest program there is, loaded for uprobe_multi. */
static int load_probe_prog(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BP_TRACE_UPROBE_MULTI);
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "bp_um_probe", "GPL", insns, 2, &opts);

	return fd < 0 ? -errno : fd;
}

bool bp_uprobe_multi__supported(void)
{
	static int known;	/* 0: not probed, 1: yes, -1: no */
	uint64_t offset = 0;
	int prog, link;

	if (known)
		return known > 0;
	/*
	 * A kernel with uprobe_multi refuses a directory as the file (EBADF);
	 * one without refuses the attach type (EINVAL).
	 */
	prog = load_probe_prog();
	link = prog < 0 ? prog : link_create(prog, "/", &offset, NULL, NULL, 1, false, 0);
	if (link >= 0)
		close(link);
	if (prog >= 0)
		close(prog);
	known = link == -EBADF ? 1 : -1;
	bp_info("uprobe_multi links: %s\n", known > 0 ? "available (Linux 6.6+): one link per binary and plan" :
		"not available on this kernel: one perf event per probe point");
	return known > 0;
}

int bp_uprobe_multi__attach(int prog_fd, const char *path, const char *file,
			    const uint64_t *offsets,
			    const uint64_t *cookies, const uint64_t *ref_ctr_offsets, size_t cnt,
			    bool retprobe, pid_t pid)
{
	int fd = link_create(prog_fd, file ? file : path, offsets, cookies, ref_ctr_offsets, cnt,
			     retprobe, pid);

	if (fd == -EACCES || fd == -EPERM)
		bp_err("no permission to create uprobes on %s: CAP_PERFMON (or CAP_SYS_ADMIN) is needed\n",
		       path);
	else if (fd < 0)
		bp_err("cannot attach %zu %suprobe%s on %s (uprobe_multi link): %s\n", cnt,
		       retprobe ? "return " : "", cnt == 1 ? "" : "s", path, strerror(-fd));
	return fd;
}
