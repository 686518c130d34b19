/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the commands that run probes until a workload ends share (load,
 * trace): the signals that stop them, whom the probes trace, where the
 * records go, and the loop that reads output while the workload runs.
 */
#ifndef BPFPROBE_SESSION_H
#define BPFPROBE_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/load_report.h"
#include "cli/workload.h"

/* The SIGINT, SIGTERM or SIGHUP that came last; 0: none. */
extern volatile sig_atomic_t bp_session_signal;

/*
 * SIGINT, SIGTERM and SIGHUP set bp_session_signal, which is the library's
 * stop flag too (bpfprobe_set_stop_flag): resolving, loading and attaching
 * stop within milliseconds of one. For resolve, funcs and vars.
 */
void bp_session__install_stop_signals(void);

/* The same, and SIGPIPE is ignored: for the commands that run probes. */
void bp_session__install_signals(void);

/*
 * A signal that came while loading: nothing more is done (no attach, no
 * workload, no pin), which is said; the caller cleans up and exits with
 * *code = 128 + signal.
 */
bool bp_session__interrupted(int *code);

/* What the command line asked for. */
struct bp_session_args {
	char *const *cmd;	/* -- CMD, or NULL */
	pid_t pid;		/* -p PID, or -1 */
	bool system_wide;	/* -a */
	bool no_follow;		/* --no-follow */
	bool quiet;		/* -q */
};

/*
 * Whom the probes trace. With a command or -p, the process and, unless
 * --no-follow, every process it starts; the kernel's number for it is
 * needed to follow it (and to scope printk): the workload tells it, and
 * for -p it is the pid itself outside PID namespaces. Returns the global
 * pid, or 0 when it is unknown (then the process alone is traced).
 */
pid_t bp_session__scope(const struct bp_session_args *a, const struct bp_workload *w,
			struct bp_load_scope *s);

/* Where records go: -o FILE (line-buffered), else stdout; NULL after a
 * message naming cmd. */
FILE *bp_session__open_records(const char *cmd, const char *path);

/* What the run loop reads. */
struct bp_session_loop {
	int (*poll)(void *ctx, int timeout_ms);	/* reads output, waiting up to timeout_ms */
	void *ctx;
	int out_fd;		/* readable when output waits; -1: unknown */
	/* its followed processes' execs are handled as they come (a process
	 * may be held at its exec until then: bpfprobe_object__exec_fd()) */
	struct bpfprobe_object *obj;
};

/*
 * Reads output (and handles execs) until the workload child (> 0) exits
 * or, without one, a signal comes, waking at least every 50 ms; a signal
 * is passed on to the child. Returns the exit code: the child's as a
 * shell gives it, else 0.
 */
int bp_session__run(const struct bp_session_loop *l, pid_t child);

#endif /* BPFPROBE_SESSION_H */
