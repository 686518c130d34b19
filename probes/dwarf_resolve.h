/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Internal interface of the DWARF resolver, split by concern:
 *   resolve.c         the driver: spec -> points
 *   resolve_func.c    functions named in a spec, probe addresses, prologues
 *   resolve_var.c     the parameter or variable an argument names
 *   resolve_loc.c     DWARF location expressions -> a value being built
 *   resolve_member.c  member chains and types -> the final fetch
 */
#ifndef BPFPROBE_DWARF_RESOLVE_H
#define BPFPROBE_DWARF_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#include "probes/debuginfo.h"
#include "probes/plan.h"
#include "probes/spec.h"

/* One out-of-line copy of the probed function. */
struct bp_func {
	Dwarf_Die die;		/* its DW_TAG_subprogram, when has_die */
	bool has_die;		/* false: found in the ELF symbol table only */
	uint64_t entry;		/* DWARF link-time address of its first insn */
	uint64_t end;		/* end of the code range that holds entry */
	const char *cu_name;	/* DW_AT_name of its CU; NULL if unknown */
};

/*
 * Every out-of-line function called name, sorted by address. With
 * need_dwarf false, falls back to the ELF symbol table. Returns 0 with
 * *nfuncs >= 1 (*funcs malloc'ed) or a negative errno after bp_err().
 */
int bp_funcs__find(const struct bp_debuginfo *di, const char *name,
		   bool need_dwarf, struct bp_func **funcs, int *nfuncs);

/* The first address past fn's prologue (line table), or -ENOENT. */
int bp_func__after_prologue(struct bp_func *fn, uint64_t *addr);

/* What the resolution of one argument needs to know, and says in errors. */
struct bp_arg_ctx {
	const struct bp_debuginfo *di;
	Dwarf_Die *func;	/* the function's DIE (frame base, scopes) */
	const char *where;	/* "FUNC in BINARY", for messages */
	uint64_t addr;		/* probe address, DWARF link-time */
	const char *arg;	/* the argument as written */
	bool user;		/* dereferences read user memory */
};

#define bp_arg_err(c, fmt, ...)						\
	bp_err("%s: argument '%s': " fmt "\n", (c)->where, (c)->arg, ##__VA_ARGS__)

/*
 * A value being built. f holds the base and the dereferences so far; the
 * value is eval(f) + off. An lvalue is an object in memory at that address,
 * an rvalue is the value itself (e.g. a pointer in a register).
 */
struct bp_val {
	struct bp_fetch f;
	int64_t off;
	bool lvalue;
};

/* v = *(u64 *)(eval(f) + off): one more dereference, as an rvalue. */
int bp_val__deref(const struct bp_arg_ctx *c, struct bp_val *v);

/* The parameter (or variable in scope at c->addr) called name. -ENOENT
 * after bp_err() listing the function's parameters. */
int bp_var__find(const struct bp_arg_ctx *c, const char *name, Dwarf_Die *var);

/* Where var lives at c->addr, as a value, and a description ("reg rdi",
 * "CFA-20 (frame)") into desc. */
int bp_loc__var(const struct bp_arg_ctx *c, Dwarf_Die *var, struct bp_val *val,
		char *desc, size_t desclen);

/*
 * True when var's location at c->addr is a frame slot that the prologue
 * has not filled yet: an fbreg below the CFA, or relative to a frame base
 * other than the CFA (rbp, rsp), which the prologue is still setting up.
 */
bool bp_loc__frame_based(const struct bp_arg_ctx *c, Dwarf_Die *var);

/*
 * Walks arg's member chain from val of type (NULL: void) and compiles the
 * final fetch into *out; *type_name gets the C name of the final type
 * (malloc'ed).
 */
int bp_member__compile(const struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
		       Dwarf_Die *type, struct bp_val *val, struct bp_fetch *out,
		       char **type_name);

#endif /* BPFPROBE_DWARF_RESOLVE_H */
