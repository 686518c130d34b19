// SPDX-License-Identifier: GPL-2.0
/* A hundred of the thousand functions of tests/targets/many (many_0??),
 * for the perf-event path (tests/e2e/many_points.sh). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("exec=" TARGET ";some=many_0?? x")
int some(void *ctx, int err, long x)
{
	if (err)
		bpf_printk("ERR x");
	else
		bpf_printk("GOT x=%ld", x);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
