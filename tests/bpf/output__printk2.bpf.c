// SPDX-License-Identifier: GPL-2.0
/* Another session's program on the same function, with its own format:
 * sessions must not see each other's lines. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("exec=" TARGET ";pk2=out_printk i v")
int pk2(void *ctx, int err, long i, long v)
{
	bpf_printk("OTHER %ld: v=%ld", i, v);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
