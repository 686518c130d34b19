// SPDX-License-Identifier: GPL-2.0
/*
 * Per-hit cost objects, built without -g (for perf) from one source: one
 * program NAME with a trivial body on the hot function SPEC names, so the
 * difference between two loaders' programs is their prologue.
 *   -DNAME=h_reg -DSPEC='"hot_reg a"' ...   (see bench/bench.mk)
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("exec=" APP ";" SPEC)
int NAME(void *ctx, int err, long a)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
