// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * fault_cycles OBJ N [K]: opens, loads and destroys OBJ N times in one
 * process through the library API, attaching and detaching too in every
 * K-th cycle (default 1: all), and checks that nothing grows: the open file
 * descriptors, the malloc heap in use (mallinfo2) and the resident set.
 *
 * The first WARMUP cycles are not counted: libbpf and libdw fill caches
 * once (feature probes, the registered section handler). After that a
 * cycle must give back everything it took. Under ASan mallinfo2 means
 * nothing (ASan owns malloc); LeakSanitizer checks the heap at exit there.
 *
 * Prints one line "cycles=... fds=A->B heap=A->B rss_kb=A->B secs=S" and
 * exits 0 when flat, 1 when something grew, 2 when a cycle failed.
 */
#include <dirent.h>
#include <stdbool.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpfprobe/bpfprobe.h>

#define WARMUP 20
/* slack for allocator bookkeeping and page granularity, not per cycle */
#define HEAP_SLACK (64 * 1024)
#define RSS_SLACK_KB 1024

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* the DIR's own fd */
}

static long rss_kb(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static size_t heap_in_use(void)
{
	return mallinfo2().uordblks;
}

static int one_cycle(const char *path, bool attach)
{
	struct bpfprobe_attach_opts aopts = { .sz = sizeof(aopts), .pid = getpid() };
	struct bpfprobe_object *obj;
	int err;

	obj = bpfprobe_object__open(path, NULL);
	if (!obj)
		return -1;
	err = bpfprobe_object__load(obj);
	if (!err && attach)
		err = bpfprobe_object__attach(obj, &aopts);
	if (!err && bpfprobe_object__instance_cnt(obj) == 0)
		err = -1;
	bpfprobe_object__destroy(obj);
	return err;
}

static int sanitized(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return 1;
#endif
#endif
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 1000;
	int every = argc > 3 ? atoi(argv[3]) : 1;
	int attached = 0;
	int fd0 = 0, fd1;
	long rss0 = 0, rss1;
	size_t heap0 = 0, heap1;
	struct timespec t0, t1;
	int bad = 0;

	if (argc < 2 || n <= WARMUP || every < 1) {
		fprintf(stderr, "usage: fault_cycles OBJ N [K] (N > %d, K >= 1)\n", WARMUP);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < n; i++) {
		if (i == WARMUP) {
			fd0 = count_fds();
			heap0 = heap_in_use();
			rss0 = rss_kb();
		}
		attached += i % every == 0;
		if (one_cycle(argv[1], i % every == 0)) {
			fprintf(stderr, "cycle %d failed\n", i);
			return 2;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fd1 = count_fds();
	heap1 = heap_in_use();
	rss1 = rss_kb();
	printf("cycles=%d attached=%d fds=%d->%d heap=%zu->%zu rss_kb=%ld->%ld secs=%.2f\n", n,
	       attached, fd0, fd1, heap0, heap1, rss0, rss1,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (fd1 != fd0) {
		printf("fd count grew by %d\n", fd1 - fd0);
		bad = 1;
	}
	if (!sanitized() && heap1 > heap0 + HEAP_SLACK) {
		printf("heap in use grew by %zu bytes (%zu per cycle)\n", heap1 - heap0,
		       (heap1 - heap0) / (n - WARMUP));
		bad = 1;
	}
	if (!sanitized() && rss1 > rss0 + RSS_SLACK_KB) {
		printf("RSS grew by %ld KiB\n", rss1 - rss0);
		bad = 1;
	}
	return bad;
}
