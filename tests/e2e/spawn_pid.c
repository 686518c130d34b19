// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * spawn_pid PID CMD [ARG...]: runs CMD as a process whose pid is PID
 * (clone3's set_tid, Linux 5.5+, CAP_SYS_ADMIN in the PID namespace), for
 * the pid-reuse test: the -p process exits during the load and another
 * takes its pid, deterministically rather than by cycling through pids.
 * Prints nothing; exits 0 once CMD runs (its exec done: the pid's name
 * is CMD's from then on; CMD itself is not waited for), else 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	pid_t want, got;
	struct clone_args args = {};
	int done[2];
	ssize_t n;
	char c;

	if (argc < 3) {
		fprintf(stderr, "usage: spawn_pid PID CMD [ARG...]\n");
		return 1;
	}
	want = atoi(argv[1]);
	/* closed by the child's exec: read() returns 0 once it is done */
	if (pipe2(done, O_CLOEXEC)) {
		perror("spawn_pid: pipe2");
		return 1;
	}
	args.exit_signal = SIGCHLD;
	args.set_tid = (uint64_t)(uintptr_t)&want;
	args.set_tid_size = 1;
	got = syscall(SYS_clone3, &args, sizeof(args));
	if (got < 0) {
		fprintf(stderr, "spawn_pid: clone3 with pid %d: %s\n", (int)want, strerror(errno));
		return 1;
	}
	if (got == 0) {
		close(done[0]);
		execvp(argv[2], argv + 2);
		/* the exec failed: say so through the pipe */
		c = 1;
		if (write(done[1], &c, 1) < 0)
			_exit(127);
		_exit(127);
	}
	close(done[1]);
	while ((n = read(done[0], &c, 1)) < 0 && errno == EINTR)
		;
	if (n > 0)
		fprintf(stderr, "spawn_pid: cannot run %s\n", argv[2]);
	return n > 0;
}
