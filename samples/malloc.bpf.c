// SPDX-License-Identifier: GPL-2.0
/*
 * Sizes passed to libc's malloc. glibc's DWARF comes from Debian's
 * libc6-dbg (/usr/lib/debug/.build-id), where malloc is __libc_malloc with
 * parameter 'bytes'.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("exec=libc.so.6;malloc=malloc bytes")
int malloc_size(void *ctx, int err, unsigned long bytes)
{
	if (!err)
		bpf_printk("malloc %lu", bytes);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
