/*
 * Test target for arguments beyond plain parameters (issue 3): $params,
 * globals and statics (@var and plain names), structs passed by value in
 * registers (DW_OP_piece), bitfields, constants, floats in memory. Prints
 * "TRUTH <what> <name>=<value> ..." for every BPF test program of
 * tests/bpf/argx__*.bpf.c; built PIE (argx-*) and not (argx_nopie-*).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "argx.h"

/* 'used' keeps the statics in memory (and in the DWARF) at -O2 too */
#define KEEP __attribute__((used))

volatile long sink;
long g_counter = -100;
static KEEP int s_val = 7;
static KEEP long g_vals[4] = { 1, -2, 3, -4 };
static KEEP long g_target = 555;
static KEEP struct gs s_struct = { .a = -3, .b = 1000, .p = &g_target };
static struct pt *volatile g_ptr;

NOINLINE long three(int a, long b, short c)
{
	sink = a + b + c;
	return sink;
}

NOINLINE long two(unsigned char u, long v)
{
	sink = u + v;
	return sink;
}

NOINLINE long none(void)
{
	return sink;
}

NOINLINE long four(long a, long b, long c, long d)
{
	sink = a + b + c + d;
	return sink;
}

NOINLINE long by_pair(struct pair p)
{
	sink = p.x;
	sink = p.y;
	return p.x + p.y;
}

NOINLINE long by_pt(struct pt p)
{
	sink = p.x;
	sink = p.y;
	return p.x * p.y;
}

NOINLINE long by_mix(struct mix m)
{
	sink = m.a;
	sink = m.b;
	sink = m.c;
	sink = m.d;
	return m.a + m.b + m.c + m.d;
}

NOINLINE long by_bf(struct bf b)
{
	sink = b.lo;
	sink = b.mid;
	sink = b.hi;
	return b.lo + b.mid + b.hi;
}

NOINLINE long ptr_bf(struct bf *b)
{
	sink = b->lo + b->mid + b->hi;
	return sink;
}

NOINLINE long by_bf64(struct bf64 b)
{
	sink = b.e;
	sink = b.f;
	sink = b.g;
	return b.e + b.f + b.g;
}

NOINLINE long ptr_bf64(struct bf64 *b)
{
	sink = b->e + b->f + b->g;
	return sink;
}

NOINLINE long use_globals(int n)
{
	static int calls;

	calls++;
	g_counter += n;
	s_val += n;
	sink = calls;
	return g_counter + s_val;
}

NOINLINE double fpa(double d, float f, struct fl *p)
{
	sink = (long)(d + f + p->f + p->d);
	return d * f;
}

/* not 'used': gcc -O2 may specialize it for k == 7 (DW_AT_const_value) */
static __attribute__((noinline)) long cprop(long k, long v)
{
	sink = v;
	return k * v;
}

static uint64_t bits64(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

static uint32_t bits32(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	long ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < rounds; i++) {
		struct pair p = { -11, 22 };
		struct pt q = { -33, 44 };
		struct mix m = { -5, -600, -7, -8000000000L };
		struct bf b = { .lo = 9, .mid = -20, .hi = 1000000 };
		struct bf64 b64 = { .e = 0x123456789aULL, .f = -5000, .g = 5 };
		struct fl fl = { 1.5f, -2.25 };

		three(-1, -2000000000000L, -3);
		printf("TRUTH params3 a=-1 b=-2000000000000 c=-3\n");
		two(200, -5);
		printf("TRUTH params2 u=200 v=-5 g=%ld\n", g_counter);
		none();
		printf("TRUTH params0 called\n");
		four(1, 2, 3, 4);

		by_pair(p);
		printf("TRUTH by_pair x=-11 y=22\n");
		by_pt(q);
		printf("TRUTH by_pt x=-33\n");
		printf("TRUTH by_pt_y y=44\n");
		by_mix(m);
		printf("TRUTH by_mix a=-5 d=-8000000000\n");
		printf("TRUTH by_mix_b b=-600\n");
		printf("TRUTH by_mix_c c=-7\n");
		by_bf(b);
		printf("TRUTH by_bf lo=9 mid=-20 hi=1000000\n");
		g_ptr = &q;
		ptr_bf(&b);
		printf("TRUTH ptr_bf lo=9 mid=-20 hi=1000000\n");
		by_bf64(b64);
		printf("TRUTH by_bf64_e e=78187493530\n");
		printf("TRUTH by_bf64_f f=-5000\n");
		printf("TRUTH by_bf64_g g=5\n");
		ptr_bf64(&b64);
		printf("TRUTH ptr_bf64 e=78187493530 f=-5000 g=5\n");
		printf("TRUTH globals2 b=1000 p0=555 v3=-4\n");
		printf("TRUTH globals3 y=44 a=-3\n");

		printf("TRUTH globals g_counter=%ld s_val=%d calls=%d\n", g_counter, s_val, i);
		ret = use_globals(2);
		printf("TRUTH globals_ret retval=%ld g_counter=%ld calls=%d\n", ret, g_counter,
		       i + 1);

		fpa(1.5, 2.5f, &fl);
		printf("TRUTH fpa_mem f=0x%x d=0x%llx\n", bits32(fl.f),
		       (unsigned long long)bits64(fl.d));
		printf("TRUTH fpa_regs d=0x%llx f=0x%x\n", (unsigned long long)bits64(1.5),
		       bits32(2.5f));

		cprop(7, i + 1);
		printf("TRUTH cprop k=7 v=%d\n", i + 1);
		cprop(7, i + 2);
		printf("TRUTH cprop k=7 v=%d\n", i + 2);

		ret = other_get();
		printf("TRUTH other s_val=%ld\n", ret);
		sink = g_vals[2] + s_struct.a;
	}
	return 0;
}
