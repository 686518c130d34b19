// SPDX-License-Identifier: GPL-2.0
/*
 * Preloaded into the differential test's workloads (tests/diff): the
 * clock as a counter, so that two runs of one workload see the same
 * times (Lua's string hash seed takes time(NULL); libdb and CPython keep
 * timestamps). Every call advances it by one microsecond.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <time.h>
#include <sys/time.h>

static unsigned long long ticks;

static unsigned long long tick(void)
{
	return 1700000000ULL * 1000000ULL + ticks++;
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	unsigned long long us = tick();

	(void)clk;
	ts->tv_sec = us / 1000000;
	ts->tv_nsec = (us % 1000000) * 1000;
	return 0;
}

int gettimeofday(struct timeval *tv, void *tz)
{
	unsigned long long us = tick();

	(void)tz;
	tv->tv_sec = us / 1000000;
	tv->tv_usec = us % 1000000;
	return 0;
}

time_t time(time_t *t)
{
	time_t v = tick() / 1000000;

	if (t)
		*t = v;
	return v;
}
