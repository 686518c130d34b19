/*
 * The shared library of the argx_lib test target: globals and statics
 * read from a probe in a library, which is loaded at some address of its
 * own (the load bias the prologue computes).
 */
#include "../argx.h"

long lib_counter = 10;
static __attribute__((used)) int lib_static = -20;
static __attribute__((used)) struct { int a; long b; } lib_obj = { 3, -4 };

NOINLINE long lib_bump(int n)
{
	static int lib_calls;

	lib_calls++;
	lib_counter += n;
	lib_static -= n;
	return lib_counter + lib_static + lib_calls + lib_obj.b;
}

/* the program reads the globals through these: a direct reference from
 * the executable would move lib_counter there (a copy relocation) */
long lib_get_counter(void)
{
	return lib_counter;
}

long lib_get_static(void)
{
	return lib_static;
}
