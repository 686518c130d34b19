// SPDX-License-Identifier: GPL-2.0
/*
 * Probe points at scale (bench.sh section 6): one program whose glob
 * matches GLOB's functions of the generated program APP (bench/gen_scale.c:
 * c<CU>_f<N>(p, x, y)), with ARGS (" x": one argument in a register, so
 * one plan for all; "": none).
 * Built without -g, for perf too; perf needs @user on nothing here.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("exec=" APP ";scale=" GLOB ARGS)
int scale(void *ctx, int err, long x)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
