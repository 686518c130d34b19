// SPDX-License-Identifier: GPL-2.0
/*
 * Counted stacks (tests/e2e/stacks.sh): a hash map keyed by
 * bpfprobe_stack_t counts leaf()'s calls by user stack ($ustack: R3 in
 * perf's ABI), and the first three hits go out as records with a stack
 * member. bpfprobe merges the map's equal stacks at exit.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpf.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, bpfprobe_stack_t);
	__type(value, __u64);
} calls SEC(".maps");

struct hit {
	__u32 pid;
	bpfprobe_stack_t stack;
};

struct hit *__bpfprobe_record_events;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} events SEC(".maps");

int sent;

SEC("exec=" TARGET ";func=leaf $ustack")
int count(void *ctx, int err, bpfprobe_stack_t stack)
{
	__u64 one = 1, *n;
	struct hit *h;

	if (err)
		return 0;
	n = bpf_map_lookup_elem(&calls, &stack);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&calls, &stack, &one, BPF_NOEXIST);
	/* one CPU at a time runs the target: no race */
	if (sent >= 3)
		return 0;
	sent++;
	h = bpf_ringbuf_reserve(&events, sizeof(*h), 0);
	if (!h)
		return 0;
	h->pid = bpf_get_current_pid_tgid() >> 32;
	h->stack = stack;
	bpf_ringbuf_submit(h, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
