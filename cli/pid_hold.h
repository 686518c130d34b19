/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The process -p PID names, held from the start (pid_hold.c): a pidfd,
 * which stays that process's even once its number is another's, and its
 * start time and name. Resolving and loading take a while; the process
 * may exit meanwhile and its pid be given to another. Before the probes
 * are attached to PID (and its processes followed), and before each
 * report about it, the hold is checked: the process must still run, and
 * PID must still be it (the same start time). Otherwise the session ends
 * with an error naming both processes; nothing stays attached.
 */
#ifndef BPFPROBE_PID_HOLD_H
#define BPFPROBE_PID_HOLD_H

#include <sys/types.h>

struct bp_pid_hold {
	pid_t pid;		/* -1: no -p */
	int pidfd;		/* -1: the kernel has no pidfd_open (before 5.3) */
	unsigned long long start;	/* clock ticks after boot (/proc/PID/stat) */
	char comm[64];
};

/* pid held (pid <= 0: nothing is, and every check passes). 0, or
 * -ESRCH after a message naming cmd when there is no such process. */
int bp_pid_hold__open(struct bp_pid_hold *h, const char *cmd, pid_t pid);

/*
 * 0 when pid is still the process held; -ESRCH after a message naming
 * cmd, the process held and, when the pid is another's now, that one,
 * and what is at stake (when: "nothing attached", ...).
 */
int bp_pid_hold__check(const struct bp_pid_hold *h, const char *cmd, const char *when);

void bp_pid_hold__close(struct bp_pid_hold *h);

#endif /* BPFPROBE_PID_HOLD_H */
