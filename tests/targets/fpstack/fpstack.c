/*
 * Test target for stacks taken by frame pointers (tests/e2e/stacks_fp.sh),
 * built -O2 keeping frame pointers (its opts: O2-fp). leaf() is called
 * through two functions inlined into a recursive one:
 *
 *   main -> outer x (DEPTH + 1) -> [middle -> inner, inlined] -> leaf
 *
 * It calls nothing of libc, so the same source is also linked with no libc
 * at all (freestanding/start.S, fpstack.mk): there every function of the
 * process keeps a frame pointer, and ustack=auto takes frame pointers.
 *
 *   fpstack-CC-O2-fp [N]    N rounds (default 3)
 */
#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noinline, noclone, used))
#endif
#define INLINE static inline __attribute__((always_inline))

#define DEPTH	3

volatile long sink;

NOINLINE long leaf(long x)
{
	sink += x;
	return sink & 1;
}

INLINE long inner(long x)
{
	return leaf(x * 3) + 1;
}

INLINE long middle(long x)
{
	return inner(x + 1) * 2;
}

NOINLINE long outer(int depth, long x)
{
	long r;

	if (depth == 0)
		return middle(x);
	r = outer(depth - 1, x + 1);
	/* no tail call: each level keeps its frame */
	sink += r;
	return r + depth;
}

static long number(const char *s)
{
	long n = 0;

	while (*s >= '0' && *s <= '9')
		n = n * 10 + (*s++ - '0');
	return n;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? number(argv[1]) : 3;

	for (long i = 0; i < n; i++)
		sink += outer(DEPTH, i);
	return 0;
}
