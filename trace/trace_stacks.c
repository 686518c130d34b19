// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Stacks of trace hits: printed or folded and counted (trace_stacks.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfprobe/bpfprobe.h>
#include "output/stack_cache.h"
#include "output/stack_print.h"
#include "trace/trace_stacks.h"
#include "unwind/unwinder.h"
#include "util/fnv.h"
#include "util/json.h"
#include "util/grow.h"

/* A distinct folded stack and its count, in a chained table. */
struct folded {
	char *text;
	uint64_t count;
	struct folded *next;
};

#define FOLD_BUCKETS	4096

struct bp_trace_stacks {
	struct bp_stacks *stacks;
	struct folded *fold[FOLD_BUCKETS];
	size_t nfolded;
};

int bp_trace_stacks__new(struct bpfprobe_object *obj, struct bp_trace_stacks **out)
{
	struct bp_trace_stacks *ts = calloc(1, sizeof(*ts));
	int samples = -1, kstacks = -1, err;

	*out = NULL;
	if (!ts)
		return -ENOMEM;
	bpfprobe_object__stack_fds(obj, &samples, &kstacks);
	err = bp_stacks__new(samples, kstacks, &ts->stacks);
	if (err) {
		free(ts);
		return err;
	}
	*out = ts;
	return 0;
}

void bp_trace_stacks__free(struct bp_trace_stacks *ts)
{
	if (!ts)
		return;
	for (int b = 0; b < FOLD_BUCKETS; b++) {
		for (struct folded *f = ts->fold[b], *next; f; f = next) {
			next = f->next;
			free(f->text);
			free(f);
		}
	}
	bp_stacks__free(ts->stacks);
	free(ts);
}

int bp_trace_stacks__consume(struct bp_trace_stacks *ts)
{
	return bp_stacks__consume(ts->stacks);
}

int bp_trace_stacks__format(struct bp_trace_stacks *ts, __u64 id, bool json, const char *indent,
			    char **text, size_t *len)
{
	FILE *f = open_memstream(text, len);
	const struct bp_frames *fr;
	const char *why = NULL;
	int err = 0;

	if (!f)
		return -ENOMEM;
	if (json) {
		struct bp_json *j = bp_json__new(f, NULL);

		if (j)
			bp_stack__json(j, ts->stacks, id);
		err = j ? bp_json__free(j) : -ENOMEM;
	} else {
		fr = bp_stacks__find(ts->stacks, id, &why);
		if (fr)
			bp_frames__fprint(fr, f, indent);
		else
			fprintf(f, "%s[%s]\n", indent, why);
	}
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (err) {
		free(*text);
		*text = NULL;
		return err;
	}
	/* a top-level JSON value ends its line: not inside the hit's */
	if (json && *len && (*text)[*len - 1] == '\n')
		(*text)[--*len] = '\0';
	return 0;
}

/* id's folded frames, or "[why]" */
static char *fold_one(struct bp_trace_stacks *ts, __u64 id)
{
	const char *why = NULL;
	const struct bp_frames *fr = bp_stacks__find(ts->stacks, id, &why);
	char *s = NULL;

	if (fr)
		return bp_frames__folded(fr);
	return asprintf(&s, "[%s]", why) < 0 ? NULL : s;
}

int bp_trace_stacks__count(struct bp_trace_stacks *ts, __u64 user, bool has_user, __u64 kernel,
			   bool has_kernel)
{
	char *u = has_user ? fold_one(ts, user) : NULL;
	char *k = has_kernel ? fold_one(ts, kernel) : NULL;
	char *text = NULL;
	struct folded *f;
	uint64_t h;

	if ((has_user && !u) || (has_kernel && !k) ||
	    asprintf(&text, "%s%s%s", u ? u : "", u && k ? ";" : "", k ? k : "") < 0) {
		free(u);
		free(k);
		return -ENOMEM;
	}
	free(u);
	free(k);
	h = bp_fnv1a(BP_FNV1A_INIT, text, strlen(text)) & (FOLD_BUCKETS - 1);
	for (f = ts->fold[h]; f; f = f->next) {
		if (!strcmp(f->text, text)) {
			f->count++;
			free(text);
			return 0;
		}
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		free(text);
		return -ENOMEM;
	}
	f->text = text;
	f->count = 1;
	f->next = ts->fold[h];
	ts->fold[h] = f;
	ts->nfolded++;
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct folded *x = *(const struct folded *const *)a;
	const struct folded *y = *(const struct folded *const *)b;

	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	return strcmp(x->text, y->text);
}

int bp_trace_stacks__folded(struct bp_trace_stacks *ts, char **text, size_t *len)
{
	struct folded **all = calloc(ts->nfolded ? ts->nfolded : 1, sizeof(*all));
	size_t n = 0;
	FILE *f;

	if (!all)
		return -ENOMEM;
	for (int b = 0; b < FOLD_BUCKETS; b++)
		for (struct folded *x = ts->fold[b]; x; x = x->next)
			all[n++] = x;
	bp_sort(all, n, sizeof(*all), by_count);
	f = open_memstream(text, len);
	if (!f) {
		free(all);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %" PRIu64 "\n", all[i]->text, all[i]->count);
	free(all);
	return fclose(f) ? -ENOMEM : 0;
}
