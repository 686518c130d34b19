/* twin@twin_b.c: a static function of the same name as in twin_a.c */
#include "points.h"

static NOINLINE int twin(int v)
{
	sink = v * 1000;
	return v + 1;
}

int call_twin_b(int v)
{
	return twin(v);
}
