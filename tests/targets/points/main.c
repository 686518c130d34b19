/*
 * Test target for the probe point forms: calls every function with values
 * read through 'opaque' (so no copy sees constants) and prints the truth,
 * one line per expected probe hit: "TRUTH <what> <name>=<value> ...".
 * The BPF programs of tests/bpf/points__*.bpf.c print "GOT <what> ...".
 *
 *   points [main [ROUNDS]]  source lines, globs, FUNC@SRC, force=, clones
 *   points inline [ROUNDS]  inlined copies (tests/bpf/points__inline.bpf.c)
 *   points malloc           malloc()s of known sizes (libc6-dbg test)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "points.h"

volatile long sink;
volatile int opaque;

/* v + opaque, opaque being 0: a value the compiler cannot see */
static int hide(int v)
{
	return v + opaque;
}

static void lines(int i)
{
	int a = hide(-7 - i), x = hide(12 + i), y = hide(-5);
	long b = hide(100000) * 1000L;

	/* 'a' is not there: clang keeps only (long)a past the entry */
	line_abs(a, b);
	printf("TRUTH line_abs b=%ld s=%ld\n", b, a * 3L + b);
	printf("TRUTH line_rel b=%ld s=%ld\n", b, a * 3L + b);

	lazy_fn(x, y);
	printf("TRUTH lazy_one x=%d y=%d\n", x, y);
	printf("TRUTH lazy_two x=%d y=%d\n", x, y);
	printf("TRUTH lazy_two x=%d y=%d\n", x, y);
	printf("TRUTH lazy_eq x=%d\n", x);

	file_a(hide(31));
	file_b(hide(-32));
	printf("TRUTH lazy_file v=31\nTRUTH lazy_file v=-32\n");
}

static void globs(void)
{
	glob_one(hide(101));
	glob_two(hide(5), hide(-202));
	glob_three(hide(6), hide(7), hide(303));
	globber(hide(999));
	printf("TRUTH glob x=101\nTRUTH glob x=-202\nTRUTH glob x=303\n");
}

static void twins(void)
{
	call_twin_a(hide(1));
	call_twin_b(hide(2));
	printf("TRUTH twin_b v=2\nTRUTH twin_rln v=2\n");
}

static void inlines(void)
{
	int a = hide(3), b = hide(-40);

	inl_caller1(a, b);
	printf("TRUTH inl x=%d y=%d\n", a, b);
	printf("TRUTH inl_line x=%d y=%d\n", a, b);
	inl_caller2(a + 1, b - 1);
	printf("TRUTH inl x=%d y=%d\n", b - 1, a + 1);
	printf("TRUTH inl_line x=%d y=%d\n", b - 1, a + 1);
	inl_via_pointer(a + 2, b - 2);
	printf("TRUTH inl x=%d y=%d\n", a + 2, b - 2);
	printf("TRUTH inl_line x=%d y=%d\n", a + 2, b - 2);
	printf("TRUTH inl_ool x=%d y=%d\n", a + 2, b - 2);
	printf("TRUTH inl_ool_ret ret=%d\n", a + 2 + b - 2);
}

static void forced(void)
{
	force_keep(hide(-61), hide(1));
	force_drop(hide(62));
	printf("TRUTH force v=-61\n");
}

static void clones(void)
{
	clone_user1(hide(70));
	clone_user2(hide(80));
	clone_user3(hide(3), hide(90));
	printf("TRUTH clone x=70\nTRUTH clone x=81\nTRUTH clone x=90\n");
	isra_user(hide(5));
	printf("TRUTH isra hit\n");
}

static void mallocs(void)
{
	static const size_t sizes[] = { 10007, 10042, 10099, 10042 };
	void *p;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		p = malloc(sizes[i] + opaque);
		printf("TRUTH malloc bytes=%zu\n", sizes[i]);
		sink = (long)p;
		free(p);
	}
}

int main(int argc, char **argv)
{
	const char *group = argc > 1 ? argv[1] : "main";
	int rounds = argc > 2 ? atoi(argv[2]) : 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(group, "malloc")) {
		mallocs();
		return 0;
	}
	for (int i = 0; i < rounds; i++) {
		if (!strcmp(group, "inline")) {
			inlines();
			continue;
		}
		lines(i);
		globs();
		twins();
		forced();
		clones();
	}
	return 0;
}
