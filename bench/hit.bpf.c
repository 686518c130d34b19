// SPDX-License-Identifier: GPL-2.0
/*
 * Per-hit cost objects, built without -g (for perf) from one source: one
 * program NAME with a trivial body on the hot function SPEC names, so the
 * difference between two loaders' programs is their prologue.
 *   -DNAME=h_reg -DSPEC='"hot_reg a"' ...   (see bench/bench.mk)
 * The body uses what it is given, err and the argument (none with
 * -DNO_ARGS, three with -DTHREE_ARGS, a record with -DRECORD, bpfprobe
 * only): bpfprobe's prologue sets only the registers a body reads, so a
 * body that read nothing would make both prologues' work incomparable.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#ifdef RECORD
/* the record ABI (built with -g): the same shape's value in a record */
struct rec {
	long REC_MEMBER;
	__u64 err;
};
#endif

SEC("exec=" APP ";" SPEC)
#ifdef RECORD
int NAME(void *ctx, struct rec *r)
{
	return r->err + r->REC_MEMBER;
}
#elif defined(NO_ARGS)
int NAME(void *ctx)
{
	return 0;
}
#elif defined(THREE_ARGS)
int NAME(void *ctx, int err, long a, long b, long c)
{
	return err + a + b + c;
}
#else
int NAME(void *ctx, int err, long a)
{
	return err + a;
}
#endif

char LICENSE[] SEC("license") = "GPL";
