// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * runstat N CMD [ARGS...]: runs CMD N times and prints the medians of
 *   wall seconds, CPU seconds (user + system, CMD and the children it
 *   waited for: what wait4() reports) and peak RSS in KiB (the largest of
 *   CMD and its waited-for descendants)
 * as "wall=S cpu=S rss_kb=K". CMD's output goes to /dev/null unless
 * RUNSTAT_LOG names a file (appended). Exits 1 when a run fails, printing
 * the status: a benchmark of a failing command measures nothing.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double tv_sec(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static int run_once(char **argv, double *wall, double *cpu, double *rss)
{
	const char *log = getenv("RUNSTAT_LOG");
	struct timespec t0, t1;
	struct rusage ru;
	int status;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	*cpu = tv_sec(ru.ru_utime) + tv_sec(ru.ru_stime);
	*rss = ru.ru_maxrss;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "runstat: %s failed (status 0x%x)\n", argv[0], status);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	double *wall, *cpu, *rss;
	int n;

	if (argc < 3 || (n = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: runstat N CMD [ARGS...]\n");
		return 2;
	}
	wall = calloc(n, sizeof(double));
	cpu = calloc(n, sizeof(double));
	rss = calloc(n, sizeof(double));
	if (!wall || !cpu || !rss)
		return 1;
	for (int i = 0; i < n; i++)
		if (run_once(argv + 2, &wall[i], &cpu[i], &rss[i]))
			return 1;
	printf("wall=%.4f cpu=%.4f rss_kb=%.0f\n", median(wall, n), median(cpu, n), median(rss, n));
	return 0;
}
