/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Perf event array maps of an object, each read through a libbpf
 * perf_buffer (one bpf-output perf event per CPU, stored into the map).
 * Records are printed typed (btf_record.h) or in hex; a map named
 * __bpf_stdout__ follows perf's convention: its records are text. The
 * kernel reports records it had no room for; those counts are printed as
 * lost records.
 */
#ifndef BPFPROBE_PERFBUF_H
#define BPFPROBE_PERFBUF_H

#include <stddef.h>
#include <linux/types.h>

#define BP_PERF_STDOUT_MAP "__bpf_stdout__"
/* per CPU, per map: 256 KiB with 4 KiB pages */
#define BP_PERF_PAGES_DEFAULT 64
/* A buffer wakes its reader once a quarter full: its reader must drain it
 * at least this often, or a few records would wait for more. */
#define BP_PERF_DRAIN_MS	100

struct bpf_object;
struct bp_emitter;
struct bp_perfbufs;

/*
 * pages: per CPU and map, a power of 2 (0: the default). Returns 0 with
 * *out NULL when obj has no perf event array map.
 */
int bp_perfbufs__open(struct bpf_object *obj, struct bp_emitter *em, size_t pages,
		      struct bp_perfbufs **out);
/* Adds every map's epoll fd to epfd. */
int bp_perfbufs__add_to_epoll(struct bp_perfbufs *p, int epfd);
/* Prints every waiting record. Returns 0 or a negative errno. */
int bp_perfbufs__consume(struct bp_perfbufs *p);
/* Records lost so far, all maps. */
__u64 bp_perfbufs__lost(const struct bp_perfbufs *p);
void bp_perfbufs__free(struct bp_perfbufs *p);

#endif /* BPFPROBE_PERFBUF_H */
