// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The target of the slowdown benchmark (bench/bench.sh, section 7), built
 * -O2 -g -fno-omit-frame-pointer -no-pie: a hot function called HITS
 * times, each call doing UNITS units of work (a xorshift step each) after
 * the line every tool probes, which reads the local `probed`.
 *
 *   slow_target HITS UNITS GO
 *
 * prints "pid=N" and waits until the file GO exists (the observer is
 * ready), then times the calls alone and prints "elapsed_ns=T".
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline, noipa)) static unsigned long hot(unsigned long seed,
							 unsigned long units)
{
	unsigned long x = seed * 0x9e3779b97f4a7c15ul + 1;
	volatile unsigned long probed = x ^ (seed << 17);

	probed += seed | 1;	/* BENCH_PROBED_LINE: every tool probes this line, reading probed */
	for (unsigned long i = 0; i < units; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		x += i;
	}
	sink += x ^ probed;
	return x;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long hits, units, seed = 1;
	double t0, t1;

	if (argc != 4)
		return 2;
	hits = strtoul(argv[1], NULL, 10);
	units = strtoul(argv[2], NULL, 10);
	printf("pid=%d\n", (int)getpid());
	fflush(stdout);
	for (int i = 0; access(argv[3], F_OK) && i < 120000; i++)
		usleep(500);
	t0 = now_ns();
	for (unsigned long i = 0; i < hits; i++)
		seed = hot(seed + i, units);
	t1 = now_ns();
	printf("elapsed_ns=%.0f sink=%lu\n", t1 - t0, sink ^ seed);
	return 0;
}
