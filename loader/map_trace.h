/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The loader's side of map tracing (map=MAP;update|delete ...): how its
 * points attach on this kernel, and what `bpfprobe list` is told of them.
 * The points come from probes/map/ in fentry form.
 */
#ifndef BPFPROBE_MAP_TRACE_H
#define BPFPROBE_MAP_TRACE_H

struct bp_point;
struct bp_meta;

/* BPFPROBE_MAP_ATTACH=fentry|kprobe forces one way (default: fentry where
 * the kernel loads it, else kprobes). */
#define BP_MAP_ATTACH_ENV	"BPFPROBE_MAP_ATTACH"

/*
 * Decides how the map-tracing points of one program (what) attach: fentry
 * when the kernel loads an fentry program on the first of them, else
 * kprobes (the points turned into their kprobe form), else an error
 * saying that neither is there. 0 for points that trace no map.
 */
int bp_map_trace__choose(const char *what, struct bp_point *points, int npoints);

#endif /* BPFPROBE_MAP_TRACE_H */
