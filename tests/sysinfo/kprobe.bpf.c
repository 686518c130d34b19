// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel probes for the `bpfprobe list` test in the 6.1 VM
 * (tests/e2e/list_vm.sh), attached by tests/sysinfo/attach_all.c.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("kprobe/do_sys_openat2")
int kp_entry(void *ctx)
{
	return 0;
}

SEC("kretprobe/do_sys_openat2")
int kp_return(void *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
