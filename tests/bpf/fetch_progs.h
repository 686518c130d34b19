/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The programs of perf's fetch arguments that need no DWARF, for every
 * build of the fetch target (tests/targets/fetch: with -g, without, and
 * stripped to .dynsym): each prints "GOT <what> ..." in the form of the
 * target's "TRUTH <what> ..." lines (tests/e2e/fetchargs.sh compares).
 */
#ifndef FETCH_PROGS_H
#define FETCH_PROGS_H

#include "argx_report.h"

SEC("exec=" TARGET ";three=fa_three $arg1 $arg2 $arg3")
int three(void *ctx, int err, long a, long b, long c)
{
	REPORT(err, "three", "a=%ld b=%ld c=%ld", a, b, c);
	return 0;
}

SEC("exec=" TARGET ";regs=fa_three %di %rdi %si")
int regs(void *ctx, int err, long di, long rdi, long si)
{
	REPORT(err, "regs", "di=%ld rdi=%ld si=%ld", di, rdi, si);
	return 0;
}

SEC("exec=" TARGET ";ret=fa_three%return %ax $retval")
int ret(void *ctx, int err, long ax, long rv)
{
	REPORT(err, "ret", "ax=%ld rv=%ld", ax, rv);
	return 0;
}

/* the 7th and 8th arguments are on the stack; an int's slot is 8 bytes
 * of which only the low 4 are the caller's */
SEC("exec=" TARGET ";eight=fa_eight $arg6 $arg7 $arg8:s32")
int eight(void *ctx, int err, long a6, long a7, long a8)
{
	REPORT(err, "eight", "a6=%ld a7=%ld a8=%ld", a6, a7, a8);
	return 0;
}

SEC("exec=" TARGET ";node=fa_node +8(%di) +0(+16(%di)) -8(+24(%di))")
int node(void *ctx, int err, long val, long nextkey, long midkey)
{
	REPORT(err, "node", "val=%ld nextkey=%ld midkey=%ld", val, nextkey, midkey);
	return 0;
}

SEC("exec=" TARGET ";nodeargn=fa_node +8($arg1) +0x8(+16($arg1)) $arg2")
int nodeargn(void *ctx, int err, long val, long nextval, long k)
{
	REPORT(err, "nodeargn", "val=%ld nextval=%ld k=%ld", val, nextval, k);
	return 0;
}

SEC("exec=" TARGET ";castmem=fa_node +8(%di):u8 +8(%di):s16 +8(%rdi):x32")
int castmem(void *ctx, int err, unsigned long u8, long s16, unsigned long x32)
{
	REPORT(err, "castmem", "u8=%lu s16=%ld x32=0x%lx", u8, s16, x32);
	return 0;
}

SEC("exec=" TARGET ";cast=fa_cast %di:u8 %di:s32 %di:x64")
int cast(void *ctx, int err, unsigned long u8, long s32, unsigned long x64)
{
	REPORT(err, "cast", "u8=%lu s32=%ld x64=0x%lx", u8, s32, x64);
	return 0;
}

SEC("exec=" TARGET ";glob=fa_glob @fa_global @fa_gnode+8 +8(@fa_gptr)")
int glob(void *ctx, int err, long g, long gval, long pval)
{
	REPORT(err, "glob", "g=%ld gval=%ld pval=%ld", g, gval, pval);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

#endif
