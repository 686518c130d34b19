// SPDX-License-Identifier: GPL-2.0
/*
 * A static of libc (malloc's mp_, from libc6-dbg's DWARF), at malloc's
 * entry and return, in the argx_lib program's one 64 MiB malloc().
 */
#include "argx_report.h"

#define BIG	(64 << 20)

SEC("exec=libc.so.6;lm=malloc bytes @mp_.n_mmaps")
int lm(void *ctx, int err, unsigned long bytes, long n_mmaps)
{
	if (err || bytes == BIG)
		REPORT(err, "libc_malloc", "bytes=%lu n_mmaps=%ld", bytes, n_mmaps);
	return 0;
}

/* only the big block is mmap()ed, and freed before the next malloc() */
SEC("exec=libc.so.6;lmr=malloc%return mp_.n_mmaps")
int lmr(void *ctx, int err, long n_mmaps)
{
	if (err || n_mmaps > 0)
		REPORT(err, "libc_malloc_ret", "n_mmaps=%ld", n_mmaps);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
