// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Locations with branches (DW_OP_bra, DW_OP_skip): from the first branch
 * on, the location evaluator (loc_eval.h) translates the rest of the ops
 * one by one into a fetch expression, whose first ops are the symbolic
 * stack so far; the branches are pointed at their targets at the end.
 */
#include <errno.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/loc_eval.h"

static int xtoo_long(struct loc_eval *e)
{
	bp_arg_fail(e->c, "its location needs a fetch expression of more than %d operations: not supported",
		    BP_EXPR_MAX_OPS);
	return -E2BIG;
}

static int xpush(struct loc_eval *e, int op, uint8_t reg, uint8_t size, uint8_t flags,
		 int64_t imm)
{
	return bp_expr__push(&e->x, op, reg, size, flags, imm) ? 0 : xtoo_long(e);
}

/* The symbolic stack becomes the expression's first ops. */
int bp_loc_enter_xmode(struct loc_eval *e)
{
	int i, err;

	if (e->npieces) {
		bp_arg_fail(e->c, "a location in pieces with branches (DW_OP_bra, DW_OP_skip): not supported");
		return -EOPNOTSUPP;
	}
	memset(&e->x, 0, sizeof(e->x));
	for (i = 0; i < e->sp; i++) {
		err = bp_val__flatten(e->c, &e->stack[i]);
		if (err)
			return err;
		if (!bp_expr__append(&e->x, &e->stack[i].f.expr))
			return xtoo_long(e);
	}
	e->sp = 0;
	e->xmode = true;
	return 0;
}

/* An op the symbolic evaluator knows how to push (a frame base, the CFA,
 * an address, an entry value): pushed, flattened, appended. */
static int xsym(struct loc_eval *e, const Dwarf_Op *op)
{
	enum loc_state state = e->state;
	int err;

	e->xmode = false;
	err = bp_loc_step(e, op);
	e->xmode = true;
	e->state = state;
	if (!err && e->sp != 1) {
		bp_arg_fail(e->c, "%s cannot be computed after a branch", bp_loc_op_name(op->atom));
		err = -EOPNOTSUPP;
	}
	if (!err)
		err = bp_val__flatten(e->c, &e->stack[0]);
	if (!err && !bp_expr__append(&e->x, &e->stack[0].f.expr))
		err = xtoo_long(e);
	e->sp = 0;
	return err;
}

/* The generic type's binary ops: signed division and compares */
static int xbinary(unsigned int atom, uint8_t *flags)
{
	static const struct bp_val generic;

	return bp_loc_xop_of(atom, &generic, &generic, flags);
}

/* A branch: to the op at byte offset 'to', forward only. */
static int xjump(struct loc_eval *e, const Dwarf_Op *ops, size_t nops, size_t i)
{
	size_t next = i + 1 < nops ? ops[i + 1].offset : ops[i].offset + 3;
	int16_t rel = (int16_t)ops[i].number;

	if (rel < 0 || e->njumps == MAX_XMODE_OPS) {
		bp_arg_fail(e->c, "its location loops (%s backwards): not supported",
			    bp_loc_op_name(ops[i].atom));
		return -EOPNOTSUPP;
	}
	e->jumps[e->njumps].at = e->x.nops;
	e->jumps[e->njumps].to = next + rel;
	e->njumps++;
	return xpush(e, ops[i].atom == DW_OP_bra ? BP_XOP_BRA : BP_XOP_SKIP, 0, 0, 0, 0);
}

