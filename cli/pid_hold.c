// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The -p process, held by a pidfd and its start time (pid_hold.h). */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli/pid_hold.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* The start time (field 22 of /proc/PID/stat) and name of pid now:
 * false when there is no such process. */
static bool read_process(pid_t pid, unsigned long long *start, char *comm, size_t len)
{
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* PID (COMM) STATE ...: COMM may hold spaces and parentheses */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
			 start) != 1)
		return false;
	snprintf(comm, len, "%.*s", (int)(p - strchr(buf, '(') - 1), strchr(buf, '(') + 1);
	return true;
}

int bp_pid_hold__open(struct bp_pid_hold *h, const char *cmd, pid_t pid)
{
	memset(h, 0, sizeof(*h));
	h->pid = pid;
	h->pidfd = -1;
	if (pid <= 0)
		return 0;
	/* the pidfd first: the start time read after it is its process's */
	h->pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (h->pidfd < 0 && errno == ESRCH) {
		fprintf(stderr, "bpfprobe %s: process %d: no such process\n", cmd, (int)pid);
		return -ESRCH;
	}
	if (!read_process(pid, &h->start, h->comm, sizeof(h->comm))) {
		fprintf(stderr, "bpfprobe %s: process %d: no such process\n", cmd, (int)pid);
		bp_pid_hold__close(h);
		return -ESRCH;
	}
	return 0;
}

/* Whether the process held has exited (its pidfd is readable then). */
static bool exited(const struct bp_pid_hold *h)
{
	struct pollfd p = { .fd = h->pidfd, .events = POLLIN };

	return h->pidfd >= 0 && poll(&p, 1, 0) == 1 && (p.revents & (POLLIN | POLLHUP));
}

int bp_pid_hold__check(const struct bp_pid_hold *h, const char *cmd, const char *when)
{
	unsigned long long start = 0;
	char comm[64] = "";
	long hz = sysconf(_SC_CLK_TCK);
	bool now;

	if (h->pid <= 0)
		return 0;
	now = read_process(h->pid, &start, comm, sizeof(comm));
	if (!exited(h) && now && start == h->start)
		return 0;
	if (hz <= 0)
		hz = 100;
	if (now && start != h->start)
		fprintf(stderr, "bpfprobe %s: process %d (%s, started %.2f s after boot) exited, and pid %d is now another process (%s, started %.2f s after boot): %s\n",
			cmd, (int)h->pid, h->comm, (double)h->start / hz, (int)h->pid, comm,
			(double)start / hz, when);
	else
		fprintf(stderr, "bpfprobe %s: process %d (%s) exited: %s\n", cmd, (int)h->pid,
			h->comm, when);
	return -ESRCH;
}

void bp_pid_hold__close(struct bp_pid_hold *h)
{
	if (h->pidfd >= 0)
		close(h->pidfd);
	h->pidfd = -1;
}
