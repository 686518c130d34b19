// SPDX-License-Identifier: GPL-2.0
/*
 * The hand-written DWARF of tests/targets/argx/dw/dw.s: entry values at
 * the entry, breg + deref + offset, bit pieces and memory pieces,
 * constants of every form, DW_OP_addr, shifts, masks and conversions, a
 * double spilled from xmm0, location lists with DW_OP_GNU_uninit.
 */
#include "argx_report.h"

SEC("exec=" TARGET ";ev=dw_entry a b")
int ev(void *ctx, int err, long a, long b)
{
	REPORT(err, "dw_entry", "a=%ld b=%ld", a, b);
	return 0;
}

SEC("exec=" TARGET ";chain=dw_chain inner p->ptr->second end")
int chain(void *ctx, int err, long inner, long second, long end)
{
	REPORT(err, "dw_chain", "inner=%ld second=%ld end=%ld", inner, second, end);
	return 0;
}

SEC("exec=" TARGET ";pieces=dw_pieces s.a s.b")
int pieces(void *ctx, int err, long a, long b)
{
	REPORT(err, "dw_pieces", "a=%ld b=%ld", a, b);
	return 0;
}

SEC("exec=" TARGET ";mixed=dw_mixed t.x t.y")
int mixed(void *ctx, int err, long x, long y)
{
	REPORT(err, "dw_mixed", "x=%ld y=%ld", x, y);
	return 0;
}

SEC("exec=" TARGET ";consts=dw_consts k blk.x blk.y")
int consts(void *ctx, int err, long k, long x, long y)
{
	REPORT(err, "dw_consts", "k=%ld x=%ld y=%ld", k, x, y);
	return 0;
}

SEC("exec=" TARGET ";consts2=dw_consts iv sv cv")
int consts2(void *ctx, int err, long iv, long sv, long cv)
{
	REPORT(err, "dw_consts2", "iv=%ld sv=%ld cv=%ld", iv, sv, cv);
	return 0;
}

SEC("exec=" TARGET ";consts3=dw_consts u8v")
int consts3(void *ctx, int err, long u8v)
{
	REPORT(err, "dw_consts3", "u8v=%ld", u8v);
	return 0;
}

SEC("exec=" TARGET ";glob=dw_global gv @dw_gvar dw_static")
int glob(void *ctx, int err, long gv, long g0, long st)
{
	REPORT(err, "dw_global", "gv=%ld g0=%ld st=%ld", gv, g0, st);
	return 0;
}

/* +6: past the movsd that spills d2 from xmm0 */
SEC("exec=" TARGET ";flt=dw_float+6 d2")
int flt(void *ctx, int err, unsigned long d2)
{
	REPORT(err, "dw_float", "d2=0x%lx", d2);
	return 0;
}

SEC("exec=" TARGET ";shr=dw_shr hw lo8 sx")
int shr(void *ctx, int err, unsigned long hw, long lo8, long sx)
{
	REPORT(err, "dw_shr", "hw=%lu lo8=%ld sx=%ld", hw, lo8, sx);
	return 0;
}

SEC("exec=" TARGET ";shr2=dw_shr ds")
int shr2(void *ctx, int err, long ds)
{
	REPORT(err, "dw_shr2", "ds=%ld", ds);
	return 0;
}

/* values gcc marks DW_OP_GNU_uninit, which libdw 0.188 cannot parse:
 * DWARF 4 (dw.s) and DWARF 5 (dw5.s), at the entry and 7 bytes in */
SEC("exec=" TARGET ";un4=dw_uninit4 y")
int un4(void *ctx, int err, long y)
{
	REPORT(err, "dw_uninit4", "y=%ld", y);
	return 0;
}

SEC("exec=" TARGET ";un4b=dw_uninit4+7 y")
int un4b(void *ctx, int err, long y)
{
	REPORT(err, "dw_uninit4b", "y=%ld", y);
	return 0;
}

SEC("exec=" TARGET ";un=dw_uninit x pr.x pr.y")
int un(void *ctx, int err, long x, long px, long py)
{
	REPORT(err, "dw_uninit", "x=%ld px=%ld py=%ld", x, px, py);
	return 0;
}

SEC("exec=" TARGET ";un_k=dw_uninit k w")
int un_k(void *ctx, int err, long k, long w)
{
	REPORT(err, "dw_uninit_k", "k=%ld w=%ld", k, w);
	return 0;
}

SEC("exec=" TARGET ";un2=dw_uninit+7 x pr.x pr.y")
int un2(void *ctx, int err, long x, long px, long py)
{
	REPORT(err, "dw_uninit2", "x=%ld px=%ld py=%ld", x, px, py);
	return 0;
}

SEC("exec=" TARGET ";un2_k=dw_uninit+7 k w")
int un2_k(void *ctx, int err, long k, long w)
{
	REPORT(err, "dw_uninit2_k", "k=%ld w=%ld", k, w);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
