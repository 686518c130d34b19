/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The types of the map-tracing test maps: kt_maps_def.bpf.c defines them,
 * tests/kernel/progs/kt_maps.c changes them. */
#ifndef BPFPROBE_KT_MAPS_H
#define BPFPROBE_KT_MAPS_H

#define KT_MAPS_DIR	"/sys/fs/bpf/kt_maps"
#define KT_ARR_ENTRIES	8
#define KT_HELPER_PORT	7777

struct kt_key {
	__u32 port;
	__u32 proto;
};

struct kt_val {
	__u64 hits;
	__s32 delta;
	char tag[8];
};

struct kt_pval {
	__u64 bytes;
};

#endif /* BPFPROBE_KT_MAPS_H */
