// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Calls sched_setscheduler/sched_setparam with known arguments and writes
 * what tests/kernel/bpf/sched.bpf.c must see, as "TRUTH ..." lines in its
 * "GOT ..." format. Raw syscalls: the kernel gets exactly these values.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <unistd.h>

/* The truth goes to $KT_TRUTH (else stdout): not into the stdout bpfprobe
 * shares with its own output, where lines could interleave. */
static FILE *truth;

static int truth_open(void)
{
	const char *path = getenv("KT_TRUTH");

	truth = path ? fopen(path, "a") : stdout;
	if (!truth)
		perror(path);
	return !truth;
}

/* One call of do_sched_setscheduler(pid, policy, param). */
static void call(long nr, long pid, long policy, struct sched_param *param, int prio)
{
	/* a pointer the kernel cannot read: the probe's fetch fails too */
	int bad = param == NULL || (unsigned long)param < 4096;
	long r = nr == SYS_sched_setparam ? syscall(nr, pid, param)
					  : syscall(nr, pid, policy, param);

	if (r < 0)
		r = -errno;
	/* sched_setparam() passes policy -1 (SETPARAM_POLICY) */
	if (nr == SYS_sched_setparam)
		policy = -1;
	fprintf(truth, "TRUTH uargs err=0 pid=%u p16=%u p8=%u\n", (unsigned int)pid,
		(unsigned short)policy, (unsigned char)policy);
	if (bad) {
		fprintf(truth, "TRUTH seed err=1 prio=0\n");
		fprintf(truth, "TRUTH args err=1 pid=0 policy=0 prio=0\n");
		fprintf(truth, "TRUTH fargs err=1 pid=0 policy=0 prio=0\n");
	} else {
		fprintf(truth, "TRUTH seed err=0 prio=%d\n", prio);
		fprintf(truth, "TRUTH args err=0 pid=%ld policy=%ld prio=%d\n", pid, policy, prio);
		fprintf(truth, "TRUTH fargs err=0 pid=%ld policy=%ld prio=%d\n", pid, policy, prio);
	}
	fprintf(truth, "TRUTH ret err=0 ret=%ld\n", r);
}

static void set(long nr, long pid, long policy, int prio)
{
	struct sched_param p = { .sched_priority = prio };

	call(nr, pid, policy, &p, prio);
}

int main(void)
{
	if (truth_open())
		return 1;

	set(SYS_sched_setscheduler, 0, SCHED_FIFO, 1);
	set(SYS_sched_setscheduler, 0, SCHED_FIFO, 42);
	set(SYS_sched_setscheduler, 0, SCHED_FIFO, 99);
	set(SYS_sched_setscheduler, getpid(), SCHED_RR, 7);
	set(SYS_sched_setparam, 0, 0, 5);
	set(SYS_sched_setscheduler, 0, SCHED_FIFO, 100);	/* -EINVAL */
	set(SYS_sched_setscheduler, 999999, SCHED_FIFO, 1);	/* -ESRCH */
	set(SYS_sched_setscheduler, -5, SCHED_FIFO, 1);		/* -EINVAL */
	call(SYS_sched_setscheduler, 0, SCHED_FIFO, (struct sched_param *)8, 0); /* -EFAULT */
	call(SYS_sched_setscheduler, 0, SCHED_FIFO, NULL, 0);	/* -EINVAL */
	set(SYS_sched_setscheduler, 0, SCHED_OTHER, 0);
	return 0;
}
