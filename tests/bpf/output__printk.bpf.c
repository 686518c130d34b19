// SPDX-License-Identifier: GPL-2.0
/* printk output: one line per out_printk() call, with the caller's pid. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("exec=" TARGET ";pk=out_printk i v")
int pk(void *ctx, int err, long i, long v)
{
	bpf_printk("GOT printk pid=%d i=%ld v=%ld", (int)(bpf_get_current_pid_tgid() >> 32), i, v);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
