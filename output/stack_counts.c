// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Equal stacks of a map keyed by stack ids, merged (stack_counts.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/stack_cache.h"
#include "output/stack_counts.h"
#include "unwind/unwinder.h"
#include "util/grow.h"

static int by_text(const void *a, const void *b)
{
	return strcmp(((const struct bp_stack_count *)a)->folded,
		      ((const struct bp_stack_count *)b)->folded);
}

static int by_count(const void *a, const void *b)
{
	const struct bp_stack_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	return strcmp(x->folded, y->folded);
}

/* What id prints as, in one line: its folded frames, or why it has none. */
static char *text_of(struct bp_stacks *stacks, __u64 id)
{
	const char *why = NULL;
	const struct bp_frames *f = bp_stacks__find(stacks, id, &why);
	char *s = NULL;

	if (f)
		return bp_frames__folded(f);
	return asprintf(&s, "[%s]", why) < 0 ? NULL : s;
}

int bp_stack_counts__merge(struct bp_stacks *stacks, const __u64 *ids, const __s64 *counts,
			   size_t n, struct bp_stack_count **out, size_t *nout)
{
	struct bp_stack_count *c = calloc(n ? n : 1, sizeof(*c));
	size_t k = 0;

	*out = NULL;
	*nout = 0;
	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		c[i].id = ids[i];
		c[i].count = counts[i];
		c[i].folded = text_of(stacks, ids[i]);
		if (!c[i].folded) {
			bp_stack_counts__free(c, i);
			return -ENOMEM;
		}
	}
	bp_sort(c, n, sizeof(*c), by_text);
	for (size_t i = 0; i < n; i++) {
		if (k && !strcmp(c[k - 1].folded, c[i].folded)) {
			c[k - 1].count += c[i].count;
			free(c[i].folded);
			continue;
		}
		c[k++] = c[i];
	}
	bp_sort(c, k, sizeof(*c), by_count);
	*out = c;
	*nout = k;
	return 0;
}

void bp_stack_counts__free(struct bp_stack_count *c, size_t n)
{
	for (size_t i = 0; c && i < n; i++)
		free(c[i].folded);
	free(c);
}
