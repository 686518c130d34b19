// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The unwinder's C target, built -O2 -fomit-frame-pointer by gcc and
 * clang (unwind.mk). It takes one stack sample (uw_capture.h) where a
 * gdb breakpoint `break *uw_sample_point` stops too:
 *   uw_target sort PATH   inside a qsort() comparator, two inlined
 *                         functions deep: the stack passes through libc
 *   uw_target deep PATH   under 40 recursive calls with 512-byte frames,
 *                         so that the stack is deeper than a sample holds
 *   uw_target deep-inside PATH
 *                         the same, waiting (below) inside the recursion
 * With UW_WAIT set, it then waits for its stdin to close before exiting
 * (deep-inside: before returning from the sampled calls), so that the
 * unwinder can read the live process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../capture/uw_capture.h"

#define NITEMS	64
#define KEY	37

static const char *sample_path;
static int wait_inside;
static volatile int sink;
static int items[NITEMS];
static int direction = 1;
static int sampled;

static inline __attribute__((always_inline)) int weigh(int a, int b)
{
	if (!sampled && (a == KEY || b == KEY)) {
		sampled = 1;
		sink += uw_take_sample(sample_path);
	}
	return (a > b) - (a < b);
}

static inline __attribute__((always_inline)) int compare_weighed(const int *a, const int *b)
{
	int w = weigh(*a, *b);

	return w * direction;
}

static int cmp(const void *a, const void *b)
{
	return compare_weighed(a, b);
}

static __attribute__((noinline)) void sort_items(int n)
{
	int i;

	for (i = 0; i < n; i++)
		items[i] = (i * 7919) % NITEMS;
	qsort(items, n, sizeof(items[0]), cmp);
	sink += items[0];
}

static void wait_for_stdin_eof(void)
{
	char buf[64];

	if (!getenv("UW_WAIT"))
		return;
	while (read(0, buf, sizeof(buf)) > 0)
		;
}

/* Keeps values in callee-saved registers across calls: their CFI rules
 * are what the unwinder restores. */
static __attribute__((noinline)) int descend(int depth, int a, int b)
{
	volatile char pad[512];
	int x = a * 3 + depth, y = b ^ depth, r;

	pad[depth % sizeof(pad)] = (char)x;
	if (depth == 0) {
		sink += uw_take_sample(sample_path);
		if (wait_inside)
			wait_for_stdin_eof();
		return x + y + pad[0];
	}
	r = descend(depth - 1, x, y);
	return r + x * y + pad[depth % sizeof(pad)];
}


int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s sort|deep|deep-inside SAMPLE-FILE\n", argv[0]);
		return 2;
	}
	sample_path = argv[2];
	if (!strcmp(argv[1], "sort"))
		sort_items(NITEMS);
	else if (!strcmp(argv[1], "deep") || !strcmp(argv[1], "deep-inside")) {
		wait_inside = !strcmp(argv[1], "deep-inside");
		sink += descend(40, argc, 5);
	} else {
		return 2;
	}
	printf("sampled %s\n", sample_path);
	fflush(stdout);
	if (!wait_inside)
		wait_for_stdin_eof();
	return 0;
}
