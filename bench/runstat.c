// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * runstat N CMD [ARGS...] [--versus CMD2 [ARGS...]]: runs CMD N times and
 * prints the medians of
 *   wall seconds, CPU seconds (user + system, CMD and the children it
 *   waited for: what wait4() reports) and peak RSS in KiB (the largest of
 *   CMD and its waited-for descendants)
 * as "wall=S cpu=S rss_kb=K". With --versus the two commands' runs
 * alternate (CMD CMD2 CMD CMD2 ...), so a slow spell of the machine hits
 * both alike, and a line is printed for each. Output of the commands goes
 * to /dev/null unless RUNSTAT_LOG names a file (appended). RUNSTAT_BEFORE,
 * when set, is a shell command run before each run of CMD and not measured
 * (emptying a cache, for runs that must start cold). A command that
 * fails is not run again and its line is "fail": a benchmark of a failing
 * command measures nothing; the exit status is then 1.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

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

/*
 * One run of argv. It is started with posix_spawnp, which glibc does
 * without copying runstat's address space (a vfork-like clone): a fork's
 * copy-on-write faults and the teardown of that copy at exec would be
 * counted in the command's CPU time (about half a millisecond here), a
 * cost of the harness and not of the command.
 */
static int run_once(char **argv, double *wall, double *cpu, double *rss)
{
	const char *log = getenv("RUNSTAT_LOG");
	posix_spawn_file_actions_t fa;
	struct timespec t0, t1;
	struct rusage ru;
	int status, err;
	pid_t pid;

	if (posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_addopen(&fa, 1, log ? log : "/dev/null",
					     O_WRONLY | O_CREAT | O_APPEND, 0644) ||
	    posix_spawn_file_actions_adddup2(&fa, 1, 2))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		fprintf(stderr, "runstat: cannot run %s: %s\n", argv[0], strerror(err));
		return -1;
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

/* The runs of one command: its argv and n measurements of each kind. */
struct series {
	char **argv;
	double *wall, *cpu, *rss;
	bool failed;
};

static int series_init(struct series *s, char **argv, int n)
{
	s->argv = argv;
	s->wall = calloc(n, sizeof(double));
	s->cpu = calloc(n, sizeof(double));
	s->rss = calloc(n, sizeof(double));
	return s->wall && s->cpu && s->rss ? 0 : -1;
}

static void series_print(struct series *s, int n)
{
	if (s->failed)
		printf("fail\n");
	else
		printf("wall=%.4f cpu=%.4f rss_kb=%.0f\n", median(s->wall, n),
		       median(s->cpu, n), median(s->rss, n));
}

int main(int argc, char **argv)
{
	struct series s[2];
	int n, ns = 1, i, k;
	bool failed = false;

	if (argc < 3 || (n = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: runstat N CMD [ARGS...] [--versus CMD2 [ARGS...]]\n");
		return 2;
	}
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--versus"))
			continue;
		argv[i] = NULL;		/* ends CMD's argv */
		if (i == 2 || i + 1 == argc) {
			fprintf(stderr, "runstat: a command on each side of --versus\n");
			return 2;
		}
		ns = 2;
		if (series_init(&s[1], argv + i + 1, n))
			return 1;
		break;
	}
	if (series_init(&s[0], argv + 2, n))
		return 1;
	for (i = 0; i < n; i++) {
		for (k = 0; k < ns; k++) {
			const char *before = getenv("RUNSTAT_BEFORE");

			if (!k && before && *before && system(before)) {
				fprintf(stderr, "runstat: '%s' failed\n", before);
				s[k].failed = failed = true;
			}
			if (!s[k].failed &&
			    run_once(s[k].argv, &s[k].wall[i], &s[k].cpu[i], &s[k].rss[i]))
				s[k].failed = failed = true;
		}
	}
	for (k = 0; k < ns; k++)
		series_print(&s[k], n);
	return failed;
}
