// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf's old BPF prologue test, rewritten: null_lseek(struct file *file,
 * loff_t offset, int orig) on /dev/null. A "sample" is a successful fetch
 * on a read-only file with an even offset and orig != SEEK_CUR; perf's
 * loop (tests/kernel/progs/kt_lseek.c) must give (111 + 1) / 4 = 28.
 * Every fetched value is reported too.
 */
#include "ktest.h"

#define FMODE_READ	0x1
#define FMODE_WRITE	0x2
#define SEEK_CUR	1

SEC("func=null_lseek file->f_mode offset orig")
int null_lseek_prog(void *ctx, int err, unsigned long f_mode, unsigned long offset,
		    unsigned long orig)
{
	if (!from_test_helper())
		return 0;
	bpf_printk("GOT lseek err=%d mode=%lu off=%lu orig=%lu", err,
		   f_mode & (FMODE_READ | FMODE_WRITE), offset, orig);
	if (err || (f_mode & FMODE_WRITE) || (offset & 1) || orig == SEEK_CUR)
		return 0;
	bpf_printk("SAMPLE null_lseek");
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
