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
 *                entry points; the evaluator is loc_eval.c (the stack, one
 *                op), loc_ops.c (the ops that compute), loc_branch.c
 *                (branches) and loc_describe.c (a location in words)
 *   val_pieces.c a value's dereference and its pieces (DW_OP_piece)
 *   member.c     member chains over DWARF types
 *   chain.c      member chains, whatever the types -> the final fetch
 *   arg.c        one argument, whole; $params
 *   retval.c     $retval
 * and beside them: debuginfo.c (opening a binary), debuginfo_cache.c,
 * libpath.c (finding the file exec= names), types.c (DWARF type helpers).
 */
#ifndef BPFPROBE_DWARF_RESOLVE_H
#define BPFPROBE_DWARF_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#include "probes/diag.h"
#include "probes/binary/debuginfo.h"
#include "prologue/plan.h"
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

/* What the resolution of one argument needs to know, and where its
 * failures go. */
struct bp_arg_ctx {
	const struct bp_debuginfo *di;
	Dwarf_Die *func;	/* the function's DIE (frame base, scopes) */
	/*
	 * At an inlined copy, func is its DW_TAG_inlined_subroutine (its
	 * parameters and locals) and frame the function it was inlined into,
	 * whose DW_AT_frame_base DW_OP_fbreg uses. NULL: func has the frame.
	 */
	Dwarf_Die *frame;
	const char *where;	/* "FUNC in BINARY", for messages */
	uint64_t addr;		/* probe address, DWARF link-time */
	const char *arg;	/* the argument as written */
	bool user;		/* dereferences read user memory */
	/*
	 * Kernel probes: the dereferences before this index read the
	 * variable's own storage (a kernel stack slot), kernel memory even
	 * with @user. 0: user applies to every dereference.
	 */
	uint8_t first_user_deref;
	/* set by bp_arg__compile(), the rest by its caller: */
	uint64_t func_entry;	/* entry of the function whose frame addr is in
				 * (DW_OP_entry_value is known there); 0: unknown */
	bool at_return;		/* a uretprobe: globals anchor on bpf_get_func_ip() */
	bool kernel;		/* a kernel probe: no load bias for globals yet */
	/* failures and warnings are recorded here, about argument arg;
	 * trying another address: a scratch one, thrown away */
	struct bp_diag *diag;
	Dwarf_Die *var;		/* the variable being fetched, when one is */
	const struct bp_arg_spec *spec_arg;	/* the argument being compiled */
};

