// SPDX-License-Identifier: GPL-2.0
/* An annotated program beside a standard libbpf section in one object:
 * libbpf loads and attaches the standard one as usual. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("exec=" TARGET ";mixed=uns_args c")
int mixed(void *ctx, int err, unsigned long c)
{
	bpf_printk("GOT mixed annotated c=%lu", c);
	return 0;
}

SEC("uprobe/" TARGET ":uns_args")
int std_uprobe(void *ctx)
{
	bpf_printk("GOT mixed standard uprobe");
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
