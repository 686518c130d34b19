// SPDX-License-Identifier: GPL-2.0
/*
 * E2E programs for the "args" target: each prints "GOT <what> ..." in the
 * form of the target's "TRUTH <what> ..." lines, or "ERR <what>" when a
 * fetch failed. TARGET is the target binary's path (see tests/tests.mk).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define REPORT(err, what, fmt, ...) do {				\
	if (err)							\
		bpf_printk("ERR " what " err=%d", err);			\
	else								\
		bpf_printk("GOT " what " " fmt, __VA_ARGS__);		\
} while (0)

SEC("exec=" TARGET ";neg=neg_args a b c")
int neg(void *ctx, int err, long a, long b, long c)
{
	REPORT(err, "neg_args", "a=%ld b=%ld c=%ld", a, b, c);
	return 0;
}

SEC("exec=" TARGET ";cast=neg_args a:u8 b:s8 c:x16")
int cast(void *ctx, int err, long a, long b, long c)
{
	REPORT(err, "cast", "a=%ld b=%ld c=%ld", a, b, c);
	return 0;
}

/* signed values read as unsigned of their own size */
SEC("exec=" TARGET ";small_cast=small_signed a:u8 b:u16 c:u32")
int small_cast(void *ctx, int err, long a, long b, long c)
{
	REPORT(err, "small_cast", "a=%ld b=%ld c=%ld", a, b, c);
	return 0;
}

SEC("exec=" TARGET ";uns=uns_args a b c")
int uns(void *ctx, int err, unsigned long a, unsigned long b, unsigned long c)
{
	REPORT(err, "uns_args", "a=%lu b=%lu c=%lu", a, b, c);
	return 0;
}

SEC("exec=" TARGET ";small=small_signed a b c")
int small(void *ctx, int err, long a, long b, long c)
{
	REPORT(err, "small_signed", "a=%ld b=%ld c=%ld", a, b, c);
	return 0;
}

SEC("exec=" TARGET ";req=handle_req req->hdr->len conn->fd req->inner.y")
int req(void *ctx, int err, long len, long fd, long y)
{
	REPORT(err, "handle_req", "len=%ld fd=%ld y=%ld", len, fd, y);
	return 0;
}

SEC("exec=" TARGET ";req2=handle_req req->arr[2] req->u_s@user req->id")
int req2(void *ctx, int err, long arr2, long u_s, long id)
{
	REPORT(err, "handle_req2", "arr2=%ld u_s=%ld id=%ld", arr2, u_s, id);
	return 0;
}

SEC("exec=" TARGET ";many=many_args a7 a8 a1")
int many(void *ctx, int err, long a7, long a8, long a1)
{
	REPORT(err, "many_args", "a7=%ld a8=%ld a1=%ld", a7, a8, a1);
	return 0;
}

SEC("exec=" TARGET ";ret=ret_neg%return $retval")
int ret(void *ctx, int err, long rv)
{
	REPORT(err, "ret_neg", "retval=%ld", rv);
	return 0;
}

SEC("exec=" TARGET ";twin=twin x")
int twin(void *ctx, int err, long x)
{
	REPORT(err, "twin", "x=%ld", x);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
