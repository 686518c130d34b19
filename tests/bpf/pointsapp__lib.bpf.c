// SPDX-License-Identifier: GPL-2.0
/*
 * libpoints.so by bare name: found like the dynamic loader finds it
 * (LD_LIBRARY_PATH here); fires in every process that maps it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("exec=libpoints.so;lib_mul a b")
int lib(void *ctx, int err, long a, long b)
{
	int pid = bpf_get_current_pid_tgid() >> 32;

	if (err)
		bpf_printk("ERR lib err=%d", err);
	else
		bpf_printk("GOT lib pid=%d a=%ld b=%ld", pid, a, b);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
