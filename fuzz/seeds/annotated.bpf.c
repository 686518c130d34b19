// SPDX-License-Identifier: GPL-2.0
/*
 * Seed of the object fuzzer (fuzz/fuzz_object.c): a small annotated BPF
 * object with what the object path reads: SEC annotations of several
 * shapes, programs whose BTF prototypes the loader checks, a standard
 * libbpf section, maps of several kinds, a typed ring buffer record,
 * globals and a license. `make fuzz-seeds` builds it with and without -g.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

struct event {
	__u32 pid;
	long val;
	char name[8];
};
struct event *__bpfprobe_record_events;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

volatile const int limit = 3;
long total;

SEC("exec=/bin/true;p=main argc argv")
int seed_args(void *ctx, int err, long argc, long argv)
{
	struct event e = { .pid = bpf_get_current_pid_tgid() >> 32, .val = argc };

	bpf_ringbuf_output(&events, &e, sizeof(e), 0);
	return 0;
}

SEC("exec=libc.so.6;inlines=no;force=yes;m=malloc%return $retval")
int seed_ret(void *ctx, int err, long r)
{
	__u32 k = r > limit;
	__u64 one = 1, *v = bpf_map_lookup_elem(&counts, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&counts, &k, &one, BPF_ANY);
	return 0;
}

SEC("func=do_sched_setscheduler param->sched_priority@user")
int seed_kern(void *ctx, int err, long prio)
{
	total += prio;
	bpf_printk("prio=%ld err=%d", prio, err);
	return 0;
}

SEC("exec=/bin/true;p=main.c:12 x:s32 y=p->q[3].r@user")
int seed_lines(void *ctx, int err)
{
	return err;
}

SEC("tracepoint/sched/sched_process_exec")
int seed_plain(void *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
