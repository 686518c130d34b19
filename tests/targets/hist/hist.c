/*
 * Test target for histograms (tests/e2e/hist.sh): hist_value() takes a
 * signed and an unsigned value per call, from a fixed pseudo-random
 * series of every magnitude (negatives, zeros, ones, the top powers of
 * two); the target prints what each call passes:
 *
 *   TRUTH v=V u=U
 *
 *   hist-CC-OPT N         N calls
 */
#include <stdio.h>
#include <stdlib.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noinline, noclone, used))
#endif

volatile long sink;

NOINLINE long hist_value(long v, unsigned long u)
{
	sink += v + (long)u;
	return sink;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	unsigned long x = 88172645463325252UL;

	for (long i = 0; i < n; i++) {
		long v;
		unsigned long u;

		/* xorshift64 */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* a magnitude of 0..63 bits, a sign now and then */
		v = (long)(x >> (x % 64));
		if (x % 7 == 0)
			v = -v;
		if (x % 11 == 0)
			v = 0;
		u = x % 5 == 0 ? x : x >> ((x >> 16) % 64);
		printf("TRUTH v=%ld u=%lu\n", v, u);
		hist_value(v, u);
	}
	return 0;
}
