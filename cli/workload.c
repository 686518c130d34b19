// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/workload.h"
#include "util/log.h"

static void close_pipes(int go[2], int errp[2])
{
	close(go[0]);
	close(go[1]);
	close(errp[0]);
	close(errp[1]);
}

int bp_workload__prepare(struct bp_workload *w, char *const argv[])
{
	int go[2], errp[2];
	pid_t gpid;
	char c;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(errp, O_CLOEXEC)) {
		int err = -errno;

		close(go[0]);
		close(go[1]);
		return err;
	}
	w->pid = fork();
	if (w->pid < 0) {
		int err = -errno;

		close_pipes(go, errp);
		return err;
	}
	if (w->pid == 0) {
		int e;

		close(go[1]);
		close(errp[0]);
		/* bpfprobe ignores it (it sees EPIPE instead): the command
		 * must not inherit that */
		signal(SIGPIPE, SIG_DFL);
		/* the kernel's number for us (inside a PID namespace it is not
		 * getpid()): the parent follows us and scopes printk by it */
		gpid = bpfprobe_pid__global();
		if (write(errp[1], &gpid, sizeof(gpid)) != sizeof(gpid))
			_exit(127);
		if (w->stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		/* held here until the parent has attached every probe; a
		 * parent that died before that (EOF, no byte) means: do not run */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(errp[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(errp[1]);
	w->go_fd = go[1];
	w->err_fd = errp[0];
	if (read(w->err_fd, &gpid, sizeof(gpid)) != sizeof(gpid)) {
		bp_workload__abort(w);
		return -ECHILD;
	}
	if (gpid < 0) {
		bp_workload__abort(w);
		return gpid;
	}
	w->global_pid = gpid;
	return 0;
}

int bp_workload__start(struct bp_workload *w, const char *cmd)
{
	ssize_t n;
	int e;

	if (write(w->go_fd, "g", 1) != 1) {
		bp_err("cannot release '%s': %s\n", cmd, strerror(errno));
		bp_workload__abort(w);
		return -EPIPE;
	}
	close(w->go_fd);
	w->go_fd = -1;
	n = read(w->err_fd, &e, sizeof(e));
	close(w->err_fd);
	w->err_fd = -1;
	if (n == sizeof(e)) {
		bp_err("cannot run '%s': %s\n", cmd, strerror(e));
		waitpid(w->pid, NULL, 0);
		w->pid = -1;
		return -e;
	}
	return 0;
}

void bp_workload__abort(struct bp_workload *w)
{
	if (w->pid <= 0)
		return;
	kill(w->pid, SIGKILL);
	waitpid(w->pid, NULL, 0);
	w->pid = -1;
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
}

int bp_workload__exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
