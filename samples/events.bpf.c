// SPDX-License-Identifier: GPL-2.0
/*
 * Typed ring-buffer records: the global __bpfprobe_record_events names the
 * record type of map "events", so bpfprobe prints records field by field
 * (and as JSON with --json). Runs on samples/demo_app.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct request_event {
	long id;
	int len;
	char path[24];
};

struct request_event *__bpfprobe_record_events;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} events SEC(".maps");

SEC("exec=" DEMO_APP ";req=handle_req req->id req->hdr->len req->path")
int request(void *ctx, int err, long id, long len, const char *path)
{
	struct request_event *e;

	if (err)
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	e->id = id;
	e->len = len;
	if (bpf_probe_read_user_str(e->path, sizeof(e->path), path) < 0)
		e->path[0] = '\0';
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
