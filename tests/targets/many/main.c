// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A thousand probe points of one plan (tests/e2e/many_points.sh): the
 * functions many_000 .. many_999, each called once with its own argument,
 * which it prints as the truth. The arguments come from a volatile, so no
 * call is folded into a clone without its parameter.
 */
#include <stdio.h>

#define NOINLINE __attribute__((noinline, used))

volatile long sink;
volatile long base = -500;

#define F3(a, b, c)							\
	NOINLINE long many_##a##b##c(long x)				\
	{								\
		sink += x;						\
		__asm__ volatile("" ::: "memory");			\
		return x;						\
	}
#define C10(a, b) F3(a, b, 0) F3(a, b, 1) F3(a, b, 2) F3(a, b, 3) F3(a, b, 4) \
	F3(a, b, 5) F3(a, b, 6) F3(a, b, 7) F3(a, b, 8) F3(a, b, 9)
#define B10(a) C10(a, 0) C10(a, 1) C10(a, 2) C10(a, 3) C10(a, 4) \
	C10(a, 5) C10(a, 6) C10(a, 7) C10(a, 8) C10(a, 9)
B10(0) B10(1) B10(2) B10(3) B10(4) B10(5) B10(6) B10(7) B10(8) B10(9)

/* 1abc - 1000: the number abc without C's octal reading of 0ab */
#define CALL3(a, b, c)							\
	printf("TRUTH x=%ld\n", many_##a##b##c(base + (1##a##b##c - 1000) * 3));
#define CC10(a, b) CALL3(a, b, 0) CALL3(a, b, 1) CALL3(a, b, 2) CALL3(a, b, 3) \
	CALL3(a, b, 4) CALL3(a, b, 5) CALL3(a, b, 6) CALL3(a, b, 7) CALL3(a, b, 8) CALL3(a, b, 9)
#define CB10(a) CC10(a, 0) CC10(a, 1) CC10(a, 2) CC10(a, 3) CC10(a, 4) \
	CC10(a, 5) CC10(a, 6) CC10(a, 7) CC10(a, 8) CC10(a, 9)

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	CB10(0) CB10(1) CB10(2) CB10(3) CB10(4) CB10(5) CB10(6) CB10(7) CB10(8) CB10(9)
	return 0;
}
