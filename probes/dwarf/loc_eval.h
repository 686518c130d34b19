/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Internal to the evaluator of DWARF location expressions, shared by its
 * parts, each using only those before it: loc_stack.c (the symbolic
 * stack), loc_ops.c (the ops that compute), loc_eval.c (one op, locations
 * with branches, a whole expression), loc_describe.c (a location in
 * words) and loc.c (the entry points, dwarf.h's bp_loc__*).
 */
#ifndef BPFPROBE_DWARF_LOC_EVAL_H
#define BPFPROBE_DWARF_LOC_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/dwarf/dwarf.h"

#define STACK_MAX	8
/* DWARF ops a location with branches may have */
#define MAX_XMODE_OPS	64

/* what the top of the stack means once the ops are done */
enum loc_state {
	LOC_MEM,	/* an address: the object is in memory there */
	LOC_REG,	/* DW_OP_regN: the value is the register */
	LOC_VALUE,	/* DW_OP_stack_value, DW_OP_implicit_value: the value */
};

struct loc_eval {
	const struct bp_arg_ctx *c;
	Dwarf_Attribute *attr;	/* the expression's attribute (for libdw) */
	int depth;
	struct bp_val stack[STACK_MAX];
	int sp;
	enum loc_state state;
	/* DW_OP_piece parts so far */
	struct bp_piece pieces[BP_MAX_PIECES];
	int npieces;
	uint32_t piece_off;
	/*
	 * From a branch on (DW_OP_bra, DW_OP_skip) the rest of the ops are
	 * translated one by one into an expression (x): the symbolic stack
	 * became its first ops. xat[i]: where DWARF op i's ops start;
	 * jumps: the branches, to be pointed at their targets at the end.
	 */
	bool xmode;
	struct bp_expr x;
	int xat[MAX_XMODE_OPS + 1];
	int njumps;
	struct { int at; size_t to; } jumps[MAX_XMODE_OPS];
};

/* The function whose DW_AT_frame_base DW_OP_fbreg means: at an inlined
 * copy, the function it was inlined into. */
static inline Dwarf_Die *frame_func(const struct bp_arg_ctx *c)
{
	return c->dw->frame ? c->dw->frame : c->dw->func;
}

/* ---- loc_stack.c --------------------------------------------------------- */

/* A new evaluation (malloc'ed: free it), zeroed but for its stack. */
struct loc_eval *bp_loc_new_eval(void);
/* op's name, in a buffer of the thread's own */
const char *bp_loc_op_name(unsigned int op);
/* A constant of len bytes (little-endian): one value, or 8-byte pieces. */
int bp_loc_const_bytes(const struct bp_arg_ctx *c, const unsigned char *data,
		       size_t len, struct bp_val *v);
/* 0 when DWARF register reg is readable from a probe; else the failure. */
int bp_loc_check_reg(const struct bp_arg_ctx *c, uint64_t reg);
int bp_loc_push_val(struct loc_eval *e, const struct bp_val *v);
int bp_loc_push(struct loc_eval *e, enum bp_base_kind base, uint8_t reg, int64_t off);
int bp_loc_push_reg(struct loc_eval *e, uint64_t reg, int64_t off);
/* A link-time address (a global): anchored on the probe point. */
int bp_loc_push_addr(struct loc_eval *e, uint64_t addr);
/* "op on an empty stack": a malformed expression */
int bp_loc_underflow(struct loc_eval *e, unsigned int op);
/* Whether op is DW_OP_regN/regx (then *reg), or DW_OP_bregN/bregx (then
 * *reg and *off). */
bool bp_loc_op_is_reg(const Dwarf_Op *op, uint64_t *reg);
bool bp_loc_op_is_breg(const Dwarf_Op *op, uint64_t *reg, int64_t *off);
/* "location uses OP: not supported" */
int bp_loc_unsupported(struct loc_eval *e, const Dwarf_Op *op);
/* The top of the stack (*v), or an underflow. */
int bp_loc_top(struct loc_eval *e, unsigned int op, struct bp_val **v);

/* ---- loc_ops.c ----------------------------------------------------------- */

int bp_loc_convert(struct loc_eval *e, const Dwarf_Op *op);
int bp_loc_regval_type(struct loc_eval *e, const Dwarf_Op *op);
int bp_loc_deref_type(struct loc_eval *e, const Dwarf_Op *op);
int bp_loc_const_type(struct loc_eval *e, const Dwarf_Op *op);
int bp_loc_unary_op(struct loc_eval *e, unsigned int op);
int bp_loc_implicit_pointer(struct loc_eval *e, const Dwarf_Op *op);
int bp_loc_tls_address(struct loc_eval *e, const Dwarf_Op *op);
int bp_loc_rot_pick(struct loc_eval *e, const Dwarf_Op *op);
int bp_loc_binary_op(struct loc_eval *e, unsigned int op);
/* The expression op (BP_XOP_*, 0 if none) of a DWARF binary op, and its
 * signedness (*flags) for operands a and b. */
int bp_loc_xop_of(unsigned int op, const struct bp_val *a, const struct bp_val *b,
		  uint8_t *flags);

/* ---- loc_eval.c ---------------------------------------------------------- */

/* Pushes the CFA at e->c->addr, plus off. */
int bp_loc_push_cfa(struct loc_eval *e, int64_t off);
/* One op, on the symbolic stack. */
int bp_loc_step(struct loc_eval *e, const Dwarf_Op *op);
/* Evaluates ops; the result is an lvalue (memory location) unless the
 * expression names a register or ends in DW_OP_stack_value, or is split
 * into pieces (out->npieces). */
int bp_loc_eval(const struct bp_arg_ctx *c, Dwarf_Attribute *attr, int depth,
		Dwarf_Op *ops, size_t nops, struct bp_val *out);

/* DW_OP_GNU_parameter_ref: what the callers pass (callsite.c) */
int bp_loc_param_ref(struct loc_eval *e, const Dwarf_Op *op);

/* ---- loc_describe.c ------------------------------------------------------ */

/* Human form of the expression: the common shapes get a short name, the
 * rest is spelled op by op. */
void bp_loc_describe(const struct bp_arg_ctx *c, Dwarf_Attribute *attr,
		     Dwarf_Op *ops, size_t nops, char *buf, size_t len);

#endif /* BPFPROBE_DWARF_LOC_EVAL_H */
