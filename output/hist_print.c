// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Histograms as people read them: a line per bucket from the first
 * counted to the last,
 *
 *	[4, 8)        25 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
 *
 * the largest count drawing the full bar; or as JSON buckets.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "output/hist.h"
#include "util/json.h"

#define BAR_WIDTH 52

/* 1024 -> "1K", 3 << 20 -> "3M": a log2 bound in binary units */
static void bound(char *buf, size_t len, long long v, bool units)
{
	static const char suffix[] = "KMGTPE";
	int k = 0;

	while (units && v && !(v & 1023) && k < 6) {
		v >>= 10;
		k++;
	}
	if (k)
		snprintf(buf, len, "%lld%c", v, suffix[k - 1]);
	else
		snprintf(buf, len, "%lld", v);
}

void bp_hist__label(const struct bp_hist *h, const struct bp_hist_bucket *b, char *buf,
		    size_t len)
{
	bool units = h->kind == BP_HIST_LOG2;
	char lo[32], hi[32];

	bound(lo, sizeof(lo), b->lo, units);
	bound(hi, sizeof(hi), b->hi, units);
	if (!b->has_lo)
		snprintf(buf, len, "(..., %s)", hi);
	else if (!b->has_hi)
		snprintf(buf, len, "[%s, ...)", lo);
	else if (units && b->hi == b->lo + 1)
		snprintf(buf, len, "[%s]", lo);
	else
		snprintf(buf, len, "[%s, %s)", lo, hi);
}

void bp_hist__print(FILE *f, const struct bp_hist *h)
{
	int label_w = 0, count_w = 1;
	__u64 most = 0;
	char label[80], bar[BAR_WIDTH + 1];

	for (int i = 0; i < h->nbuckets; i++) {
		int n;

		bp_hist__label(h, &h->b[i], label, sizeof(label));
		n = strlen(label);
		if (n > label_w)
			label_w = n;
		n = snprintf(NULL, 0, "%" PRIu64, (uint64_t)h->b[i].count);
		if (n > count_w)
			count_w = n;
		if (h->b[i].count > most)
			most = h->b[i].count;
	}
	for (int i = 0; i < h->nbuckets; i++) {
		int n = most ? (int)((double)h->b[i].count * BAR_WIDTH / most) : 0;

		bp_hist__label(h, &h->b[i], label, sizeof(label));
		memset(bar, '@', n);
		memset(bar + n, ' ', BAR_WIDTH - n);
		bar[BAR_WIDTH] = '\0';
		fprintf(f, "%-*s %*" PRIu64 " |%s|\n", label_w, label, count_w,
			(uint64_t)h->b[i].count, bar);
	}
}

void bp_hist__json(struct bp_json *j, const struct bp_hist *h)
{
	bp_json__begin_array(j);
	for (int i = 0; i < h->nbuckets; i++) {
		const struct bp_hist_bucket *b = &h->b[i];

		bp_json__begin_object(j);
		bp_json__key(j, "min");
		if (b->has_lo)
			bp_json__int(j, b->lo);
		else
			bp_json__null(j);
		bp_json__key(j, "max");
		if (b->has_hi)
			bp_json__int(j, b->hi);
		else
			bp_json__null(j);
		bp_json__kv_uint(j, "count", b->count);
		bp_json__end_object(j);
	}
	bp_json__end_array(j);
}
