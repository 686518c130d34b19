// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A module function: dummy_get_stats64(struct net_device *dev, ...) of the
 * dummy module, which reading /sys/class/net/dummy0/statistics/ calls. Its
 * BTF is split from vmlinux's (/sys/kernel/btf/dummy); struct net_device is
 * vmlinux's. The second program finds the module through kallsyms.
 */
#include "ktest.h"

SEC("module=dummy;func=dummy_get_stats64 dev->ifindex dev->mtu")
int mod_stats(void *ctx, int err, long ifindex, long mtu)
{
	bpf_printk("GOT mod err=%d ifindex=%ld mtu=%ld", err, ifindex, mtu);
	return 0;
}

SEC("func=dummy_get_stats64 dev->mtu")
int mod_auto(void *ctx, int err, long mtu)
{
	bpf_printk("GOT auto err=%d mtu=%ld", err, mtu);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
