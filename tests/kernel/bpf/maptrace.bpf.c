// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Map tracing: a program on every update and delete of the maps
 * tests/kernel/progs/kt_maps.c pins under /sys/fs/bpf/kt_maps and changes
 * (from user space and through the helpers), printing what it was given
 * in the form of kt_maps's TRUTH lines. kt_other is never traced: any of
 * its changes that got through would show as a line no TRUTH line has.
 */
#include "ktest.h"

#define FETCH_ERROR(prog) bpf_printk("GOT fetch_error prog=%s", prog)

SEC("map=/sys/fs/bpf/kt_maps/kt_hash;update key->port value->hits flags")
int hash_update(void *ctx, int err, __u64 port, __u64 hits, __u64 flags)
{
	if (err)
		FETCH_ERROR("hash_update");
	else
		bpf_printk("GOT hash_update port=%llu hits=%llu flags=%llu", port, hits, flags);
	return 0;
}

SEC("map=/sys/fs/bpf/kt_maps/kt_hash;update key->proto value->delta value->tag[0]")
int hash_update2(void *ctx, int err, __u64 proto, long delta, __u64 tag0)
{
	if (err)
		FETCH_ERROR("hash_update2");
	else
		bpf_printk("GOT hash_update2 proto=%llu delta=%ld tag0=%llu", proto, delta, tag0);
	return 0;
}

SEC("map=/sys/fs/bpf/kt_maps/kt_hash;delete key->port key->proto")
int hash_delete(void *ctx, int err, __u64 port, __u64 proto)
{
	if (err)
		FETCH_ERROR("hash_delete");
	else
		bpf_printk("GOT hash_delete port=%llu proto=%llu", port, proto);
	return 0;
}

SEC("map=/sys/fs/bpf/kt_maps/kt_arr;update key[0] value[0] flags")
int arr_update(void *ctx, int err, __u64 key, __u64 value, __u64 flags)
{
	if (err)
		FETCH_ERROR("arr_update");
	else
		bpf_printk("GOT arr_update key=%llu value=%llu flags=%llu", key, value, flags);
	return 0;
}

/* by name: kt_arr is the only map of that name in the VM */
SEC("map=name:kt_arr;delete key[0]")
int arr_delete(void *ctx, int err, __u64 key)
{
	if (err)
		FETCH_ERROR("arr_delete");
	else
		bpf_printk("GOT arr_delete key=%llu", key);
	return 0;
}

SEC("map=/sys/fs/bpf/kt_maps/kt_pcpu;update key[0] value->bytes flags")
int pcpu_update(void *ctx, int err, __u64 key, __u64 bytes, __u64 flags)
{
	if (err)
		FETCH_ERROR("pcpu_update");
	else
		bpf_printk("GOT pcpu_update key=%llu bytes=%llu flags=%llu", key, bytes, flags);
	return 0;
}

SEC("map=/sys/fs/bpf/kt_maps/kt_pcpu;delete key[0]")
int pcpu_delete(void *ctx, int err, __u64 key)
{
	if (err)
		FETCH_ERROR("pcpu_delete");
	else
		bpf_printk("GOT pcpu_delete key=%llu", key);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
