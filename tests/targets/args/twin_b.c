/* The other static twin: x is the second parameter here. */
#include "args.h"

static NOINLINE int twin(long pad, int x)
{
	sink = pad + x;
	return x + 2;
}

int twin_b(int n)
{
	return twin(7, 2000 + n);
}
