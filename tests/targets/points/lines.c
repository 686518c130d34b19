/*
 * Source lines and lazy patterns. tests/bpf/points__*.bpf.c name lines of
 * this file by number (lines.c:N) and by marker comment (;*MARKER*); the
 * e2e test checks that each numbered line still holds its marker.
 */
#include "points.h"

NOINLINE int line_abs(int a, long b)
{
	long s = a * 3L + b;

	sink = s;			/* LINE_ABS (lines.c:12) */
	sink = b - a;			/* LINE_REL (line_abs:5) */
	use3(a, b, s);
	return (int)s;
}

NOINLINE int lazy_fn(int x, int y)
{
	int r = x ^ y;

	sink = r + 1;			/* LAZY_ONE */
	sink = r - y;			/* LAZY_TWO */
	sink = r * 2 + x;		/* LAZY_TWO */
	use3(x, y, r);
	return r;
}

NOINLINE int file_a(int v)
{
	sink = v + 1;			/* LAZY_FILE */
	return v;
}

NOINLINE int file_b(int v)
{
	sink = v + 2;			/* LAZY_FILE */
	return v;
}