/* One op, translated into the expression. */
int bp_loc_xstep(struct loc_eval *e, const Dwarf_Op *ops, size_t nops, size_t i)
{
	const Dwarf_Op *op = &ops[i];
	unsigned int a = op->atom;
	uint8_t user = e->c->user ? BP_XF_USER : 0, flags;
	uint64_t reg;
	int64_t off;
	int xop, err;

	if (i >= MAX_XMODE_OPS) {
		bp_arg_fail(e->c, "a location with branches of more than %d operations: not supported",
			    MAX_XMODE_OPS);
		return -E2BIG;
	}
	e->xat[i] = e->x.nops;
	if (e->state != LOC_MEM) {
		bp_arg_fail(e->c, "malformed location expression (%s after a value)", bp_loc_op_name(a));
		return -EINVAL;
	}
	if (a >= DW_OP_lit0 && a <= DW_OP_lit31)
		return xpush(e, BP_XOP_CONST, 0, 0, 0, a - DW_OP_lit0);
	if (bp_loc_op_is_breg(op, &reg, &off))
		return bp_loc_check_reg(e->c, reg) ?: xpush(e, BP_XOP_REG, (uint8_t)reg, 0, 0, off);
	if (bp_loc_op_is_reg(op, &reg)) {
		err = bp_loc_check_reg(e->c, reg) ?: xpush(e, BP_XOP_REG, (uint8_t)reg, 0, 0, 0);
		e->state = LOC_VALUE;
		return err;
	}
	xop = xbinary(a, &flags);
	if (xop)
		return xpush(e, xop, 0, 0, flags, 0);
	switch (a) {
	case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
	case DW_OP_const8u: case DW_OP_constu:
	case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
	case DW_OP_const8s: case DW_OP_consts:
		return xpush(e, BP_XOP_CONST, 0, 0, 0, (int64_t)op->number);
	case DW_OP_plus_uconst:
		return xpush(e, BP_XOP_PLUS_CONST, 0, 0, 0, (int64_t)op->number);
	case DW_OP_deref:
		return xpush(e, BP_XOP_DEREF, 0, 8, user, 0);
	case DW_OP_deref_size:
		if (op->number != 1 && op->number != 2 && op->number != 4 && op->number != 8)
			return bp_loc_unsupported(e, op);
		return xpush(e, BP_XOP_DEREF, 0, (uint8_t)op->number, user, 0);
	case DW_OP_neg: return xpush(e, BP_XOP_NEG, 0, 0, 0, 0);
	case DW_OP_not: return xpush(e, BP_XOP_NOT, 0, 0, 0, 0);
	case DW_OP_abs: return xpush(e, BP_XOP_ABS, 0, 0, 0, 0);
	case DW_OP_dup: return xpush(e, BP_XOP_DUP, 0, 0, 0, 0);
	case DW_OP_drop: return xpush(e, BP_XOP_DROP, 0, 0, 0, 0);
	case DW_OP_swap: return xpush(e, BP_XOP_SWAP, 0, 0, 0, 0);
	case DW_OP_over: return xpush(e, BP_XOP_OVER, 0, 0, 0, 0);
	case DW_OP_rot: return xpush(e, BP_XOP_ROT, 0, 0, 0, 0);
	case DW_OP_pick: return xpush(e, BP_XOP_PICK, 0, 0, 0, (int64_t)op->number);
	case DW_OP_bra:
	case DW_OP_skip:
		return xjump(e, ops, nops, i);
	case DW_OP_nop:
		return 0;
	case DW_OP_stack_value:
		e->state = LOC_VALUE;
		return 0;
	case DW_OP_fbreg: case DW_OP_call_frame_cfa: case DW_OP_addr:
	case DW_OP_addrx: case DW_OP_GNU_addr_index: case DW_OP_entry_value:
	case DW_OP_GNU_entry_value: case DW_OP_const_type: case DW_OP_GNU_const_type:
		return xsym(e, op);
	default:
		return bp_loc_unsupported(e, op);
	}
}

/* The branches pointed at the ops of their targets; the result. */
int bp_loc_leave_xmode(struct loc_eval *e, const Dwarf_Op *ops, size_t nops, struct bp_val *out)
{
	size_t i, k;
	int bad;

	e->xat[nops] = e->x.nops;
	for (i = 0; i < (size_t)e->njumps; i++) {
		for (k = 0; k < nops && ops[k].offset != e->jumps[i].to; k++)
			;
		/* past the last op: the end */
		if (k == nops && e->jumps[i].to <= ops[nops - 1].offset) {
			bp_arg_fail(e->c, "malformed location expression (a branch into an op)");
			return -EINVAL;
		}
		e->x.ops[e->jumps[i].at].imm = e->xat[k] - e->jumps[i].at - 1;
	}
	if (bp_expr__check(&e->x, &bad)) {
		bp_arg_fail(e->c, "its location with branches cannot be computed (malformed at op %d, or deeper than %d values)",
			    bad, BP_EXPR_MAX_DEPTH);
		return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	out->f.base = BP_BASE_EXPR;
	out->f.expr = e->x;
	out->f.anchor = e->c->addr;
	out->f.anchor_kind = e->c->at_return ? BP_ANCHOR_FUNC_IP : BP_ANCHOR_IP;
	out->lvalue = e->state == LOC_MEM;
	return 0;
}
