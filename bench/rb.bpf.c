// SPDX-License-Identifier: GPL-2.0
/*
 * Event throughput (bench/rb_bench.c): every call of hot_reg submits a
 * 64-byte record to a ring buffer; a failed reserve counts as lost.
 * -DEMPTY builds the same probe with an empty body: the trap rate.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct rec {
	__u64 v[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

SEC("exec=" APP ";rb_hit=hot_reg a")
int rb_hit(void *ctx, int err, long a)
{
#ifndef EMPTY
	struct rec *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);
	__u32 zero = 0;
	__u64 *n;

	if (!r) {
		n = bpf_map_lookup_elem(&lost, &zero);
		if (n)
			__sync_fetch_and_add(n, 1);
		return 0;
	}
	r->v[0] = a;
	r->v[1] = bpf_ktime_get_ns();
	r->v[2] = bpf_get_current_pid_tgid();
	for (int i = 3; i < 8; i++)
		r->v[i] = i;
	bpf_ringbuf_submit(r, 0);
#endif
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
