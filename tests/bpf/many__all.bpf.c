// SPDX-License-Identifier: GPL-2.0
/* One program on the thousand functions of tests/targets/many: one plan,
 * a thousand probe points (tests/e2e/many_points.sh). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("exec=" TARGET ";many=many_* x")
int many(void *ctx, int err, long x)
{
	if (err)
		bpf_printk("ERR x");
	else
		bpf_printk("GOT x=%ld", x);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
