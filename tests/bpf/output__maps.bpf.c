// SPDX-License-Identifier: GPL-2.0
/* Maps bpfprobe dumps at exit: a hash, an array and two per-CPU maps. */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

struct last {
	long val;
	int calls;
	char tag[8];
};

struct sums {
	__u64 calls;
	__s64 sum;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, struct last);
} lasts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __s64);
} pcpu_total SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, struct sums);
} pcpu_sums SEC(".maps");

SEC("exec=" TARGET ";mp=out_map key val")
int mp(void *ctx, int err, long key, long val)
{
	__u32 k = key, zero = 0;
	__u64 one = 1, *cnt;
	struct last *l;
	struct sums *s, init = { 1, val };
	__s64 *tot;

	cnt = bpf_map_lookup_elem(&counts, &k);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	else
		bpf_map_update_elem(&counts, &k, &one, BPF_NOEXIST);
	l = bpf_map_lookup_elem(&lasts, &k);
	if (l) {
		l->val = val;
		l->calls++;
		l->tag[0] = 'k';
		l->tag[1] = '0' + k;
	}
	tot = bpf_map_lookup_elem(&pcpu_total, &zero);
	if (tot)
		*tot += val;
	s = bpf_map_lookup_elem(&pcpu_sums, &k);
	if (s) {
		s->calls++;
		s->sum -= val;
	} else {
		init.sum = -val;
		bpf_map_update_elem(&pcpu_sums, &k, &init, BPF_NOEXIST);
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
