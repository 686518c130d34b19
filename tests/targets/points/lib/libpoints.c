/*
 * libpoints.so: a shared library probed by its bare name
 * (exec=libpoints.so), found through LD_LIBRARY_PATH like ld.so does.
 */
volatile long lib_sink;

__attribute__((noinline)) long lib_mul(int a, long b)
{
	lib_sink = a * b;
	return lib_sink;
}
