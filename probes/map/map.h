/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Map tracing: map=MAP;update ARG... and map=MAP;delete ARG... run a
 * program on every update (delete) of one BPF map, from user space (the
 * bpf() syscall, batches) and from BPF programs (the helpers), without a
 * kernel hook of their own: bpfprobe finds the kernel functions that do
 * it for the map's type, and the probe points on them check the map id
 * before anything else (probes/point.h, struct bp_map_trace).
 *
 *   target.c   MAP (a pinned path, id:N, name:NAME) -> the map and its info
 *   ops.c      the functions the map's ops table points to for updates and
 *              deletes, as the verifier resolves the helpers for this map
 *   funcs.c    every function that updates / deletes elements of a map of
 *              its type: the ops' and the paths that bypass them
 *   map_resolve.c the driver: probe points (fentry form) with key, value and
 *              flags typed by the map's BTF; their kprobe form
 *
 * Everything here asks the running kernel (a map, its BTF, kallsyms, a
 * verifier run) and needs the privileges those need; nothing stays loaded.
 */
#ifndef BPFPROBE_MAP_H
#define BPFPROBE_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/bpf.h>

#include "probes/diag.h"
#include "probes/maps.h"
#include "probes/point.h"
#include "probes/report.h"
#include "probes/spec.h"
#include "prologue/guard.h"

struct btf;
struct bp_kallsyms;

/* --- target.c ------------------------------------------------------------ */

/* struct bp_map_target, bp_map_target__find/close, bp_map_type__name:
 * probes/maps.h */

/* --- ops.c --------------------------------------------------------------- */

/*
 * The run-time addresses of the functions the map's ops point to for
 * map_update_elem and map_delete_elem: a program calling both helpers on
 * the map is verified (never run, never attached) and its final
 * instructions read back, where the verifier has replaced each helper
 * call by a direct call of the map's own function. call_base is the
 * address of __bpf_call_base, which those calls are relative to.
 */
int bp_map_ops__resolve(const struct bp_map_target *t, uint64_t call_base,
			uint64_t *update, uint64_t *delete, struct bp_diag *d);

/* --- funcs.c ------------------------------------------------------------- */

enum bp_map_op {
	BP_MAP_UPDATE,
	BP_MAP_DELETE,
};

/* A kernel function that updates or deletes elements of the map. */
struct bp_map_func {
	char name[128];
	uint64_t addr;		/* run-time */
	bool unique;		/* no other kernel function has that name */
	uint32_t btf_id;	/* its FUNC in vmlinux BTF */
	enum bp_map_op op;
	/* argument indexes: map (struct bpf_map *), key, value, flags; -1: none */
	int8_t map_arg, key_arg, value_arg, flags_arg;
	/* value is the bpf() syscall's buffer of every possible CPU's value,
	 * each rounded up to 8 bytes (per-CPU maps from user space) */
	bool value_percpu;
	const char *via;	/* who calls it */
};

/* What funcs.c reads of the kernel, loaded by its caller. */
struct bp_map_kernel {
	struct bp_kallsyms *ksyms;
	const struct btf *vmlinux;	/* kernel BTF */
	const char *release;		/* uname -r, for messages */
};

/*
 * The functions that do op to maps of t's type on this kernel. Returns
 * how many (>= 1, *out malloc'ed) or a negative errno, why in d (a map
 * type bpfprobe knows no functions for names the type and the kernel).
 * What is not seen on this kernel is said as warnings in d.
 */
int bp_map_funcs__find(const struct bp_map_kernel *k, const struct bp_map_target *t,
		       enum bp_map_op op, struct bp_map_func **out, struct bp_diag *d);

/* offsetof(struct bpf_map, id) in the kernel's BTF, or -ENOENT. */
int bp_map_funcs__id_offset(const struct btf *vmlinux);

/* --- map_resolve.c -------------------------------------------------------- */

struct bp_map_resolver;

struct bp_map_resolver *bp_map_resolver__new(void);
void bp_map_resolver__free(struct bp_map_resolver *r);

/*
 * A map spec (spec->map set) -> one probe point per function that does
 * spec->func ("update" / "delete") to the map, in fentry form (the plans
 * read ctx slots), each with its map guard. As bp_resolver__resolve():
 * 0 and *points, or a negative errno with the failure printed or in rep.
 */
int bp_map_resolver__resolve(struct bp_map_resolver *r, const struct bp_spec *spec,
			     struct bp_point **points, int *npoints, struct bp_report *rep);

/* bp_map_points__to_kprobes, bp_map_point__guards: probes/maps.h */

#endif /* BPFPROBE_MAP_H */
