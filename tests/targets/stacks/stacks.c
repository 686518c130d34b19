/*
 * Test target for stacks (tests/e2e/stacks.sh), built -O2, which omits
 * frame pointers: leaf() is called from two functions inlined into a
 * qsort() comparator, so its stack passes through inlined frames and
 * through libc, under a few recursive calls:
 *
 *   main -> recurse x DEPTH -> qsort (libc) -> ... -> cmp
 *        -> [twice -> weigh, inlined] -> leaf
 *
 * It prints how many times each distinct path reached leaf():
 *
 *   TRUTH leaf via weigh_a N
 *   TRUTH leaf via weigh_b M
 *
 *   stacks-CC-OPT DEPTH N [HOLD]    N sorts of 8 items under DEPTH calls,
 *                                   then HOLD seconds before exiting
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noinline, noclone, used))
#endif
#define INLINE static inline __attribute__((always_inline))

volatile long sink;
static long via_a, via_b;

NOINLINE long leaf(long x)
{
	sink += x;
	return sink & 1;
}

INLINE long weigh_a(long x)
{
	via_a++;
	return leaf(x * 3) + 1;
}

INLINE long weigh_b(long x)
{
	via_b++;
	return leaf(x * 5) + 2;
}

INLINE long twice(long a, long b)
{
	return a < b ? weigh_a(a) : weigh_b(b);
}

static int cmp(const void *pa, const void *pb)
{
	long a = *(const long *)pa, b = *(const long *)pb;

	sink += twice(a, b);
	return (a > b) - (a < b);
}

NOINLINE long recurse(int depth, int n)
{
	long items[8], r;

	if (depth == 0) {
		for (int i = 0; i < n; i++) {
			for (int k = 0; k < 8; k++)
				items[k] = (k * 5 + i) % 8;
			qsort(items, 8, sizeof(items[0]), cmp);
		}
		return items[0];
	}
	r = recurse(depth - 1, n);
	/* no tail call: each level keeps its frame */
	sink += r;
	return r + depth;
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 3;
	int n = argc > 2 ? atoi(argv[2]) : 1;

	recurse(depth, n);
	printf("TRUTH leaf via weigh_a %ld\n", via_a);
	printf("TRUTH leaf via weigh_b %ld\n", via_b);
	fflush(stdout);
	if (argc > 3)
		sleep(atoi(argv[3]));
	return 0;
}
