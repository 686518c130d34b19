// SPDX-License-Identifier: GPL-2.0
/*
 * Histograms through bpfprobe/bpf.h (tests/e2e/hist.sh): of hist_value's
 * v, a power-of-two histogram per v & 3 (a hash), a linear one (-50 to
 * 200 by 25) and a per-CPU power-of-two one of u; printed at exit.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpf.h>

BPFPROBE_HIST_MAP(by_rest, __s32, struct bpfprobe_hist, 8);
BPFPROBE_HIST_MAP(linear, __u32, struct bpfprobe_lhist, 1);

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfprobe_hist);
} unsigned_u SEC(".maps");

SEC("exec=" TARGET ";func=hist_value v u")
int hist(void *ctx, int err, long v, unsigned long u)
{
	__s32 rest = v & 3;
	__u32 zero = 0;
	struct bpfprobe_hist *h;

	if (err)
		return 0;
	bpfprobe_hist_add(&by_rest, &rest, v);
	bpfprobe_lhist_add(&linear, &zero, v, -50, 200, 25);
	h = bpf_map_lookup_elem(&unsigned_u, &zero);
	if (h) {
		__u32 s = bpfprobe_hist_slot(u >> 1);

		bpfprobe__opaque(s);
		if (s < BPFPROBE_HIST_SLOTS)
			h->slot[s]++;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
