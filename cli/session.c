// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* What load and trace share (session.h). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/commands.h"
#include "cli/session.h"
#include "cli/std_streams.h"

volatile sig_atomic_t bp_session_signal;

static void on_signal(int sig)
{
	bp_session_signal = sig;
}

void bp_session__install_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	bpfprobe_set_stop_flag(&bp_session_signal);
}

void bp_session__install_signals(void)
{
	bp_session__install_stop_signals();
	signal(SIGPIPE, SIG_IGN);
}

bool bp_session__interrupted(int *code)
{
	if (!bp_session_signal)
		return false;
	fprintf(stderr, "bpfprobe: interrupted by %s: stopping\n", strsignal(bp_session_signal));
	*code = 128 + bp_session_signal;
	return true;
}

pid_t bp_session__scope(const struct bp_session_args *a, const struct bp_workload *w,
			struct bp_load_scope *s)
{
	s->cmd = a->cmd;
	s->pid = a->cmd ? w->pid : a->pid;
	s->system_wide = a->system_wide || s->pid <= 0;
	s->follow = !s->system_wide && !a->no_follow;
	if (s->system_wide)
		return 0;
	if (a->cmd)
		return w->global_pid;
	if (bpfprobe_pid__global() == getpid())
		return a->pid;	/* the initial PID namespace: pids are the kernel's */
	if (s->follow && !a->quiet)
		fprintf(stderr, "bpfprobe: inside a PID namespace the kernel's number for process %d is unknown: tracing it alone, not the processes it starts\n",
			(int)a->pid);
	s->follow = false;
	return 0;
}

FILE *bp_session__open_records(const char *cmd, const char *path)
{
	FILE *f;

	if (!path)
		return stdout;
	f = fopen(path, "we");
	if (!f) {
		fprintf(stderr, "bpfprobe %s: cannot write -o '%s': %s\n", cmd, path,
			strerror(errno));
		return NULL;
	}
	setvbuf(f, NULL, _IOLBF, 0);
	return f;
}

/*
 * Waits up to timeout_ms for output or an exec to look at, then reads
 * both; without an exec fd, output's own poll waits. While records
 * stream (*streaming: the last read found some), output's own wait is
 * the one taken, with execs looked at between its reads: a ring buffer
 * wakes its reader at each record the reader has caught up with, and
 * waiting on its fd here would read records one wakeup at a time, where
 * output's wait lets them gather (output/batch.h). What poll says.
 */
static int wait_once(const struct bp_session_loop *l, int exec_fd, int timeout_ms,
		     bool *streaming)
{
	struct pollfd p[2] = {
		{ .fd = exec_fd, .events = POLLIN }, { .fd = l->wait_fd, .events = POLLIN },
	};
	int n;

	if (exec_fd < 0)
		return l->poll(l->ctx, timeout_ms);
	if (*streaming)
		poll(p, 1, 0);
	else
		poll(p, l->wait_fd >= 0 ? 2 : 1, timeout_ms);
	/* a held process first: it waits for us */
	bpfprobe_object__handle_execs(l->obj);
	/* an exec waits 5 ms at most while records stream */
	n = l->poll(l->ctx, *streaming ? (timeout_ms < 5 ? timeout_ms : 5) : 0);
	*streaming = n > 0;
	return n;
}

/* Whether fd is a pipe (or FIFO) nobody reads any more. */
static bool reader_gone(int fd)
{
	struct pollfd p = { .fd = fd };
	struct stat st;

	/* a pipe's writer sees POLLERR once no reader is left */
	return fd >= 0 && !fstat(fd, &st) && S_ISFIFO(st.st_mode) && poll(&p, 1, 0) == 1 &&
	       (p.revents & POLLERR);
}

/* The workload, still running when output failed: SIGTERM, then reaped. */
static void stop_child(pid_t child)
{
	int status;

	kill(child, SIGTERM);
	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR)
			return;
		if (bp_session_signal) {
			kill(child, bp_session_signal);
			bp_session_signal = 0;
		}
	}
}

int bp_session__run(struct bp_session_loop *l)
{
	int status, err, code = 0, exec_fd = l->obj ? bpfprobe_object__exec_fd(l->obj) : -1;
	bool streaming = false;

	if (exec_fd < 0)
		exec_fd = -1;
	l->write_err = 0;
	l->child_stopped = false;
	for (;;) {
		/* bounded: the workload and signals are checked in between */
		err = wait_once(l, exec_fd, 50, &streaming);
		if (err >= 0 && reader_gone(l->out_fd))
			err = -EPIPE;
		if (err < 0) {
			l->write_err = err;
			if (l->child > 0 && waitpid(l->child, &status, WNOHANG) == 0) {
				l->child_stopped = true;
				stop_child(l->child);
			}
			return err == -EPIPE ? 128 + SIGPIPE : 1;
		}
		if (bp_session_signal) {
			if (l->child <= 0)
				break;
			kill(l->child, bp_session_signal);
			bp_session_signal = 0;
		}
		if (l->child > 0 && waitpid(l->child, &status, WNOHANG) == l->child) {
			code = bp_workload__exit_code(status);
			break;
		}
	}
	/* what the last processes ran, for the report */
	if (exec_fd >= 0)
		bpfprobe_object__handle_execs(l->obj);
	return code;
}

int bp_session__write_failed(const char *cmd, const char *where, int err, uint64_t unwritten,
			     const char *lost_too, bool child_stopped)
{
	bp_stdio__said();
	if (err == -EPIPE) {
		if (bp_cli_verbose)
			fprintf(stderr, "bpfprobe %s: %s was closed (its reader went away): probes detached%s\n",
				cmd, where, child_stopped ? ", the command stopped (SIGTERM)" : "");
		return 128 + SIGPIPE;
	}
	fprintf(stderr, "bpfprobe %s: cannot write the records to %s: %s: %llu record%s not written%s%s; probes detached%s\n",
		cmd, where, strerror(-err), (unsigned long long)unwritten, unwritten == 1 ? "" : "s",
		lost_too ? ", nor " : "", lost_too ? lost_too : "",
		child_stopped ? ", the command stopped (SIGTERM)" : "");
	return 1;
}
