/* twin@twin_a.c: a static function of the same name as in twin_b.c */
#include "points.h"

static NOINLINE int twin(int v)
{
	sink = v + 1000;
	return v;
}

int call_twin_a(int v)
{
	return twin(v);
}
