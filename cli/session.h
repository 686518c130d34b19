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
#include <stdint.h>
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

/* The same, and SIGPIPE is ignored (a write to a pipe nobody reads fails
 * with EPIPE: bp_session__run()), for the commands that run probes. A
 * workload started later gets SIGPIPE's default back. */
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

/* The loop of a session (bp_session__run()). */
struct bp_session_loop {
	/* reads output for up to timeout_ms; a negative errno when what it
	 * reads can no longer be written (-EPIPE, -ENOSPC, ...) */
	int (*poll)(void *ctx, int timeout_ms);
	void *ctx;
	pid_t child;		/* the workload, or <= 0 */
	int wait_fd;		/* readable when output waits; -1: unknown */
	/* its followed processes' execs are handled as they come (a process
	 * may be held at its exec until then: bpfprobe_object__exec_fd());
	 * NULL: none */
	struct bpfprobe_object *obj;
	/* where the records go: when it is a pipe whose reader went away,
	 * the session ends as if a write had failed with EPIPE, without
	 * waiting for the next record to find out (-1: not watched) */
	int out_fd;
	int write_err;		/* out: what ended the session (-EPIPE, ...) */
	bool child_stopped;	/* out: the workload was sent SIGTERM for it */
};

/*
 * Calls poll(ctx, 50 ms), and handles execs, until the workload child
 * (> 0) exits or, without one, a signal comes; a signal is passed on to
 * the child. Output that
 * can no longer be written (or out_fd's reader gone) ends the session at
 * once, as perf record does:
 * a workload still running is sent SIGTERM and waited for (a signal that
 * comes meanwhile is passed on). Returns the exit code: the child's as a
 * shell gives it, else 0; after a write error, 1 (141 for EPIPE), which
 * bp_session__write_failed() says.
 */
int bp_session__run(struct bp_session_loop *l);

/*
 * Says once, for cmd, that records could no longer be written to where
 * ("stdout", or -o's path) and why (err), what was lost (unwritten
 * records; lost_too: what else was not printed, or NULL), and that the
 * workload was stopped. A reader that went away (EPIPE) wanted nothing
 * more: that is said only under -v. Returns the exit code: 141 (128 +
 * SIGPIPE, as a shell shows a writer SIGPIPE killed) for EPIPE, else 1.
 */
int bp_session__write_failed(const char *cmd, const char *where, int err, uint64_t unwritten,
			     const char *lost_too, bool child_stopped);

#endif /* BPFPROBE_SESSION_H */
