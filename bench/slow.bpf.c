// SPDX-License-Identifier: GPL-2.0
/*
 * The slowdown benchmark's probe (bench/bench.sh, section 7): the line of
 * bench/slow_target.c every tool probes, reading the local `probed`, and
 * printing only when it is 0 (never): the cost is the probe's, not output.
 *   -DAPP='"build/bench/slow_target"' -DLINE=N
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define STR2(x) #x
#define STR(x) STR2(x)

SEC("exec=" APP ";slow_target.c:" STR(LINE) " probed")
int slow_probe(void *ctx, int err, unsigned long probed)
{
	if (!err && probed == 0)
		bpf_printk("never");
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
