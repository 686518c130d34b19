// SPDX-License-Identifier: GPL-2.0
/*
 * E2E programs for the argx target (tests/targets/argx): $params, structs
 * passed by value (DW_OP_piece, members as register bits), bitfields,
 * floats in memory, a parameter the compiler made a constant. Globals are
 * in argx__globals.bpf.c.
 * The members some builds only describe later in a function are tested
 * by tests/e2e/argx.sh at the offset the error message names.
 */
#include "argx_report.h"

SEC("exec=" TARGET ";p3=three $params")
int p3(void *ctx, int err, long a, long b, long c)
{
	REPORT(err, "params3", "a=%ld b=%ld c=%ld", a, b, c);
	return 0;
}

/* two parameters, then a global after them */
SEC("exec=" TARGET ";p2=two $params @g_counter")
int p2(void *ctx, int err, unsigned long u, long v, long g)
{
	REPORT(err, "params2", "u=%lu v=%ld g=%ld", u, v, g);
	return 0;
}

/* no parameter at all: nothing to fetch */
SEC("exec=" TARGET ";p0=none $params")
int p0(void *ctx, int err)
{
	REPORT(err, "params0", "%s", "called");
	return 0;
}

SEC("exec=" TARGET ";pair=by_pair p.x p.y")
int pair(void *ctx, int err, long x, long y)
{
	REPORT(err, "by_pair", "x=%ld y=%ld", x, y);
	return 0;
}

SEC("exec=" TARGET ";pt=by_pt p.x")
int pt(void *ctx, int err, long x)
{
	REPORT(err, "by_pt", "x=%ld", x);
	return 0;
}

SEC("exec=" TARGET ";mix=by_mix m.a m.d")
int mix(void *ctx, int err, long a, long d)
{
	REPORT(err, "by_mix", "a=%ld d=%ld", a, d);
	return 0;
}

SEC("exec=" TARGET ";bf=by_bf b.lo b.mid b.hi")
int bf(void *ctx, int err, long lo, long mid, long hi)
{
	REPORT(err, "by_bf", "lo=%ld mid=%ld hi=%ld", lo, mid, hi);
	return 0;
}

SEC("exec=" TARGET ";pbf=ptr_bf b->lo b->mid b->hi")
int pbf(void *ctx, int err, long lo, long mid, long hi)
{
	REPORT(err, "ptr_bf", "lo=%ld mid=%ld hi=%ld", lo, mid, hi);
	return 0;
}

/* 64-bit bitfields: e spans the 32-bit boundary, f is signed */
SEC("exec=" TARGET ";pbf64=ptr_bf64 b->e b->f b->g")
int pbf64(void *ctx, int err, long e, long f, long g)
{
	REPORT(err, "ptr_bf64", "e=%ld f=%ld g=%ld", e, f, g);
	return 0;
}

SEC("exec=" TARGET ";fm=fpa p->f p->d")
int fm(void *ctx, int err, unsigned long f, unsigned long d)
{
	REPORT(err, "fpa_mem", "f=0x%lx d=0x%lx", f, d);
	return 0;
}

SEC("exec=" TARGET ";cp=cprop k v")
int cp(void *ctx, int err, long k, long v)
{
	REPORT(err, "cprop", "k=%ld v=%ld", k, v);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
