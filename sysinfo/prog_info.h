/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One loaded BPF program as the kernel describes it (BPF_OBJ_GET_INFO_BY_FD):
 * id, tag, name, type, load time, run statistics, its maps with their names,
 * the BTF name of its attach target, and bpfprobe's metadata when bpfprobe
 * loaded it (loader/metadata.h).
 */
#ifndef BPFPROBE_SYSINFO_PROG_INFO_H
#define BPFPROBE_SYSINFO_PROG_INFO_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/bpf.h>
#include "loader/metadata.h"

struct bp_btf_names;

struct bp_sys_map {
	uint32_t id;
	uint32_t type;		/* enum bpf_map_type */
	char name[BPF_OBJ_NAME_LEN];
};

struct bp_sys_prog {
	uint32_t id;
	uint32_t type;		/* enum bpf_prog_type */
	uint8_t tag[BPF_TAG_SIZE];
	char name[BPF_OBJ_NAME_LEN];
	uint64_t load_time;	/* ns since boot (CLOCK_BOOTTIME) */
	uint32_t uid;
	uint64_t run_cnt;	/* counted while kernel.bpf_stats_enabled */
	uint64_t run_time_ns;
	uint64_t recursion_misses;
	uint32_t attach_btf_obj_id;
	uint32_t attach_btf_id;
	char *attach_func;	/* tracing programs: the BTF name they attach to */
	struct bp_sys_map *maps;
	int nmaps;
	struct bp_meta meta;	/* bpfprobe's metadata; meta.n == 0 if none */
};

/* Fills p from a program fd. names may be NULL (no attach_func). */
int bp_sys_prog__read_fd(int fd, struct bp_sys_prog *p, struct bp_btf_names *names);
/* The same by id; -ENOENT when the program is gone. */
int bp_sys_prog__read_id(uint32_t id, struct bp_sys_prog *p, struct bp_btf_names *names);
void bp_sys_prog__free(struct bp_sys_prog *p);

/* "kprobe", "tracepoint", ... (libbpf's names), or "type N" in buf. */
const char *bp_prog_type__str(uint32_t type, char *buf, size_t len);
/* 16 hex digits and a NUL. */
void bp_tag__format(const uint8_t tag[BPF_TAG_SIZE], char out[2 * BPF_TAG_SIZE + 1]);

#endif /* BPFPROBE_SYSINFO_PROG_INFO_H */
