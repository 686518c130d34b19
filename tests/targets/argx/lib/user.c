/*
 * Calls lib_bump() of argxlib.c (a shared library) and prints the truth;
 * and one large malloc(), for a static of libc (mp_.n_mmaps, which
 * mallinfo2() reports as hblks) read with libc6-dbg's DWARF.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

long lib_bump(int n);
long lib_get_counter(void);
long lib_get_static(void);

void *volatile big;

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	long ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < rounds; i++) {
		printf("TRUTH lib n=5 g=%ld s=%ld\n", lib_get_counter(), lib_get_static());
		printf("TRUTH lib_obj b=-4 a=3\n");
		ret = lib_bump(5);
		printf("TRUTH lib_ret retval=%ld g=%ld calls=%d\n", ret, lib_get_counter(), i + 1);

		/* nothing else allocates between the two mallinfo2() calls */
		struct mallinfo2 before = mallinfo2();
		/* kept: a malloc()/free() pair nothing reads is optimized away */
		big = malloc(64 << 20);
		struct mallinfo2 after = mallinfo2();

		free(big);
		printf("TRUTH libc_malloc bytes=%d n_mmaps=%zu\n", 64 << 20, before.hblks);
		printf("TRUTH libc_malloc_ret n_mmaps=%zu\n", after.hblks);
	}
	return 0;
}
