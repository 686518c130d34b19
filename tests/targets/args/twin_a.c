/* A static function named like one in twin_b.c, argument x in another register. */
#include "args.h"

static NOINLINE int twin(int x)
{
	sink = x;
	return x + 1;
}

int twin_a(int n)
{
	return twin(1000 + n);
}
