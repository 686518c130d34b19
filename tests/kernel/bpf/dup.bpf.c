// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A name shared by two kernel functions (address_show, in net-sysfs and
 * elsewhere): the kernel refuses a kprobe on an ambiguous name, so each
 * copy is probed by its address. Reading /sys/class/net/lo/address calls
 * the net-sysfs one, whose attribute is read-only (mode 0444: 292).
 */
#include "ktest.h"

SEC("func=address_show attr->attr.mode")
int addr_show(void *ctx, int err, long mode)
{
	bpf_printk("GOT dup err=%d mode=%ld", err, mode);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
