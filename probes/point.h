/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A probe point: where a program runs (a binary and file offset, or a
 * kernel function and offset) and the fetch plan of its arguments there,
 * with what tools show about it. Plain data: the resolvers fill it, the
 * loader attaches it.
 */
#ifndef BPFPROBE_POINT_H
#define BPFPROBE_POINT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "prologue/plan.h"

/*
 * Map tracing (map=MAP): a point on a kernel function that updates or
 * deletes map elements runs the program only for the traced map, checked
 * before the prologue: the __u32 at id_off (offsetof(struct bpf_map, id),
 * from kernel BTF) in the struct bpf_map * argument map_arg must be id.
 * With fentry the plan reads ctx slots (BP_BASE_CTX) and the program is
 * loaded for BTF function btf_id; otherwise a kprobe (registers).
 */
struct bp_map_trace {
	bool on;		/* a map-tracing point */
	uint32_t id;		/* the map's */
	char name[16];		/* BPF_OBJ_NAME_LEN */
	uint32_t type;		/* enum bpf_map_type */
	int32_t id_off;
	uint8_t map_arg;
	bool fentry;
	uint32_t btf_id;	/* of func in vmlinux BTF */
	const char *via;	/* who calls func, e.g. "bpf_map_update_elem() of BPF programs" */
	bool update;		/* func updates (else deletes) */
	bool value_percpu;	/* its value is every possible CPU's (bpf() on per-CPU maps) */
};

/* Function entries one point's entry values may come from. */
#define BP_MAX_ENTRY_SAVES	8

struct bp_point {
	char *binary;		/* absolute path of the probed file (ours: what is attached) */
	/*
	 * exec= looked up as process seen_by sees it (its root, a chroot or a
	 * container's): the file's path there, when it differs from binary;
	 * NULL: binary is what exec= named for us too. Set by the front door
	 * (resolve.c) after resolving; not in the resolution cache.
	 */
	char *seen_as;
	pid_t seen_by;
	char *func;		/* function name */
	char *cu;		/* compilation unit name (DW_AT_name) */
	uint64_t addr;		/* link-time address of the probed instruction */
	uint64_t offset;	/* file offset of addr (uprobe offset) */
	bool is_return;
	bool is_inline;
	struct bp_plan plan;
	/* per argument, where it lives, e.g. "reg rdi", "CFA+8 (stack)" */
	char *loc_desc[BP_MAX_ARGS];
	/* per argument, the C type name, e.g. "int", "struct req *" */
	char *type_name[BP_MAX_ARGS];
	/* per argument, its name (NAME= or the expression; $params gives
	 * the parameters' names) */
	char *arg_name[BP_MAX_ARGS];
	/*
	 * Kernel functions (spec without exec=): a kprobe on func + offset,
	 * or on kaddr (run-time address) when func names several functions.
	 * binary is the debug file (vmlinux, MOD.ko) or "vmlinux"/MOD.
	 */
	bool kernel;
	char *module;		/* NULL: vmlinux */
	uint64_t kaddr;
	/* where locations and types came from, e.g. "BTF /sys/kernel/btf/vmlinux" */
	char *source;
	/* the probed instruction's source position (line table); NULL/0 if unknown */
	char *src_file;
	int src_line;
	char *caller;		/* is_inline: the function it is inlined into */
	char *symbol;		/* the ELF symbol of an out-of-line copy when it is
				 * not func (a clone: clone_me.constprop.0) */
	struct bp_map_trace map;	/* map tracing (kernel points) */
	/* an SDT marker's semaphore: its file offset in binary, which the
	 * kernel raises while the uprobe is attached (0: none) */
	uint64_t ref_ctr_offset;

	/*
	 * Entry values (the plan's BP_XOP_ENTRY_REG): the file offsets in
	 * binary of the function entries whose registers the plan reads, where
	 * a companion probe saves them (prologue/entry_save.h).
	 */
	uint64_t entry_offsets[BP_MAX_ENTRY_SAVES];
	int nentries;
	/* the DWARF DIE of the function copy (its offset in the binary's
	 * .debug_info), for tools that look at it again; 0: none */
	uint64_t die_off;
};

/* Frees what one point holds (not the point itself) and zeroes it. */
void bp_point__clear(struct bp_point *pt);
void bp_points__free(struct bp_point *points, int npoints);

#endif /* BPFPROBE_POINT_H */
