// SPDX-License-Identifier: GPL-2.0
/* Used by samples/lib_example.c: fetched arguments go out through a ring buffer. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct event {
	long id;
	long len;
	long fd;
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} events SEC(".maps");

SEC("exec=" DEMO_APP ";func=handle_req req->id req->hdr->len conn->fd")
int handle_req_event(void *ctx, int err, long id, long len, long fd)
{
	struct event *e;

	if (err)
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	e->id = id;
	e->len = len;
	e->fd = fd;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
