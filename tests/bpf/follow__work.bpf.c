// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* work(i, twice) of tests/targets/follow, in the truth lines' format. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("exec=" TARGET ";func=work i twice")
int work(void *ctx, int err, long i, long twice)
{
	if (err)
		bpf_printk("ERR work err=%d", err);
	else
		bpf_printk("GOT work i=%ld twice=%ld", i, twice);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
