/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Histograms a program fills through bpfprobe/bpf.h: a map value whose
 * type is struct bpfprobe_hist (power-of-two slots) or struct
 * bpfprobe_lhist (linear buckets) is read here into buckets with bounds
 * (hist.c), which hist_print.c prints as bars or JSON. The slot layouts
 * are the header's: keep them in step.
 */
#ifndef BPFPROBE_OUTPUT_HIST_H
#define BPFPROBE_OUTPUT_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

struct btf;
struct bp_json;

enum bp_hist_kind {
	BP_HIST_NONE,
	BP_HIST_LOG2,		/* struct bpfprobe_hist */
	BP_HIST_LINEAR,		/* struct bpfprobe_lhist */
};

/* [lo, hi): no lo for the values below the first bound, no hi for those
 * from the last one up. */
struct bp_hist_bucket {
	long long lo, hi;
	bool has_lo, has_hi;
	__u64 count;
};

struct bp_hist {
	enum bp_hist_kind kind;
	int nbuckets;		/* from the first counted bucket to the last */
	struct bp_hist_bucket *b;
	__u64 total;
};

/* What a value of type_id is (typedefs and qualifiers looked through). */
enum bp_hist_kind bp_hist__kind(const struct btf *btf, __u32 type_id);

/*
 * Reads ncpu copies of a kind value (copy i at data + i * stride, size
 * bytes each; ncpu 1 for a map that is not per-CPU), summed. 0, -ENOMEM,
 * or -EINVAL when size is not the header's.
 */
int bp_hist__read(struct bp_hist *h, enum bp_hist_kind kind, const void *data, int ncpu,
		  size_t stride, size_t size);
/*
 * From power-of-two counts laid out as struct bpfprobe_hist's, nslots of
 * them (slots past the header's, an unsigned value's top powers, count in
 * its last). 0 or -ENOMEM.
 */
int bp_hist__from_log2(struct bp_hist *h, const __u64 *count, int nslots);
void bp_hist__fini(struct bp_hist *h);

/* "[4, 8)", "[1K, 2K)", "(..., 0)", "[100, ...)": into buf. */
void bp_hist__label(const struct bp_hist *h, const struct bp_hist_bucket *b, char *buf,
		    size_t len);

/* As text: a line per bucket, the label, the count and a bar. */
void bp_hist__print(FILE *f, const struct bp_hist *h);
/* As JSON: an array of {"min": lo|null, "max": hi|null, "count": n}. */
void bp_hist__json(struct bp_json *j, const struct bp_hist *h);

#endif /* BPFPROBE_OUTPUT_HIST_H */
