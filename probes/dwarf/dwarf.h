/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Internal interface of the user-space (DWARF) resolver, split by concern:
 *   dwarf_resolve.c the driver: spec + opened binary -> points
 *   sites.c      the functions a spec names and the probe sites in them
 *   func.c       helpers about one function copy (code range, prologue end)
 *   inline.c     inlined copies of a function
 *   line.c       source lines (SRC:ALN, FUNC:RLN) and lazy patterns
 *   var.c        the parameter or variable an argument names
 *   loc.c        DWARF location expressions -> a value being built: the
 *                entry points; the evaluator is loc_stack.c (the stack),
 *                loc_ops.c (the ops that compute), loc_eval.c (one op,
 *                branches, a whole expression) and loc_describe.c (a
 *                location in words)
 *   member.c     member chains over DWARF types (the walk is
 *                probes/value/chain.c's)
 *   type_complete.c  types a unit only declares, completed from the
 *                definition in another unit
 *   arg.c        one argument, whole; $params
 *   perf_args.c  perf's fetch arguments ($argN, %REG, +OFFS(...), @SYM)
 *   tls.c        thread-local variables
 *   callsite.c   parameters as their call sites pass them
 * and beside them: cxx.c (C++ names), types.c (DWARF type helpers),
 * scopes.c, loclist.c. The value being built and the member chains are
 * probes/value/'s (shared with kernel BTF); the binary opened, its DWARF
 * index and library paths are probes/binary/'s.
 */
#ifndef BPFPROBE_DWARF_RESOLVE_H
#define BPFPROBE_DWARF_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <elfutils/libdw.h>

#include "probes/diag.h"
#include "probes/binary/debuginfo.h"
#include "prologue/plan.h"
#include "probes/value/chain.h"
#include "probes/value/value.h"
#include "probes/point.h"
#include "probes/spec.h"

/* One copy of the probed function: out of line, or (is_inline) inlined. */
struct bp_func {
	Dwarf_Die die;		/* its DW_TAG_subprogram (DW_TAG_inlined_subroutine
				 * when is_inline), when has_die */
	bool has_die;		/* false: found in the ELF symbol table only */
	uint64_t entry;		/* DWARF link-time address of its first insn */
	uint64_t end;		/* end of the code range that holds entry */
	const char *cu_name;	/* DW_AT_name of its CU; NULL if unknown */
	const char *name;	/* DWARF name (through origins) or symbol name */
	bool is_inline;
	/* the out-of-line DW_TAG_subprogram whose code this is: die itself,
	 * or for an inlined copy the function it was inlined into (its frame
	 * base, its entry for DW_OP_entry_value) */
	Dwarf_Die frame;
	uint64_t frame_entry;
};

/*
 * One probe point of a spec, before its arguments: the copy it is in and
 * its address. Found by bp_sites__find (sites.c).
 */
struct bp_site {
	struct bp_func fn;
	uint64_t addr;		/* DWARF link-time address to probe */
	/* addr is an out-of-line copy's entry: at -O0 the arguments are not
	 * in their frame slots yet (the driver may move past the prologue) */
	bool at_entry;
	const char *file;	/* source position of addr; NULL if unknown */
	int line;
	char *file_owned;	/* file, when it is this site's (malloc'ed) */
	const char *symbol;	/* ELF symbol at fn's entry when its name differs
				 * (clone_me.constprop.0); else NULL */
	/* non-zero: this point cannot be probed, and msg (malloc'ed, a whole
	 * line) says why; fatal unless force=yes */
	int err;
	char *msg;
	char where[320];	/* "FUNC (CU) in BINARY", ... for messages */
};

/*
 * Every probe point spec names in di: each copy of FUNC (glob, @SRC,
 * inlined copies unless inlines=no) at its entry, +OFFS, %return, :RLN
 * or ;PTN lines, or the lines SRC:ALN / SRC;PTN. Returns 0 with *nsites
 * >= 1 (*sites malloc'ed, free with bp_sites__free; some may carry err
 * and msg) or a negative errno, with d saying why, when nothing matches
 * at all.
 */
int bp_sites__find(const struct bp_debuginfo *di, const struct bp_spec *spec,
		   struct bp_site **sites, int *nsites, struct bp_diag *d);
void bp_sites__free(struct bp_site *sites, int nsites);

/* A growing array of sites (sites.c, line.c). */
struct bp_site_list {
	struct bp_site *v;
	int n;
	size_t cap;
};

/* A zeroed new site at the end of l, or NULL when out of memory. */
struct bp_site *bp_site_list__add(struct bp_site_list *l);

/*
 * The units holding an abstract instance (DW_AT_inline) of the function
 * asked for: collected during the pass over every unit's functions, so
 * that finding inlined copies walks the bodies of these units only (and
 * of units whose inlined calls may refer to other units: LTO, DWZ).
 */
struct bp_inline_units {
	struct Dwarf_CU **v;
	int n;
	size_t cap;
};

/* Adds die's unit. 0 or -ENOMEM. */
int bp_inline_units__add(struct bp_inline_units *units, Dwarf_Die *die);
void bp_inline_units__free(struct bp_inline_units *units);

struct bp_dwarf_index;

/*
 * Calls cb for every inlined copy (is_inline set) of a function whose name
 * is name, or matches it as a glob (inline.c), in the units listed
 * and those that may inline from other units: found by walking their
 * functions, or listed by idx (index.h) when not NULL. Returns 0, cb's
 * first non-zero return, or -ESTALE when idx lists what is not there
 * (-EBADMSG: a part of it read is corrupt).
 */
int bp_inlines__find(const struct bp_debuginfo *di, struct bp_dwarf_index *idx,
		     const char *name, bool glob, const struct bp_inline_units *units,
		     int (*cb)(const struct bp_func *fn, void *ctx), void *ctx);

/* The sites of spec's :RLN or ;PTN lines in the copy fn (line.c).
 * Errors (no code at that line in fn, ...) are recorded in d (whole
 * lines), not in a site. */
int bp_lines__in_func(const struct bp_debuginfo *di, const struct bp_spec *spec,
		      const struct bp_func *fn, struct bp_site_list *l,
		      struct bp_diag *d);

/* The sites of SRC:ALN or SRC;PTN anywhere in di (line.c); errors in d. */
int bp_lines__in_file(const struct bp_debuginfo *di, const struct bp_spec *spec,
		      struct bp_site_list *l, struct bp_diag *d);

/* die's DW_AT_decl_file (through origins) as a path, absolute when its
 * CU's comp_dir allows: in buf, or a libdw string. NULL when unknown. */
const char *bp_die_decl_file(Dwarf_Die *die, char *buf, size_t len);

/* True when path (a DWARF file name) is src, or ends with "/" src. */
bool bp_path__matches(const char *path, const char *src);

/* "NAME (CU) in BINARY", "NAME inlined into CALLER (CU) in BINARY". */
void bp_func__where(const struct bp_debuginfo *di, const struct bp_func *fn,
		    bool with_cu, char *buf, size_t len);

/* [entry, end) of the code range of a DW_TAG_subprogram holding its entry
 * (a hot/cold split function has only DW_AT_ranges). False: no code. */
bool bp_func__code(Dwarf_Die *die, uint64_t *entry, uint64_t *end);

/* The same for an inlined copy (DW_TAG_inlined_subroutine): its entry is
 * DW_AT_entry_pc, else its lowest address. */
bool bp_inline__code(Dwarf_Die *die, uint64_t *entry, uint64_t *end);

/* The first address past fn's prologue (line table), or -ENOENT. */
int bp_func__after_prologue(struct bp_func *fn, uint64_t *addr);

/*
 * The DWARF side of an argument's context (struct bp_arg_ctx's dw,
 * probes/value/value.h): the binary, the function and the variable.
 */
struct bp_arg_dwarf {
	const struct bp_debuginfo *di;
	Dwarf_Die *func;	/* the function's DIE (frame base, scopes) */
	/*
	 * At an inlined copy, func is its DW_TAG_inlined_subroutine (its
	 * parameters and locals) and frame the function it was inlined into,
	 * whose DW_AT_frame_base DW_OP_fbreg uses. NULL: func has the frame.
	 */
	Dwarf_Die *frame;
	Dwarf_Die *var;		/* the variable being fetched, when one is */
	/* the types a member chain completed from other units, and where
	 * each is defined (bp_type__complete), for resolve: "" when none */
	char type_from[256];
};

_Static_assert(sizeof(Dwarf_Die) <= sizeof(struct bp_die_slot),
	       "a Dwarf_Die fits in the value model's DIE slot");

/* The DIE an implicit pointer's target is, kept in a value. */
static inline void bp_implicit__set_die(struct bp_implicit *im, const Dwarf_Die *die)
{
	memcpy(&im->die, die, sizeof(*die));
}

static inline void bp_implicit__die(const struct bp_implicit *im, Dwarf_Die *die)
{
	memcpy(die, &im->die, sizeof(*die));
}

/* DW_OP_form_tls_address: v, an offset in the module's TLS block, becomes
 * the address of that byte for the current thread (tls.c finds the
 * block). */
int bp_val__tls(const struct bp_arg_ctx *c, struct bp_val *v);

/* Appends the ops of the CFA at c->addr to x: what the location
 * evaluator (loc.c) hands the call-site reader, which needs it. */
typedef int (*bp_cfa_expr_fn)(const struct bp_arg_ctx *c, struct bp_expr *x);

/* DW_OP_GNU_parameter_ref: the parameter param (of the function whose
 * frame c->addr is in) as its call sites pass it (callsite.c), over the
 * CFA cfa_expr builds. */
int bp_val__param_ref(const struct bp_arg_ctx *c, Dwarf_Die *param, bp_cfa_expr_fn cfa_expr,
		      struct bp_val *v);

/* The CFA at c->addr, its ops appended to x (loc.c). */
int bp_loc__cfa_expr(const struct bp_arg_ctx *c, struct bp_expr *x);

/* Following an implicit pointer: v becomes the object it points to (an
 * lvalue, or a value split into pieces when a register holds it; loc.c). */
int bp_loc__implicit_target(const struct bp_arg_ctx *c, struct bp_val *v);

/* Where a binary's TLS block is found from the thread pointer (tls.c). */
enum bp_tls_kind {
	BP_TLS_NONE = 0,
	BP_TLS_MODID_CONST,	/* DTV entry modid (the executable: 1) */
	BP_TLS_MODID_GOT,	/* DTV entry *got (a DTPMOD slot) */
	BP_TLS_TPOFF_GOT,	/* thread pointer + *got - sub (a TPOFF slot) */
};

struct bp_tls_module {
	enum bp_tls_kind kind;
	uint64_t modid;
	uint64_t got;		/* DWARF link-time address of the GOT slot */
	int64_t sub;		/* TPOFF: the offset of the slot's symbol */
};

/* How di's TLS block is found; -ENOENT with why when it cannot be. */
int bp_tls__module(const struct bp_debuginfo *di, struct bp_tls_module *m,
		   char *why, size_t len);

/*
 * The concrete scopes around DWARF address addr in the unit cudie,
 * innermost first (lexical blocks, inlined calls, the function, the
 * unit), into *scopes (malloc'ed). views: BP_SCOPES_PC, the code holds
 * addr; BP_SCOPES_VIEWS, a scope that begins at addr between location
 * views (an empty range there) holds it too, looked for inside the
 * function whose code holds addr; BP_SCOPES_VIEWS_ANYWHERE, in any
 * function (slow). Returns how many, or a negative errno.
 */
enum { BP_SCOPES_PC, BP_SCOPES_VIEWS, BP_SCOPES_VIEWS_ANYWHERE };
int bp_scopes__at(Dwarf_Die *cudie, uint64_t addr, int views, Dwarf_Die **scopes);

/* The same around addr in func (an out-of-line function or an inlined
 * copy, concrete): the blocks and copies inside it holding addr (views
 * included), func, and what holds func up to its unit. */
int bp_scopes__around(Dwarf_Die *func, uint64_t addr, Dwarf_Die **scopes);

/*
 * Where func (an out-of-line function or an inlined copy) is in scopes:
 * its index (-1: not there), and in *first the innermost scope that is
 * func's own source (blocks of calls inlined into func come before it).
 */
int bp_scopes__blocks(Dwarf_Die *scopes, int n, Dwarf_Die *func, int *first);

/* The parameter (or variable in scope at c->addr, or file-scope
 * variable) called name. -ENOENT, recorded with the function's
 * parameters. */
int bp_var__find(const struct bp_arg_ctx *c, const char *name, Dwarf_Die *var);

/* The file-scope (static or global) variable called name: in the CU of
 * c->dw->func first, then a definition anywhere in the binary. -ENOENT,
 * recorded. */
int bp_var__find_global(const struct bp_arg_ctx *c, const char *name, Dwarf_Die *var);

/* True when var lives at a fixed address or is a constant: readable at
 * any point, a return probe included. */
bool bp_var__is_static(Dwarf_Die *var);

/* Where var lives at c->addr, as a value, and a description ("reg rdi",
 * "CFA-20 (frame)") into desc. When var has no value there, the failure
 * recorded is "unavailable" (see probes/diag.h) without its avail part. */
int bp_loc__var(const struct bp_arg_ctx *c, Dwarf_Die *var, struct bp_val *val,
		char *desc, size_t desclen);

/* Calls cb with [start, end) of every entry of var's location list, and
 * whether it is an entry value; returns how many (0: a single expression,
 * the same at every address, or none). */
int bp_loc__ranges(Dwarf_Die *var, void (*cb)(uint64_t start, uint64_t end,
					     bool entry_value, void *ctx),
		   void *ctx);

/*
 * True when var's location at c->addr is a frame slot that the prologue
 * has not filled yet: an fbreg below the CFA, or relative to a frame base
 * other than the CFA (rbp, rsp), which the prologue is still setting up.
 */
bool bp_loc__frame_based(const struct bp_arg_ctx *c, Dwarf_Die *var);

/*
 * A struct, union, class or enum this unit only declares (DW_AT_declaration)
 * completed as a debugger does (type_complete.c): from the definition of the
 * same name, kind and scope in another unit of c->dw->di's DWARF, or of its
 * DWZ file, into *out, and where it is noted in c->dw->type_from. A type
 * that is no declaration is *out as it is. -ENOENT when no unit defines
 * it, -ENOTUNIQ when units define it differently (each listed), recorded in
 * c->diag.
 */
int bp_type__complete(const struct bp_arg_ctx *c, Dwarf_Die *decl, Dwarf_Die *out);

/*
 * Calls cb with the name and DIE offset of every named struct, union,
 * class and enum definition in the outer scopes of dwarf's units (the
 * unit, its namespaces and, in C++, its classes and structs; not inside
 * functions), what the function index lists as types (index.h). Stops at
 * cb's first non-zero return, which it returns.
 */
int bp_type_defs_walk(Dwarf *dwarf, int (*cb)(const char *name, uint64_t off, void *ctx),
		      void *ctx);

/*
 * Walks arg's member chain from val of type (NULL: void) and compiles the
 * final fetch into *out; *type_name gets the C name of the final type
 * (malloc'ed).
 */
int bp_member__compile(const struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
		       Dwarf_Die *type, struct bp_val *val, struct bp_fetch *out,
		       char **type_name);

/*
 * One variable argument, whole: finds the variable arg names (parameter,
 * local, global; @var: global only), its location at c->addr and its
 * member chain, into *out. *type_name (malloc'ed) and desc as for
 * bp_member__compile / bp_loc__var. Failures (in c->diag) name the
 * argument, and when it is not readable at c->addr, where in the
 * function it is.
 */
int bp_arg__compile(struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
		    struct bp_fetch *out, char **type_name, char *desc,
		    size_t desclen);

/* desc + "; " + the types completed from other units and where each is
 * defined (c->dw->type_from), as room allows. */
void bp_arg__type_from(const struct bp_arg_ctx *c, char *desc, size_t desclen);

/* A probe point as perf's fetch arguments see it (perf_args.c). */
struct bp_perf_point {
	const struct bp_debuginfo *di;
	const struct bp_spec *spec;
	const struct bp_func *fn;	/* the copy probed */
	/* its ELF symbol when it is a compiler-made copy (clone_me.constprop.0),
	 * whose parameters are not its source's: $argN is untyped there */
	const char *symbol;
};

/* Whether arg is one of perf's fetch arguments ($argN, %REG, +OFFS(...),
 * @SYM+OFFS) or a bare @SYM (DWARF's variable, else the symbol's). */
bool bp_perf_arg__is(const struct bp_arg_spec *arg);

/*
 * Compiles such an argument at c->addr of pt into *out, with its type's
 * name (malloc'ed) and where it is (desc). $argN only at an out-of-line
 * copy's entry; typed by its parameter when the function has DWARF. What
 * fails is recorded in c->diag.
 */
int bp_perf_arg__compile(struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
			 const struct bp_perf_point *pt, struct bp_fetch *out,
			 char **type_name, char *desc, size_t desclen);

/*
 * When c->diag holds an "unavailable" failure without its avail part:
 * the ranges of the function where the argument can be read ("; available
 * at ..."), or "; it is readable nowhere in FUNC". c->dw->var and c->spec_arg
 * say what to try at other addresses (none: nowhere).
 */
void bp_arg__where_else(const struct bp_arg_ctx *c);

/*
 * The arguments one point fetches: spec's, with $params expanded into
 * func's named parameters. *args (malloc'ed, free with bp_args__free)
 * borrows the spec's strings. -E2BIG past BP_MAX_ARGS, recorded in d.
 */
int bp_args__expand(const struct bp_spec *spec, Dwarf_Die *func, const char *where,
		    struct bp_arg_spec **args, int *nargs, struct bp_diag *d);
void bp_args__free(struct bp_arg_spec *args, int nargs);

struct bp_report;

/* Resolves spec against an opened binary's DWARF (the driver, dwarf_resolve.c):
 * a kernel spec (no exec=) gets kernel points (func + offset). What went
 * wrong is printed, or kept in rep (see probes/report.h). */
int bp_dwarf__resolve(const struct bp_debuginfo *di, const struct bp_spec *spec,
		      struct bp_point **points, int *npoints, struct bp_report *rep);

struct bp_debuginfo_cache;

/* The same for the binary at path, opened through cache; what opening it
 * says is named after where. The kernel resolver's DWARF
 * (probes/kernel/kernel.h, struct bp_kernel_dwarf) with cache as ctx. */
int bp_dwarf__resolve_path(void *cache, const char *path, const struct bp_spec *spec,
			   const char *where, struct bp_point **points, int *npoints,
			   struct bp_report *rep);

#endif /* BPFPROBE_DWARF_RESOLVE_H */
