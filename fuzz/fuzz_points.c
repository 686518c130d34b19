// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: probe points read back from bytes (probes/point_codec.c),
 * what the resolution cache reads from its files.
 *
 * The first byte is the count of points (1..8), the rest the bytes. Beyond
 * "no crash, no leak, no read past the bytes" it checks the decoder's
 * contract: what it accepts encodes again to the very bytes it read, and
 * every plan it gives is in the ranges the prologue generator expects.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "probes/point_codec.h"

static void check(int cond)
{
	if (!cond)
		abort();	/* libFuzzer reports it as a crash with the input */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bp_bytes_reader r;
	struct bp_bytes again = {};
	struct bp_point *pts;
	int n;

	if (size < 1)
		return 0;
	n = data[0] % 8 + 1;
	r = (struct bp_bytes_reader){ .p = data + 1, .size = size - 1 };
	if (bp_points__decode(&r, n, &pts))
		return 0;
	check(r.off <= r.size);
	for (int i = 0; i < n; i++) {
		const struct bp_plan *pl = &pts[i].plan;

		check(pts[i].binary && !pts[i].kernel);
		check(pl->nargs >= 0 && pl->nargs <= BP_MAX_ARGS);
		for (int k = 0; k < pl->nargs; k++) {
			const struct bp_fetch *f = &pl->args[k];

			check(f->nderef <= BP_MAX_DEREFS && f->expr.nops <= BP_EXPR_MAX_OPS);
			check(f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
			check(f->base == BP_BASE_EXPR || !f->expr.nops);
		}
	}
	check(!bp_points__encode(pts, n, &again));
	check(again.len == r.off && !memcmp(again.data, data + 1, r.off));
	bp_bytes__free(&again);
	bp_points__free(pts, n);
	return 0;
}
