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
#include "prologue/plan.h"

/* Function entries one point's entry values may come from. */
#define BP_MAX_ENTRY_SAVES	8

struct bp_point {
	char *binary;		/* absolute path of the probed file */
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
