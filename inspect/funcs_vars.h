/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Seeing before loading: the functions of a binary (`bpfprobe funcs`) and
 * the variables a probe point can fetch (`bpfprobe vars`).
 *
 * Probe points come from bp_resolver__resolve() and each variable goes
 * through the same stages as an argument (bp_loc__var, bp_member__compile),
 * so "fetchable" here means "a program asking for it at this point loads",
 * and "why" is the message the loader would print.
 *
 * Addresses are ELF link-time addresses, as in struct bp_point.
 */
#ifndef BPFPROBE_INSPECT_FUNCS_VARS_H
#define BPFPROBE_INSPECT_FUNCS_VARS_H

#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>
#include "prologue/plan.h"
#include "probes/spec.h"

/* One function, or one inlined copy of a function. */
struct bp_func_entry {
	char *name;
	char *signature;	/* C++: demangled linkage name ("ns::C::m(int) const"); NULL */
	char *cu;		/* DW_AT_name of its CU; NULL from the symbol table */
	char *caller;		/* inlined copies: the function they are inlined into */
	char *alias_of;		/* a symbol DWARF knows by another name (malloc) */
	char *decl_file;	/* NULL when unknown */
	int decl_line;		/* 0 when unknown */
	uint64_t addr;		/* entry address */
	uint64_t size;		/* bytes of the code range holding the entry; 0: unknown */
	uint64_t offset;	/* file offset of addr (a uprobe's offset) */
	bool has_offset;
	bool is_inline;		/* an inlined copy (DW_TAG_inlined_subroutine) */
	bool from_symtab;	/* from the ELF symbol table, not DWARF */
};

struct bp_func_list {
	char *binary;		/* absolute path */
	bool has_dwarf;		/* false: entries come from the symbol table */
	struct bp_func_entry *funcs;	/* by name, then address */
	int n;
};

/*
 * Every function of binary (found like exec=) whose name matches glob
 * (fnmatch; NULL matches all): out-of-line copies and inlined copies from
 * DWARF, plus symbol-table aliases of DWARF functions; when the binary has
 * no DWARF, the symbol table's functions. Returns 0 (possibly n == 0) or a
 * negative errno after bp_err(). l must be freed either way.
 */
int bp_func_list__collect(struct bp_func_list *l, const char *binary, const char *glob);
void bp_func_list__free(struct bp_func_list *l);

enum bp_var_kind {
	BP_VAR_PARAM,
	BP_VAR_LOCAL,
	BP_VAR_RETVAL,		/* $retval at a return probe */
};

/* What a variable is at a point, for tools that count (the coverage). */
enum bp_var_class {
	BP_VAR_FETCHABLE,	/* a program asking for it here loads */
	BP_VAR_ABSENT,		/* it has no value here (optimized out) */
	BP_VAR_AGGREGATE,	/* a struct, union or array: name a member */
	BP_VAR_IMPLICIT,	/* a pointer only DWARF knows (no value of its
				 * own); what it points to is readable:
				 * NAME[0], NAME->MEMBER */
	BP_VAR_FP_REG,		/* in a floating-point register, or computed in
				 * floating point: no BPF program can read or
				 * compute it */
	BP_VAR_REFUSED,		/* anything else: why says */
};

const char *bp_var_class__name(enum bp_var_class cls);

/* An address range [start, end). */
struct bp_addr_range {
	uint64_t start;
	uint64_t end;
};

struct bp_var_entry {
	char *name;
	enum bp_var_kind kind;
	char *type_name;	/* C type as declared, e.g. "req_t *" */
	int decl_line;		/* 0 when unknown */
	bool fetchable;
	enum bp_var_class cls;
	uint64_t addr;		/* where it is read: the point, or past the prologue */
	char *loc_desc;		/* its location at addr ("reg rdi"); NULL: none */
	struct bp_fetch *fetch;	/* fetchable: how (bp_fetch__format); else NULL */
	char *why;		/* not fetchable: the resolver's reason */
	/* where it has a location: navail < 0 means its whole scope (a single
	 * location expression or a constant); else the location list's ranges */
	int navail;
	struct bp_addr_range *avail;
};

struct bp_var_point {
	char *binary;
	char *seen_as;		/* the file as process seen_by sees it (-p); NULL */
	int seen_by;
	char *func;
	char *cu;
	uint64_t addr;
	uint64_t offset;
	bool is_return;
	bool is_inline;
	struct bp_var_entry *vars;	/* parameters, then locals outer to inner */
	int nvars;
	/* non-NULL: why this point's variables could not be listed (the
	 * other points are) */
	char *error;
	uint64_t die_off;	/* the copy's DIE (struct bp_point), 0: unknown */
};

struct bp_var_list {
	struct bp_var_point *points;
	int npoints;
};

/*
 * The variables at every probe point spec names (spec->exec set, no
 * arguments): parameters and locals in scope, or $retval at a return.
 * no_cache: the points are found without the DWARF index. view_pid > 0:
 * exec= is looked up as that process sees it (probes/view.h). Returns 0
 * or a negative errno after bp_err() (unknown function, binary without
 * debug info, ...). l must be freed either way.
 */
int bp_var_list__collect(struct bp_var_list *l, const struct bp_spec *spec, bool no_cache,
			 int view_pid);
void bp_var_list__free(struct bp_var_list *l);

const char *bp_var_kind__name(enum bp_var_kind kind);

/*
 * [entry, end) of the code range holding die's entry (DW_AT_entry_pc or
 * low_pc), DWARF addresses. False for declarations, code-less DIEs and
 * code the linker discarded.
 */
bool bp_list__code_range(Dwarf_Die *die, uint64_t *entry, uint64_t *end);

#endif /* BPFPROBE_INSPECT_FUNCS_VARS_H */
