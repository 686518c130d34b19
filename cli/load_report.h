/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What `bpfprobe load` says about its session on stderr, so that it is
 * never silent: what it attached and to what, a process given with -p that
 * does not map a probed binary, and at exit each program that never ran
 * with the likely reason.
 */
#ifndef BPFPROBE_LOAD_REPORT_H
#define BPFPROBE_LOAD_REPORT_H

#include <stdbool.h>
#include <sys/types.h>
#include <bpfprobe/bpfprobe.h>

/* How the session's probes are scoped. */
struct bp_load_scope {
	char *const *cmd;	/* -- CMD, or NULL */
	pid_t pid;		/* -p PID, or the workload's; -1: none */
	bool system_wide;	/* -a, or neither CMD nor -p */
	bool follow;		/* the process tree, not pid alone */
};

/* "bpfprobe: N probe points attached; running CMD" and the like. */
void bp_report__attached(const struct bpfprobe_object *obj, const struct bp_load_scope *s);

/* Warns when process pid maps none of the binaries some probe point is in. */
void bp_report__check_maps(const struct bpfprobe_object *obj, pid_t pid);

/* One line per program that never ran, with the likely reason. */
void bp_report__never_ran(const struct bpfprobe_object *obj, const struct bp_load_scope *s);

#endif /* BPFPROBE_LOAD_REPORT_H */