/* Records that the argument c compiles fails: fmt names the culprit. */
#define bp_arg_fail(c, fmt, ...) \
	bp_diag__set_arg((c)->diag, (c)->arg, fmt, ##__VA_ARGS__)

/*
 * A value being built. f holds the base and the dereferences so far; the
 * value is eval(f) + off. An lvalue is an object in memory at that address,
 * an rvalue is the value itself (e.g. a pointer in a register).
 */
#define BP_MAX_PIECES	8

/*
 * DW_OP_implicit_pointer: a pointer whose target exists only in DWARF. It
 * has no value (no address); following it reads the object die describes
 * at the same address, from byte off on.
 */
struct bp_implicit {
	bool set;
	Dwarf_Die die;
	int64_t off;
};

/* One part of a value split by DW_OP_piece: bytes [byte_off, byte_off +
 * size) of the object, with a location of their own (see bp_val). */
struct bp_piece {
	uint32_t byte_off;
	uint32_t size;
	bool empty;		/* optimized out */
	struct bp_fetch f;
	int64_t off;
	bool lvalue;
	uint8_t shift;
	uint8_t width;
	bool wsigned;
	struct bp_implicit implicit;
};

struct bp_val {
	struct bp_fetch f;
	int64_t off;
	bool lvalue;
	/*
	 * rvalues only: the value proper starts 'shift' bits up (a member of a
	 * small struct held in a register, DW_OP_shr), and is its low 'width'
	 * bits (0: all 64), sign-extended when wsigned, zero-extended if not
	 * (DW_OP_convert to a narrower type, DW_OP_and with a mask,
	 * DW_OP_deref_size).
	 */
	uint8_t shift;
	uint8_t width;
	bool wsigned;
	/* a floating-point value (a typed DWARF op): its bits are read as
	 * they are, but no arithmetic can be done with it */
	bool fp;
	/* an implicit pointer (then f and off mean nothing) */
	struct bp_implicit implicit;
	/*
	 * npieces > 0: the object is split (DW_OP_piece, or a struct in a
	 * register); off is then a byte offset into it, and f/lvalue/shift
	 * mean nothing until bp_val__select() picks the piece a member is in.
	 */
	int npieces;
	struct bp_piece pieces[BP_MAX_PIECES];
};

/* v = *(u64 *)(eval(f) + off): one more dereference, as an rvalue. */
int bp_val__deref(const struct bp_arg_ctx *c, struct bp_val *v);

/*
 * Values only a fetch expression (prologue/expr.h) computes (val_expr.c).
 * Each returns 0 or a negative errno, recorded in c->diag.
 */

/* v (not split, no implicit pointer) as an expression base: f's base,
 * reads, off, shift and width become ops; lvalue is kept. */
int bp_val__flatten(const struct bp_arg_ctx *c, struct bp_val *v);

/* a = a OP b (a binary op of expr.h), both flattened; width and wsigned
 * of the result are the wider operand's (a typed DWARF stack). */
int bp_val__binary(const struct bp_arg_ctx *c, struct bp_val *a, struct bp_val *b,
		   int op, uint8_t flags);

/* v = OP v (NEG, NOT, ABS; PLUS_CONST with imm). */
int bp_val__unary(const struct bp_arg_ctx *c, struct bp_val *v, int op, int64_t imm);

/* DW_OP_form_tls_address: v, an offset in the module's TLS block, becomes
 * the address of that byte for the current thread (tls.c finds the
 * block). */
int bp_val__tls(const struct bp_arg_ctx *c, struct bp_val *v);

/* DW_OP_entry_value(DW_OP_regN) away from the entry: v, the frame's CFA,
 * becomes reg's value at the entry of the function c->func_entry starts,
 * saved there by a companion probe (prologue/entry_save.h). */
int bp_val__entry_reg(const struct bp_arg_ctx *c, struct bp_val *v, int reg);

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

/* Records that the argument has no value at c->addr: "WHAT at ADDR
 * (FUNC+OFF)[: DETAIL]" (unavailable.c); returns err. */
int bp_arg__unavailable(const struct bp_arg_ctx *c, int err, const char *what,
			const char *detail);

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
 * A split value (npieces > 0) narrowed to the piece holding bytes
 * [v->off, v->off + size): what's needed before reading a member of that
 * size. An rvalue held whole (a struct in a register) is first made a one
 * piece split of type_size bytes. No-op on other values.
 */
int bp_val__select(const struct bp_arg_ctx *c, struct bp_val *v, long size,
		   const char *path);
/* An rvalue struct/array (a register holding it) as a one piece split of
 * size bytes, so members are bits of it. */
int bp_val__split(const struct bp_arg_ctx *c, struct bp_val *v, long size,
		  const char *path);
/* p (not empty; its byte_off and size aside) becomes v's location. */
void bp_piece__from_val(struct bp_piece *p, const struct bp_val *v);

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
 * c->func first, then a definition anywhere in the binary. -ENOENT,
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

/* The name of the function whose frame c->addr is in, for messages:
 * "the function" when it has none. */
const char *bp_arg__frame_name(const struct bp_arg_ctx *c);

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

/*
 * When c->diag holds an "unavailable" failure without its avail part:
 * the ranges of the function where the argument can be read ("; available
 * at ..."), or "; it is readable nowhere in FUNC". c->var and c->spec_arg
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

/*
 * Shared with the kernel's BTF walker (probes/kernel/btf.c), which builds
 * the same bp_val from BTF types.
 */

/* What a function returns, as far as $retval is concerned. */
enum bp_ret_kind {
	BP_RET_VALUE,		/* a value in rax (or a type nobody knows) */
	BP_RET_VOID,
	BP_RET_FLOAT,		/* in xmm0 */
	BP_RET_RECORD,		/* a struct or union by value: refused */
};

/*
 * $retval (retval.c): rax at a return probe, into val and desc.
 * An error, recorded naming spec->func, when spec is no return probe or
 * the function returns kind void, floating-point or record.
 */
int bp_retval__value(const struct bp_arg_ctx *c, const struct bp_spec *spec,
		     enum bp_ret_kind kind, struct bp_val *val, char *desc,
		     size_t desclen);

/*
 * A member chain (->f .f [N]) walked from an argument's value, over DWARF
 * types (member.c) or BTF types (probes/kernel/btf.c): chain.c holds what does
 * not depend on where the types come from (the walk, its messages, the
 * final read), the ops what does. Each op returns 0 or a negative errno,
 * the failure recorded in the context's diagnosis.
 */
struct bp_chain;

struct bp_chain_ops {
	/* steps: each moves ch->val and the walker's current type */
	int (*arrow)(struct bp_chain *ch, const char *field);
	int (*dot)(struct bp_chain *ch, const char *field);
	int (*index)(struct bp_chain *ch, long index);
	/* the pointer the current value holds becomes the current rvalue */
	int (*load_pointer)(struct bp_chain *ch);
	/* the final value's size in bytes and signedness; refuses what is no
	 * scalar */
	int (*scalar)(struct bp_chain *ch, long *bytes, bool *is_signed);
	/* the C name of the current type */
	void (*type_name)(struct bp_chain *ch, char *buf, size_t len);
	/* before the final read (NULL: nothing): a C++ reference to a scalar
	 * reads the scalar */
	int (*end)(struct bp_chain *ch);
};

/* Embedded in the walker, which holds the current type. */
struct bp_chain {
	const struct bp_chain_ops *ops;
	const struct bp_arg_ctx *c;
	struct bp_val *val;
	char path[256];		/* the expression so far, for messages */
	/* the last member was a bitfield: bits [bit_off, bit_off + bit_size)
	 * of the bit_read bytes at val->off */
	int bit_size;
	int bit_off;
	int bit_read;
};

/*
 * Walks arg's steps from ch->val (ops, c and val set, the walker at the
 * argument's type) and compiles the final read into *out; *type_name
 * (malloc'ed) is the C name of the final type.
 */
int bp_chain__compile(struct bp_chain *ch, const struct bp_arg_spec *arg,
		      struct bp_fetch *out, char **type_name);

/* "WHAT 'PATH' (type T)HINT", T the current type; -EINVAL. */
int bp_chain__bad_step(struct bp_chain *ch, const char *what, const char *hint);
/* "'PATH' is WHY (type T)"; -EINVAL. */
int bp_chain__cannot_fetch(struct bp_chain *ch, const char *why);

/* Member names for a message: "a, b, ..." (at most 8, then ", ..."). */
struct bp_names {
	char buf[256];
	size_t pos;
	int count;
};

/* False once l takes no more names. */
bool bp_names__room(const struct bp_names *l);
void bp_names__add(struct bp_names *l, const char *name);

/* "REC has no member 'FIELD' (members: ...)"; -ENOENT. */
int bp_chain__no_member(struct bp_chain *ch, const char *rec, const char *field,
			const struct bp_names *members);

/* ch->val->off += index * size, refusing what no offset could hold. */
int bp_chain__add_index(struct bp_chain *ch, long index, long size);

/* Follows the pointer the current value holds: the pointee becomes the
 * lvalue. */
int bp_chain__follow(struct bp_chain *ch);

/* '[index]' on the current value, a pointer to elements of size bytes
 * (<= 0: unknown, an error): follows it to the element. */
int bp_chain__index_pointer(struct bp_chain *ch, long index, long size);

/*
 * Enters a bitfield of bit_size bits at bit_pos from the start of the
 * record at ch->val->off, read as its declared type of unit bytes.
 */
int bp_chain__bitfield(struct bp_chain *ch, long unit, int64_t bit_pos, int bit_size);

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
