/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What `bpfprobe list` shows, gathered from the kernel's own records:
 * every program attached to a uprobe, kprobe, tracepoint, raw tracepoint,
 * BPF trampoline (fentry/fexit) or perf event, with its attach points (link
 * iteration and link info; perf event fds through BPF_TASK_FD_QUERY), maps,
 * owning processes (/proc/PID/fdinfo), pins (bpffs) and bpfprobe's metadata.
 */
#ifndef BPFPROBE_SYSINFO_LISTING_H
#define BPFPROBE_SYSINFO_LISTING_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "sysinfo/attach_info.h"
#include "sysinfo/prog_info.h"

struct bp_owner {
	pid_t pid;
	char comm[16];
};

struct bp_listed_prog {
	struct bp_sys_prog prog;
	struct bp_attach *atts;
	int natts;
	struct bp_owner *owners;	/* processes holding the program, a link to it
					 * or a perf event running it */
	int nowners;
	char **pins;			/* bpffs paths of the program or its links */
	int npins;
	int same_tag;			/* other listed programs with this tag */
};

struct bp_listing {
	struct bp_listed_prog *progs;	/* by id */
	int nprogs;
	bool stats_enabled;		/* run_cnt/run_time_ns are being counted */
};

struct bp_listing_opts {
	size_t sz;
	bool all;	/* also tracing-type programs attached nowhere */
	char reserved_tail[7];	/* zero (named: an initializer zeroes it) */
};
#define bp_listing_opts__last_field all

int bp_listing__build(struct bp_listing *l, const struct bp_listing_opts *opts);
void bp_listing__free(struct bp_listing *l);

/* kernel.bpf_stats_enabled */
bool bp_sys__stats_enabled(void);
/* A CLOCK_BOOTTIME time (a program's load_time) as CLOCK_REALTIME ns. */
uint64_t bp_sys__boot_to_realtime(uint64_t boot_ns);

#endif /* BPFPROBE_SYSINFO_LISTING_H */
