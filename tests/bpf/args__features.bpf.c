// SPDX-License-Identifier: GPL-2.0
/*
 * Built with -g like every test object: BTF func/line info, plus a map, a
 * .rodata constant and a subprogram, which libbpf relocates in the
 * prototype load and every instance must keep.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, long);
} hits SEC(".maps");

const volatile long scale = 3;

static __attribute__((noinline)) long scaled(long v)
{
	return v * scale;
}

SEC("exec=" TARGET ";feat=neg_args a")
int feat(void *ctx, int err, long a)
{
	__u32 key = 0;
	long *n = bpf_map_lookup_elem(&hits, &key);
	long count = 0;

	if (n)
		count = __sync_fetch_and_add(n, 1) + 1;
	if (err)
		bpf_printk("ERR features err=%d", err);
	else
		bpf_printk("GOT features a=%ld scaled=%ld hits=%ld", a, scaled(a), count);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
