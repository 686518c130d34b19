/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The value model both resolvers build an argument in, whatever its types
 * come from: DWARF (probes/dwarf/) or BTF (probes/kernel/btf.c).
 *   val_pieces.c  one more dereference; a value split into pieces
 *   val_expr.c    values only a fetch expression computes
 *   retval.c      $retval
 *   unavailable.c an argument with no value at the probe address
 * and the member chains walked over it (chain.h, chain.c). Nothing here
 * includes a DWARF header: what only DWARF has (the binary, the function's
 * DIE, an implicit pointer's target) is the DWARF resolver's, reached
 * through bp_arg_ctx's dw and kept opaque in a value (bp_die_slot).
 */
#ifndef BPFPROBE_VALUE_H
#define BPFPROBE_VALUE_H

#include <stdbool.h>
#include <stdint.h>

#include "probes/diag.h"
#include "probes/spec.h"
#include "prologue/plan.h"

struct bp_arg_dwarf;

/* What the resolution of one argument needs to know, whatever its types
 * come from, and where its failures go. */
struct bp_arg_ctx {
	/* where the types come from DWARF: the resolver's side of it
	 * (probes/dwarf/dwarf.h); NULL for BTF */
	struct bp_arg_dwarf *dw;
	const char *where;	/* "FUNC in BINARY", for messages */
	/* the name of the function whose frame addr is in, for messages
	 * (NULL: "the function") */
	const char *frame_name;
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

/* A DIE of the DWARF resolver's, kept in a value but opaque here: a
 * Dwarf_Die (probes/dwarf/dwarf.h checks that it fits). */
struct bp_die_slot {
	uint64_t words[4];
};

/*
 * DW_OP_implicit_pointer: a pointer whose target exists only in DWARF. It
 * has no value (no address); following it reads the object die describes
 * at the same address, from byte off on.
 */
struct bp_implicit {
	bool set;
	struct bp_die_slot die;	/* probes/dwarf/dwarf.h: bp_implicit__die() */
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
	bool typed;
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
	/*
	 * width is a DWARF base type's (DW_OP_convert, DW_OP_deref_type,
	 * DW_OP_regval_type, DW_OP_const_type): arithmetic on the value wraps
	 * in that type, whose sign decides division and comparisons. Without
	 * it, width only says the value's upper bits extend its low ones (a
	 * DW_OP_deref_size read, a mask): DWARF's generic type computes in 64
	 * bits, so a product or a left shift keeps every bit.
	 */
	bool typed;
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

/* Appends one op to x (prologue/expr.h's bp_expr__push), or records that
 * the expression grew too long. */
int bp_val__push_op(const struct bp_arg_ctx *c, struct bp_expr *x, int op, uint8_t reg,
		    uint8_t size, uint8_t flags, int64_t imm);

/* v (not split, no implicit pointer) as an expression base: f's base,
 * reads, off, shift and width become ops; lvalue is kept. */
int bp_val__flatten(const struct bp_arg_ctx *c, struct bp_val *v);

/* a = a OP b (a binary op of expr.h), both flattened; width and wsigned
 * of the result are the wider typed operand's (a typed DWARF stack), none
 * when neither is typed (the generic type). */
int bp_val__binary(const struct bp_arg_ctx *c, struct bp_val *a, struct bp_val *b,
		   int op, uint8_t flags);

/* v = OP v (NEG, NOT, ABS; PLUS_CONST with imm). */
int bp_val__unary(const struct bp_arg_ctx *c, struct bp_val *v, int op, int64_t imm);

/* DW_OP_entry_value(DW_OP_regN) away from the entry: v, the frame's CFA,
 * becomes reg's value at the entry of the function c->func_entry starts,
 * saved there by a companion probe (prologue/entry_save.h). */
int bp_val__entry_reg(const struct bp_arg_ctx *c, struct bp_val *v, int reg);

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

/* c->frame_name, or "the function". */
const char *bp_arg__frame_name(const struct bp_arg_ctx *c);

/* Records that the argument has no value at c->addr: "WHAT at ADDR
 * (FUNC+OFF)[: DETAIL]" (unavailable.c); returns err. */
int bp_arg__unavailable(const struct bp_arg_ctx *c, int err, const char *what,
			const char *detail);

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

#endif /* BPFPROBE_VALUE_H */
