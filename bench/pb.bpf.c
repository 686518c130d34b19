// SPDX-License-Identifier: GPL-2.0
/*
 * Event throughput through a perf buffer: every call of hot_reg outputs a
 * 64-byte record to a perf event array (the kernel counts what it drops).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct rec {
	__u64 v[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} pb SEC(".maps");

SEC("exec=" APP ";pb_hit=hot_reg a")
int pb_hit(void *ctx, int err, long a)
{
	struct rec r = { .v = { a, bpf_ktime_get_ns(), bpf_get_current_pid_tgid(), 3, 4, 5, 6, 7 } };

	bpf_perf_event_output(ctx, &pb, BPF_F_CURRENT_CPU, &r, sizeof(r));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
