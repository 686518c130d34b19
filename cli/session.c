// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* What load and trace share (session.h). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/session.h"

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

/* Waits up to timeout_ms for output or an exec to look at, then reads
 * both; without an exec fd, output's own poll waits. */
static void wait_once(const struct bp_session_loop *l, int exec_fd, int timeout_ms)
{
	struct pollfd p[2] = {
		{ .fd = exec_fd, .events = POLLIN }, { .fd = l->out_fd, .events = POLLIN },
	};

	if (exec_fd < 0) {
		l->poll(l->ctx, timeout_ms);
		return;
	}
	poll(p, l->out_fd >= 0 ? 2 : 1, timeout_ms);
	/* a held process first: it waits for us */
	bpfprobe_object__handle_execs(l->obj);
	l->poll(l->ctx, 0);
}

int bp_session__run(const struct bp_session_loop *l, pid_t child)
{
	int status, code = 0, exec_fd = l->obj ? bpfprobe_object__exec_fd(l->obj) : -1;

	if (exec_fd < 0)
		exec_fd = -1;
	for (;;) {
		/* bounded: the workload and signals are checked in between */
		wait_once(l, exec_fd, 50);
		if (bp_session_signal) {
			if (child <= 0)
				break;
			kill(child, bp_session_signal);
			bp_session_signal = 0;
		}
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			code = bp_workload__exit_code(status);
			break;
		}
	}
	/* what the last processes ran, for the report */
	if (exec_fd >= 0)
		bpfprobe_object__handle_execs(l->obj);
	return code;
}
