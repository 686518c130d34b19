// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer output: typed records in map "events" (named by the
 * __bpfprobe_record_events variable), untyped ones in "raw_events".
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

enum color { RED, GREEN = 5, BLUE };

struct event {
	__u32 pid;
	int id;
	long val;
	char name[16];
	struct {
		short lo;
		unsigned char flags;
	} sub;
	int arr[3];
	enum color color;
	unsigned int low:4, high:4;
};

/* bpfprobe prints the records of map "events" as struct event */
struct event *__bpfprobe_record_events;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} raw_events SEC(".maps");

SEC("exec=" TARGET ";rec=out_record id val name")
int rec(void *ctx, int err, long id, long val, const char *name)
{
	struct event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	__u32 *raw;

	if (e) {
		e->pid = bpf_get_current_pid_tgid() >> 32;
		e->id = id;
		e->val = val;
		bpf_probe_read_user_str(e->name, sizeof(e->name), name);
		e->sub.lo = -id;
		e->sub.flags = 0x80 | id;
		e->arr[0] = id;
		e->arr[1] = id * 2;
		e->arr[2] = id * 3;
		e->color = id == 1 ? GREEN : id == 2 ? BLUE : RED;
		e->low = id;
		e->high = 15 - id;
		bpf_ringbuf_submit(e, 0);
	}
	raw = bpf_ringbuf_reserve(&raw_events, 8, 0);
	if (raw) {
		raw[0] = 0xdeadbeef;
		raw[1] = id;
		bpf_ringbuf_submit(raw, 0);
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
