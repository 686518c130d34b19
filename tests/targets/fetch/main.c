/*
 * Test target for perf's fetch arguments ($argN, %REG, +OFFS(...), @SYM):
 * calls functions with known arguments and prints the truth, one line per
 * BPF test program: "TRUTH <what> <name>=<value> ...", which the programs
 * of tests/bpf/fetch*__*.bpf.c print as "GOT <what> ..." (tests/e2e/
 * fetchargs.sh compares). Built with -g (build/targets/fetch-*), without
 * it (fetch_nd-*) and stripped with its symbols exported (fetch_st-*):
 * tests/targets/fetch/fetch.mk. Inputs come from argc, so no call has
 * constant arguments a compiler could fold into a clone.
 */
#include <stdio.h>
#include <stdlib.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noinline, noipa, used))
#endif

struct fa_node {
	long key;		/* +0 */
	long val;		/* +8 */
	struct fa_node *next;	/* +16 */
	long *mid;		/* +24: points at another node's val */
	char name[16];		/* +32 */
	const char *str;	/* +48 */
};

volatile long fa_sink;
long fa_global;
struct fa_node fa_gnode;
struct fa_node *fa_gptr;

NOINLINE long fa_three(long a, long b, long c)
{
	fa_sink = a - b + c;
	return fa_sink * 2;
}

NOINLINE long fa_eight(long a1, int a2, short a3, signed char a4, unsigned int a5,
		       long a6, long a7, int a8)
{
	fa_sink = a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8;
	return fa_sink;
}

NOINLINE long fa_node(struct fa_node *n, long k)
{
	fa_sink = n->val + n->next->key + *n->mid + k;
	return fa_sink;
}

NOINLINE long fa_cast(long v)
{
	fa_sink = v;
	return v;
}

/* returned in memory: its address arrives in rdi, x in rsi */
struct fa_big {
	long a, b, c;
};

NOINLINE struct fa_big fa_mkbig(long x, long y)
{
	struct fa_big r = { x, y, x + y };

	fa_sink = r.c;
	return r;
}

NOINLINE long fa_glob(long x)
{
	fa_sink = fa_global + fa_gnode.val + fa_gptr->val + x;
	return fa_sink;
}

int main(int argc, char **argv)
{
	/* argc is 2 in the tests: every value is known, none a constant */
	long n = argc, r;
	struct fa_node other = { .key = -7000 - n, .val = 7100 + n, .str = "other" };
	struct fa_node node = {
		.key = 100 + n, .val = -(2000 + n), .next = &other, .mid = &other.val,
		.name = "node-name", .str = "node-str",
	};
	long a = 1000 * n, b = -(3 * n), c = 0x7ffffffffffL + n;
	long v = -0x7f - 0x100 * n;	/* low byte 0x81 */

	(void)argv;
	r = fa_three(a, b, c);
	printf("TRUTH three a=%ld b=%ld c=%ld\n", a, b, c);
	printf("TRUTH regs di=%ld rdi=%ld si=%ld\n", a, a, b);
	printf("TRUTH ret ax=%ld rv=%ld\n", r, r);

	r = fa_eight(n, -(int)n, (short)(-300 - n), (signed char)(-100 - n), 4000000000u + n,
		     60 + n, -(70 + n), -(80 + (int)n));
	printf("TRUTH eight a6=%ld a7=%ld a8=%d\n", 60 + n, -(70 + n), -(80 + (int)n));
	printf("TRUTH typed8 a3=%d a4=%d a5=%u\n", -300 - (int)n, -100 - (int)n,
	       4000000000u + (unsigned int)n);

	r += fa_node(&node, n);
	printf("TRUTH node val=%ld nextkey=%ld midkey=%ld\n", node.val, other.key, other.key);
	printf("TRUTH nodeargn val=%ld nextval=%ld k=%ld\n", node.val, other.val, n);
	printf("TRUTH typed val=%ld nextkey=%ld k=%ld\n", node.val, other.key, n);
	printf("TRUTH castmem u8=%lu s16=%ld x32=0x%lx\n", (unsigned long)(unsigned char)node.val,
	       (long)(short)node.val, (unsigned long)(unsigned int)node.val);

	r += fa_cast(v);
	printf("TRUTH cast u8=%lu s32=%ld x64=0x%lx\n", (unsigned long)(unsigned char)v,
	       (long)(int)v, (unsigned long)v);

	fa_global = 0x1122334455667788L + n;
	fa_gnode.val = 4242 + n;
	fa_gptr = &other;
	r += fa_glob(n) + fa_mkbig(n, -n).c;
	printf("TRUTH glob g=%ld gval=%ld pval=%ld\n", fa_global, fa_gnode.val, other.val);
	fflush(stdout);
	return r == 12345;
}
