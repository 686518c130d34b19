// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Target of the process-tree tests (tests/e2e/follow.sh): calls work(i)
 * from forked children, threads and itself, printing one truth line per
 * call, so that a probe's values can be checked whoever made the call.
 *
 *   follow forks N     N children, each calls work(1000 + k) and exits
 *   follow threads N   N threads, each calls work(2000 + k)
 *   follow self N      work(k) N times in this process
 *   follow idle S      sleeps S seconds, calling nothing
 * Ends with "done MODE N" once every child or thread is reaped.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

volatile long sink;

__attribute__((noinline)) long work(long i, long twice)
{
	sink = i + twice;
	return sink;
}

static void call(long i)
{
	work(i, 2 * i);
	printf("TRUTH work i=%ld twice=%ld\n", i, 2 * i);
	fflush(stdout);
}

static void *thread_main(void *arg)
{
	call((long)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "self";
	int n = argc > 2 ? atoi(argv[2]) : 1, ok = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "forks")) {
		for (int k = 0; k < n; k++) {
			pid_t pid = fork();

			if (pid == 0) {
				call(1000 + k);
				_exit(0);
			}
			if (pid > 0)
				ok++;
		}
		while (wait(NULL) > 0)
			;
	} else if (!strcmp(mode, "threads")) {
		pthread_t t[64];

		n = n > 64 ? 64 : n;
		for (int k = 0; k < n; k++)
			if (!pthread_create(&t[k], NULL, thread_main, (void *)(long)(2000 + k)))
				ok++;
		for (int k = 0; k < ok; k++)
			pthread_join(t[k], NULL);
	} else if (!strcmp(mode, "idle")) {
		sleep(n);
		ok = n;
	} else {
		for (int k = 0; k < n; k++, ok++)
			call(k);
	}
	printf("done %s %d\n", mode, ok);
	return ok == n ? 0 : 1;
}
