// SPDX-License-Identifier: GPL-2.0
/*
 * The example perf's loader was reworked around: a kernel probe whose
 * argument is read through a user pointer. Needs a kernel with kprobes
 * (make test runs it in the VM).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("func=do_sched_setscheduler param->sched_priority@user")
int bpf_func__setscheduler(void *ctx, int err, int param)
{
	char fmt[] = "prio: %ld";

	bpf_trace_printk(fmt, sizeof(fmt), param);
	return 1;
}

char _license[] SEC("license") = "GPL";
