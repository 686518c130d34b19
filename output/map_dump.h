/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The object's maps at exit, like bpftrace prints its maps: hash, LRU
 * hash and array maps and their per-CPU kinds, keys and values formatted
 * by their BTF types. Per-CPU values are summed member by member when
 * they are numbers, else shown per CPU. Entries are sorted by key; array
 * entries whose value is all zero bytes are left out. libbpf's internal
 * maps (.data, .rodata, .bss, .kconfig) and output maps are not dumped.
 */
#ifndef BPFPROBE_MAP_DUMP_H
#define BPFPROBE_MAP_DUMP_H

struct bpf_object;
struct bp_emitter;

/* Returns the number of maps dumped or a negative errno. */
int bp_map_dump(struct bpf_object *obj, struct bp_emitter *em);

#endif /* BPFPROBE_MAP_DUMP_H */
