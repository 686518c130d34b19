// SPDX-License-Identifier: GPL-2.0
/*
 * Perf buffer output: typed records in "perf_events", text in perf's
 * __bpf_stdout__, and a burst that overflows the buffer. "stats" counts
 * what the kernel took ([0]) and refused ([1]) for perf_events.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

struct pevent {
	__u32 pid;
	int id;
	long val;
	char name[16];
};

struct pevent *__bpfprobe_record_perf_events;

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} perf_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} __bpf_stdout__ SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static void count(long ret)
{
	__u32 k = ret ? 1 : 0;
	__u64 *v = bpf_map_lookup_elem(&stats, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("exec=" TARGET ";prec=out_record id val name")
int prec(void *ctx, int err, long id, long val, const char *name)
{
	struct pevent e = {};
	char text[32];
	__u64 args[1] = { id };

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.id = id;
	e.val = val;
	bpf_probe_read_user_str(e.name, sizeof(e.name), name);
	count(bpf_perf_event_output(ctx, &perf_events, BPF_F_CURRENT_CPU, &e, sizeof(e)));
	bpf_snprintf(text, sizeof(text), "stdout id=%ld", args, sizeof(args));
	bpf_perf_event_output(ctx, &__bpf_stdout__, BPF_F_CURRENT_CPU, text, sizeof(text));
	return 0;
}

SEC("exec=" TARGET ";burst=out_burst n")
int burst(void *ctx, int err, long n)
{
	struct pevent e = {};

	e.pid = bpf_get_current_pid_tgid() >> 32;
	for (int i = 0; i < 2000 && i < n; i++) {
		e.id = 1000 + i;
		count(bpf_perf_event_output(ctx, &perf_events, BPF_F_CURRENT_CPU, &e, sizeof(e)));
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
