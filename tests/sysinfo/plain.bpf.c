// SPDX-License-Identifier: GPL-2.0
/*
 * A plain libbpf object (no bpfprobe annotation) for the `bpfprobe list`
 * test: standard sections attached by tests/sysinfo/plain_loader.c.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} plain_hits SEC(".maps");

static __always_inline int hit(void)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&plain_hits, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

SEC("uprobe")
int plain_up(void *ctx)
{
	return hit();
}

SEC("uretprobe")
int plain_uret(void *ctx)
{
	return hit();
}

SEC("tracepoint/sched/sched_process_fork")
int plain_tp(void *ctx)
{
	return hit();
}

SEC("raw_tracepoint/sched_process_exec")
int plain_raw(void *ctx)
{
	return hit();
}

SEC("fentry/vfs_read")
int plain_fentry(void *ctx)
{
	return hit();
}

SEC("fexit/vfs_read")
int plain_fexit(void *ctx)
{
	return hit();
}

char LICENSE[] SEC("license") = "GPL";
