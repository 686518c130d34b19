/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What `bpfprobe trace --hist NAME` prints at exit (trace_hist_out.c):
 * per probe point that was hit,
 *
 *	POINT: N hits, NAME
 *	[4, 8)      25 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
 *	...
 *	(NAME could not be read: M hits)
 *
 * or with json one {"point": P, "count": N, "member": NAME,
 * "unread": M, "hist": [{"min": lo, "max": hi, "count": n}, ...]} per
 * line, read from the per-CPU map BP_TRACE_MAP_HIST (trace.h).
 */
#ifndef BPFPROBE_TRACE_HIST_OUT_H
#define BPFPROBE_TRACE_HIST_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include "trace/trace.h"

struct bpf_map;

/*
 * The histograms of t's nlabels points (labels[i] names point i) from
 * map, as text or JSON in a buffer *text of *len bytes the caller frees.
 * 0 or a negative errno.
 */
int bp_trace_hist__format(const struct bp_trace *t, struct bpf_map *map,
			  const char *const *labels, size_t nlabels, bool json, char **text,
			  size_t *len);

#endif /* BPFPROBE_TRACE_HIST_OUT_H */
