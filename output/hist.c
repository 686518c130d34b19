// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Histogram map values (bpfprobe/bpf.h) read into buckets with bounds. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "output/hist.h"

/* the header's layouts */
#define LOG2_SLOTS	65
#define LIN_BUCKETS	256
#define LIN_HDR		24	/* min, max, step */

enum bp_hist_kind bp_hist__kind(const struct btf *btf, __u32 type_id)
{
	const struct btf_type *t = btf && type_id ? btf__type_by_id(btf, type_id) : NULL;
	const char *name;

	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_struct(t))
		return BP_HIST_NONE;
	name = btf__name_by_offset(btf, t->name_off);
	if (name && !strcmp(name, "bpfprobe_hist") && t->size == LOG2_SLOTS * 8)
		return BP_HIST_LOG2;
	if (name && !strcmp(name, "bpfprobe_lhist") && t->size == LIN_HDR + (LIN_BUCKETS + 2) * 8)
		return BP_HIST_LINEAR;
	return BP_HIST_NONE;
}

static __u64 u64_at(const void *p, size_t off)
{
	__u64 v;

	memcpy(&v, (const char *)p + off, sizeof(v));
	return v;
}

/* The bounds of log2 slot s: (..., 0), [0], [1], [2, 4), ... */
static void log2_bounds(int s, struct bp_hist_bucket *b)
{
	b->has_lo = b->has_hi = true;
	if (s == 0) {
		b->has_lo = false;
		b->hi = 0;
	} else if (s == 1) {
		b->lo = 0;
		b->hi = 1;
	} else if (s - 2 >= 62) {
		b->lo = 1LL << 62;
		b->has_hi = false;
	} else {
		b->lo = 1LL << (s - 2);
		b->hi = 1LL << (s - 1);
	}
}

/* The buckets of h from the first counted slot to the last. */
static int buckets(struct bp_hist *h, const __u64 *count, int nslots, long long min,
		   long long step, int nb)
{
	int first = -1, last = -1;

	for (int s = 0; s < nslots; s++) {
		if (!count[s])
			continue;
		if (first < 0)
			first = s;
		last = s;
		h->total += count[s];
	}
	if (first < 0)
		return 0;
	h->b = calloc(last - first + 1, sizeof(*h->b));
	if (!h->b)
		return -ENOMEM;
	for (int s = first; s <= last; s++) {
		struct bp_hist_bucket *b = &h->b[h->nbuckets++];

		b->count = count[s];
		if (h->kind == BP_HIST_LOG2) {
			log2_bounds(s, b);
			continue;
		}
		b->has_lo = s > 0;
		b->has_hi = s <= nb;
		b->lo = min + (s - 1) * step;
		b->hi = min + s * step;
	}
	return 0;
}

int bp_hist__read(struct bp_hist *h, enum bp_hist_kind kind, const void *data, int ncpu,
		  size_t stride, size_t size)
{
	long long min = 0, step = 0;
	int nslots, nb = 0, err;
	size_t slot0;
	__u64 *count;

	memset(h, 0, sizeof(*h));
	h->kind = kind;
	if (kind == BP_HIST_LOG2 && size == LOG2_SLOTS * 8) {
		nslots = LOG2_SLOTS;
		slot0 = 0;
	} else if (kind == BP_HIST_LINEAR && size == LIN_HDR + (LIN_BUCKETS + 2) * 8) {
		nslots = LIN_BUCKETS + 2;
		slot0 = LIN_HDR;
		/* the bounds of the CPU that counted last; a copy no add
		 * touched has step 0 */
		for (int c = 0; c < ncpu; c++) {
			const char *v = (const char *)data + c * stride;

			if ((long long)u64_at(v, 16) > 0) {
				long long max = u64_at(v, 8);

				min = u64_at(v, 0);
				step = u64_at(v, 16);
				nb = max > min ? (int)((unsigned long long)(max - min) / step) : 0;
				if (nb > LIN_BUCKETS)
					nb = LIN_BUCKETS;
			}
		}
		if (!step)
			return 0;	/* nothing counted */
		nslots = nb + 2;
	} else {
		return -EINVAL;
	}
	count = calloc(nslots, sizeof(*count));
	if (!count)
		return -ENOMEM;
	for (int c = 0; c < ncpu; c++)
		for (int s = 0; s < nslots; s++)
			count[s] += u64_at((const char *)data + c * stride, slot0 + 8 * s);
	err = kind == BP_HIST_LOG2 ? bp_hist__from_log2(h, count, nslots) :
				     buckets(h, count, nslots, min, step, nb);
	free(count);
	return err;
}

int bp_hist__from_log2(struct bp_hist *h, const __u64 *count, int nslots)
{
	__u64 folded[LOG2_SLOTS] = {};

	memset(h, 0, sizeof(*h));
	h->kind = BP_HIST_LOG2;
	for (int s = 0; s < nslots; s++)
		folded[s < LOG2_SLOTS ? s : LOG2_SLOTS - 1] += count[s];
	return buckets(h, folded, LOG2_SLOTS, 0, 0, 0);
}

void bp_hist__fini(struct bp_hist *h)
{
	free(h->b);
	h->b = NULL;
	h->nbuckets = 0;
}
