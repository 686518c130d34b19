/*
 * Calls the functions of dw.s, whose DWARF is hand-written, and prints
 * the truth each BPF test program of tests/bpf/argx_dw__*.bpf.c must see:
 * "TRUTH <what> <name>=<value> ...".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct two { int first, second; };
struct box { long tag; struct two *ptr; };

long dw_entry(long a, long b);
long dw_chain(struct box *p);
long dw_pieces(long x);
long dw_mixed(long r, int *m);
long dw_consts(void);
long dw_global(void);
long dw_float(double d);
long dw_shr(long x, unsigned short *p);
long dw_static_get(void);
long dw_uninit4(long a);
long dw_uninit(long a, long b);
extern long dw_gvar[2];

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < rounds; i++) {
		struct two two = { 5, -77 - i };
		struct box box = { 1, &two };
		unsigned short half = 0xbeef;
		int m = -4242;
		double d = -3.25 * (i + 1);
		uint64_t bits;
		long x = (long)0x123456789abcdef0ULL;

		dw_entry(-10 - i, 20 + i);
		printf("TRUTH dw_entry a=%d b=%d\n", -10 - i, 20 + i);
		dw_chain(&box);
		printf("TRUTH dw_chain inner=%d second=%d end=%ld\n", two.second,
		       two.second, (long)&box + 16);
		dw_pieces((long)(((unsigned long)(unsigned int)-5 << 32) | 123456));
		printf("TRUTH dw_pieces a=-5 b=123456\n");
		dw_mixed(-99, &m);
		printf("TRUTH dw_mixed x=-99 y=-4242\n");
		dw_consts();
		printf("TRUTH dw_consts k=-42 x=1234605616436508552 y=-2\n");
		printf("TRUTH dw_consts2 iv=-7 sv=2 cv=-100000\n");
		printf("TRUTH dw_consts3 u8v=-2\n");
		dw_gvar[1] = 1000 * i + 5;
		dw_global();
		printf("TRUTH dw_global gv=%ld g0=%ld st=-31337\n", dw_gvar[1], dw_gvar[0]);
		dw_float(d);
		memcpy(&bits, &d, sizeof(bits));
		printf("TRUTH dw_float d2=0x%llx\n", (unsigned long long)bits);
		dw_shr(x, &half);
		printf("TRUTH dw_shr hw=%u lo8=%ld sx=%ld\n", (unsigned)(x >> 16) & 0xffff,
		       x & 0xff, (long)(int)x);
		printf("TRUTH dw_shr2 ds=%u\n", half);
		dw_static_get();
		/* values DWARF marks uninitialized (DW_OP_GNU_uninit) */
		dw_uninit4(-1000 - i);
		printf("TRUTH dw_uninit4 y=%d\n", -1000 - i + 240);
		printf("TRUTH dw_uninit4b y=%d\n", -1000 - i + 240);
		dw_uninit(1000 + i, -7 - i);
		printf("TRUTH dw_uninit x=%d px=%d py=%d\n", 1000 + i, 1000 + i, -7 - i);
		printf("TRUTH dw_uninit_k k=240 w=%d\n", 1000 + i);
		printf("TRUTH dw_uninit2 x=%d px=%d py=%d\n", 1000 + i, 1000 + i, -7 - i);
		printf("TRUTH dw_uninit2_k k=240 w=%d\n", -7 - i);
	}
	return 0;
}
