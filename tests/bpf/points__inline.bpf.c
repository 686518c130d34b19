// SPDX-License-Identifier: GPL-2.0
/*
 * E2E programs for the "points" target: inlined copies (inl_add is
 * always_inline, so every build level has them, -O0 included) and the
 * out-of-line copy a function pointer calls. Prints "GOT <what> ..." per
 * hit like the target's "TRUTH <what> ..." lines.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define REPORT(err, what, fmt, ...) do {				\
	if (err)							\
		bpf_printk("ERR " what " err=%d", err);			\
	else								\
		bpf_printk("GOT " what " " fmt, __VA_ARGS__);		\
} while (0)

/* every copy: two inlined ones and the out-of-line one */
SEC("exec=" TARGET ";inl_add x y")
int inl(void *ctx, int err, long x, long y)
{
	REPORT(err, "inl", "x=%ld y=%ld", x, y);
	return 0;
}

/* a line of an inline function: in each copy */
SEC("exec=" TARGET ";funcs.c:33 x y")
int inl_line(void *ctx, int err, long x, long y)
{
	REPORT(err, "inl_line", "x=%ld y=%ld", x, y);
	return 0;
}

/* inlines=no: the out-of-line copy only */
SEC("exec=" TARGET ";inlines=no;inl_add x y")
int inl_ool(void *ctx, int err, long x, long y)
{
	REPORT(err, "inl_ool", "x=%ld y=%ld", x, y);
	return 0;
}

/* %return cannot be on the inlined copies: force=yes skips them */
SEC("exec=" TARGET ";force=yes;inl_add%return $retval")
int inl_ool_ret(void *ctx, int err, long ret)
{
	REPORT(err, "inl_ool_ret", "ret=%ld", ret);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
