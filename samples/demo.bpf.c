// SPDX-License-Identifier: GPL-2.0
/*
 * The demo's BPF program: bpfprobe fetches req->hdr->len, conn->fd and
 * retries through DWARF and passes them in after ctx and the error flag.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("exec=" DEMO_APP ";func=handle_req req->hdr->len conn->fd retries")
int trace_handle_req(void *ctx, int err, long len, long fd, long retries)
{
	if (err) {
		bpf_printk("handle_req: fetch failed");
		return 0;
	}
	bpf_printk("bpf: handle_req len=%ld fd=%ld retries=%ld", len, fd, retries);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
