/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Which processes hold BPF programs, links and perf events with programs:
 * every /proc/PID/fd that is a bpf-prog, bpf-link or perf_event anon inode,
 * with the ids its /proc/PID/fdinfo shows (prog_id, link_id), and for perf
 * events what BPF_TASK_FD_QUERY says is attached and where.
 */
#ifndef BPFPROBE_SYSINFO_FD_REFS_H
#define BPFPROBE_SYSINFO_FD_REFS_H

#include <stdint.h>
#include <sys/types.h>
#include "sysinfo/attach_info.h"

enum bp_fd_kind {
	BP_FD_PROG,
	BP_FD_LINK,
	BP_FD_PERF,	/* a perf event with a BPF program attached */
};

struct bp_fd_ref {
	pid_t pid;
	char comm[16];
	int fd;
	enum bp_fd_kind kind;
	uint32_t id;		/* PROG: prog id; LINK: link id; PERF: 0 */
	uint32_t prog_id;	/* the program: its own, its link's, or the event's */
	struct bp_attach att;	/* PERF: where the event probes */
};

struct bp_fd_refs {
	struct bp_fd_ref *v;
	int n;
};

/* Scans every process but the caller. Unreadable processes are skipped. */
int bp_fd_refs__scan(struct bp_fd_refs *r);
void bp_fd_refs__free(struct bp_fd_refs *r);

/* The number after "key:" on a line of fdinfo text; -ENOENT if absent. */
int bp_fdinfo__field(const char *text, const char *key, unsigned long long *val);

#endif /* BPFPROBE_SYSINFO_FD_REFS_H */
