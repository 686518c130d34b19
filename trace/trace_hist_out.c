// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* `trace --hist`: each point's histogram, from the per-CPU slots. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "output/hist.h"
#include "trace/trace_hist_out.h"
#include "util/json.h"

/* Point i's slots, summed over the CPUs, into count. */
static int read_slots(struct bpf_map *map, size_t i, __u64 *count, __u64 *percpu, int ncpu)
{
	for (__u32 s = 0; s < BP_TRACE_HIST_SLOTS; s++) {
		__u32 key = (__u32)(i * BP_TRACE_HIST_SLOTS + s);

		count[s] = 0;
		if (bpf_map_lookup_elem(bpf_map__fd(map), &key, percpu))
			return -errno;
		for (int c = 0; c < ncpu; c++)
			count[s] += percpu[c];
	}
	return 0;
}

static void one_text(FILE *f, const char *label, const char *member, const struct bp_hist *h,
		     __u64 unread)
{
	fprintf(f, "%s: %" PRIu64 " hits, %s\n", label, (uint64_t)(h->total + unread), member);
	bp_hist__print(f, h);
	if (unread)
		fprintf(f, "(%s could not be read: %" PRIu64 " hits)\n", member, (uint64_t)unread);
	fputc('\n', f);
}

static void one_json(struct bp_json *j, const char *label, const char *member,
		     const struct bp_hist *h, __u64 unread)
{
	bp_json__begin_object(j);
	bp_json__kv_string(j, "point", label);
	bp_json__kv_uint(j, "count", h->total + unread);
	bp_json__kv_string(j, "member", member);
	bp_json__kv_uint(j, "unread", unread);
	bp_json__key(j, "hist");
	bp_hist__json(j, h);
	bp_json__end_object(j);
}

int bp_trace_hist__format(const struct bp_trace *t, struct bpf_map *map,
			  const char *const *labels, size_t nlabels, bool json, char **text,
			  size_t *len)
{
	__u64 count[BP_TRACE_HIST_SLOTS], *percpu;
	int ncpu = libbpf_num_possible_cpus(), err = 0;
	struct bp_json *j = NULL;
	FILE *f;

	*text = NULL;
	*len = 0;
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	percpu = calloc(ncpu, sizeof(*percpu));
	f = percpu ? open_memstream(text, len) : NULL;
	if (!f) {
		free(percpu);
		return -ENOMEM;
	}
	if (json && !(j = bp_json__new(f, NULL)))
		err = -ENOMEM;
	for (size_t i = 0; i < nlabels && !err; i++) {
		struct bp_hist h;
		__u64 unread;

		err = read_slots(map, i, count, percpu, ncpu);
		if (err)
			break;
		unread = count[BP_TRACE_HIST_VALUES];
		err = bp_hist__from_log2(&h, count, BP_TRACE_HIST_VALUES);
		if (err)
			break;
		if (h.total || unread) {
			if (json)
				one_json(j, labels[i], t->hist, &h, unread);
			else
				one_text(f, labels[i], t->hist, &h, unread);
		}
		bp_hist__fini(&h);
	}
	if (j) {
		int jerr = bp_json__free(j);

		err = err ? err : jerr;
	}
	if (fclose(f) && !err)
		err = -EIO;
	free(percpu);
	if (err) {
		free(*text);
		*text = NULL;
		*len = 0;
	}
	return err;
}
