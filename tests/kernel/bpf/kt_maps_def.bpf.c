// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The maps map tracing is tested on (tests/kernel/progs/kt_maps.c loads
 * this with libbpf and pins them under /sys/fs/bpf/kt_maps), with BTF
 * types for their keys and values, and an XDP program that changes two of
 * them through the helpers (run with BPF_PROG_TEST_RUN): kt_hash is
 * traced, kt_other, of the same type, must not be seen.
 */
#include "ktest.h"
#include "kt_maps.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, struct kt_key);
	__type(value, struct kt_val);
} kt_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, struct kt_key);
	__type(value, struct kt_val);
} kt_other SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, KT_ARR_ENTRIES);
	__type(key, __u32);
	__type(value, __u64);
} kt_arr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, struct kt_pval);
} kt_pcpu SEC(".maps");

SEC("xdp")
int kt_helper(struct xdp_md *ctx)
{
	struct kt_key k = { .port = KT_HELPER_PORT, .proto = 17 };
	struct kt_val v = { .hits = 99, .delta = 5, .tag = "x" };

	bpf_map_update_elem(&kt_hash, &k, &v, BPF_ANY);
	bpf_map_update_elem(&kt_other, &k, &v, BPF_ANY);
	k.port = KT_HELPER_PORT + 1;
	bpf_map_delete_elem(&kt_hash, &k);	/* no such key: fails, still seen */
	bpf_map_delete_elem(&kt_other, &k);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
