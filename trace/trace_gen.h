/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The parts of a generated object (trace.h): its maps, the programs'
 * instructions (trace_insns.c), its BTF (trace_btf.c); trace_elf.c puts
 * them in an ELF file the way clang would have.
 */
#ifndef BPFPROBE_TRACE_GEN_H
#define BPFPROBE_TRACE_GEN_H

#include <stdint.h>
#include <linux/bpf.h>
#include "trace/trace.h"

struct btf;

/* The maps an object may have, in its .maps section in this order. */
enum bp_trace_map_id {
	BP_TRACE_EVENTS,	/* ring buffer: records (not with count) */
	BP_TRACE_LOST,		/* per-CPU __u64: hits the full ring dropped */
	BP_TRACE_COUNTS,	/* per-CPU __u64 per probe point (count only) */
	BP_TRACE_HIST,		/* per-CPU __u64 slots per probe point (hist only) */
	BP_TRACE_NMAPS,
};

struct bp_trace_map_def {
	int id;			/* enum bp_trace_map_id */
	const char *name;
	__u32 type;		/* enum bpf_map_type */
	__u32 max_entries;
	bool typed;		/* __u32 keys and __u64 values (the per-CPU arrays) */
	__u32 off;		/* in .maps */
	__u32 size;		/* of its definition: 8 bytes per attribute */
};

/* The maps t's object holds: *n of them, in defs. */
void bp_trace__maps(const struct bp_trace *t, struct bp_trace_map_def *defs, int *n);

/* An ldimm64 at insn that loads map (an enum bp_trace_map_id). */
struct bp_trace_reloc {
	int insn;
	int map;
};

#define BP_TRACE_MAX_INSNS	256
#define BP_TRACE_MAX_RELOCS	4

/*
 * Program i's instructions (the body the prologue is put before), and
 * the map loads among them. Returns the instruction count or -E2BIG.
 */
int bp_trace__insns(const struct bp_trace *t, int i, struct bpf_insn *insns, size_t max,
		    struct bp_trace_reloc *relocs, int *nrelocs);

/*
 * Adds the record struct NAME of members m[0..n) (and __u64 err at
 * err_off when >= 0), size bytes, to btf. Returns its type id or a
 * negative errno.
 */
int bp_trace__btf_record(struct btf *btf, const char *name, const struct bp_trace_member *m,
			 int n, int err_off, uint32_t size);

/*
 * The object's BTF: each program's record, prototype and FUNC, the maps'
 * definitions and their .maps DATASEC. NULL with errno set.
 */
struct btf *bp_trace__btf(const struct bp_trace *t, const struct bp_trace_map_def *defs,
			  int nmaps);

#endif /* BPFPROBE_TRACE_GEN_H */
