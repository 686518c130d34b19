// SPDX-License-Identifier: GPL-2.0
/*
 * E2E programs for the "points" target: every probe point form. Each
 * prints "GOT <what> ..." in the form of the target's "TRUTH <what> ..."
 * lines (one per expected hit), or "ERR <what>" when a fetch failed.
 * Line numbers below are those of the target's lines.c, funcs.c and
 * twin_b.c, which mark them in comments (tests/e2e/points.sh checks they still match).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define REPORT(err, what, fmt, ...) do {				\
	if (err)							\
		bpf_printk("ERR " what " err=%d", err);			\
	else								\
		bpf_printk("GOT " what " " fmt, __VA_ARGS__);		\
} while (0)

/* SRC:ALN */
SEC("exec=" TARGET ";line_abs=lines.c:12 b s")
int line_abs(void *ctx, int err, long b, long s)
{
	REPORT(err, "line_abs", "b=%ld s=%ld", b, s);
	return 0;
}

/* FUNC:RLN: line_abs is declared on line 8, so this is line 13 */
SEC("exec=" TARGET ";line_rel=line_abs:5 b s")
int line_rel(void *ctx, int err, long b, long s)
{
	REPORT(err, "line_rel", "b=%ld s=%ld", b, s);
	return 0;
}

/* FUNC;PTN, one line */
SEC("exec=" TARGET ";lazy_fn;*LAZY_ONE* x y")
int lazy_one(void *ctx, int err, long x, long y)
{
	REPORT(err, "lazy_one", "x=%ld y=%ld", x, y);
	return 0;
}

/* FUNC;PTN matching two lines: two probe points */
SEC("exec=" TARGET ";lazy_fn;*LAZY_TWO* x y")
int lazy_two(void *ctx, int err, long x, long y)
{
	REPORT(err, "lazy_two", "x=%ld y=%ld", x, y);
	return 0;
}

/* config terms, then EVENT=FUNC;PTN whose pattern holds '=', '+' and ';' */
SEC("exec=" TARGET ";inlines=no;lz=lazy_fn;sink=r+1;* x")
int lazy_eq(void *ctx, int err, long x)
{
	REPORT(err, "lazy_eq", "x=%ld", x);
	return 0;
}

/* SRC;PTN: a line in each of two functions */
SEC("exec=" TARGET ";lines.c;*LAZY_FILE* v")
int lazy_file(void *ctx, int err, long v)
{
	REPORT(err, "lazy_file", "v=%ld", v);
	return 0;
}

/* a glob: three functions, x in a different place in each (three plans) */
SEC("exec=" TARGET ";glob_* x")
int glob(void *ctx, int err, long x)
{
	REPORT(err, "glob", "x=%ld", x);
	return 0;
}

/* FUNC@SRC: only twin_b.c's static twin() */
SEC("exec=" TARGET ";twin@twin_b.c v")
int twin_b(void *ctx, int err, long v)
{
	REPORT(err, "twin_b", "v=%ld", v);
	return 0;
}

/* FUNC@SRC:RLN */
SEC("exec=" TARGET ";twin@twin_b.c:2 v")
int twin_rln(void *ctx, int err, long v)
{
	REPORT(err, "twin_rln", "v=%ld", v);
	return 0;
}

/* force_drop has no v: skipped */
SEC("exec=" TARGET ";force=yes;force_* v")
int force(void *ctx, int err, long v)
{
	REPORT(err, "force", "v=%ld", v);
	return 0;
}

/* every clone too: clone_me and clone_me.constprop.0 at gcc -O3 */
SEC("exec=" TARGET ";clone_me x")
int clone(void *ctx, int err, long x)
{
	REPORT(err, "clone", "x=%ld", x);
	return 0;
}

/* isra_me.isra.0 at gcc -O2 and up */
SEC("exec=" TARGET ";isra_me")
int isra(void *ctx)
{
	bpf_printk("GOT isra hit");
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
