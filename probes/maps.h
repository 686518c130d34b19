/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Map tracing (probes/map/) as the layers above use it: the loader and
 * the command reach it through this header only. A map named as a SEC
 * names it, a map type's name, and what a map-tracing probe point needs
 * at load and attach time: its guard and its kprobe form.
 */
#ifndef BPFPROBE_MAPS_H
#define BPFPROBE_MAPS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

#include "probes/diag.h"
#include "probes/point.h"
#include "prologue/guard.h"

struct bp_map_target {
	int fd;			/* held while resolving; -1 when closed */
	struct bpf_map_info info;
};

/*
 * Finds the map MAP names: a path under a BPF filesystem (a pin), id:N,
 * or name:NAME (the name of exactly one loaded map: several are an error
 * listing their ids). Returns 0 with t->fd open, or a negative errno with
 * why in d.
 */
int bp_map_target__find(const char *map, struct bp_map_target *t, struct bp_diag *d);
void bp_map_target__close(struct bp_map_target *t);

/* "hash", "percpu_array", ...: libbpf's names, or "type N". */
const char *bp_map_type__name(uint32_t type, char *buf, size_t len);

/*
 * Turns fentry-form points into kprobe points: each ctx slot i a plan
 * reads becomes the register argument i arrives in at the function's
 * entry. For kernels that refuse fentry.
 */
void bp_map_points__to_kprobes(struct bp_point *points, int npoints);

/*
 * The guard that keeps a map-tracing point's program to its map: the
 * __u32 id of the struct bpf_map * argument equals the map's (ctx slot or
 * pt_regs offset, by the point's form). gs->n is 0 for other points.
 * Nothing is counted (refused_fd -1).
 */
void bp_map_point__guards(const struct bp_point *pt, struct bp_guards *gs);

#endif /* BPFPROBE_MAPS_H */
