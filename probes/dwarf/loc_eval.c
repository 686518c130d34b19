// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The evaluator of DWARF location expressions (loc.c's entry points run
 * it; loc_eval.h).
 *
 * The expression is run on a symbolic stack: each entry is "a register, a
 * constant or a link-time address, dereferenced some times, plus an
 * offset", optionally shifted right and narrowed, which is what a fetch
 * plan can express. DW_OP_piece splits the value into parts with a
 * location each (a struct passed in two registers); a member access picks
 * its part later (bp_val__select). Anything else (arithmetic between two
 * registers, typed stack ops) is refused with the op's name.
 *
 * Here: the nested expressions of the frame base, the CFA and entry
 * values, DW_OP_piece, one op, locations with branches, a whole
 * expression. The stack is loc_stack.c's, the ops that compute are
 * loc_ops.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/loc_eval.h"
#include "probes/dwarf/types.h"
#include "prologue/arch.h"

/* fbreg -> frame base -> CFA, entry value -> its expression */
#define MAX_DEPTH	3

/* Runs a nested expression (frame base, CFA, entry value) whose result is
 * a value. */
static int push_nested(struct loc_eval *e, Dwarf_Attribute *attr, Dwarf_Op *ops,
		       size_t nops, int64_t off)
{
	struct bp_val v;
	uint64_t reg;
	int err;

	if (e->depth + 1 >= MAX_DEPTH) {
		bp_arg_fail(e->c, "location expression nests too deep");
		return -ELOOP;
	}
	/* "DW_OP_regN" here means the register's value */
	if (nops == 1 && bp_loc_op_is_reg(&ops[0], &reg))
		return bp_loc_push_reg(e, reg, off);
	err = bp_loc_eval(e->c, attr, e->depth + 1, ops, nops, &v);
	if (err)
		return err;
	if (v.npieces) {
		bp_arg_fail(e->c, "a frame base or entry value in pieces: not supported");
		return -EOPNOTSUPP;
	}
	/* a "memory location" here is an address: the value we want */
	v.lvalue = false;
	v.off += off;
	return bp_loc_push_val(e, &v);
}

int bp_loc_push_cfa(struct loc_eval *e, int64_t off)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t nops;
	int err;

	if (bp_debuginfo__cfa(e->c->dw->di, e->c->addr, &frame, &ops, &nops)) {
		bp_arg_fail(e->c, "no call frame information (CFI) at 0x%" PRIx64
			    " to find the frame address", e->c->addr);
		return -ENOENT;
	}
	err = push_nested(e, NULL, ops, nops, off);
	free(frame);
	return err;
}

static int frame_base_ops(const struct bp_arg_ctx *c, Dwarf_Attribute *attr,
			  Dwarf_Op **ops, size_t *nops)
{
	int n;

	if (!dwarf_attr_integrate(frame_func(c), DW_AT_frame_base, attr)) {
		bp_arg_fail(c, "frame-relative, but the function has no frame base");
		return -ENOENT;
	}
	n = dwarf_getlocation_addr(attr, c->addr, ops, nops, 1);
	if (n <= 0 || !*nops) {
		bp_arg_fail(c, "the function's frame base is unknown at 0x%" PRIx64,
			    c->addr);
		return -ENOENT;
	}
	return 0;
}

static int push_frame_base(struct loc_eval *e, int64_t off)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	int err;

	err = frame_base_ops(e->c, &attr, &ops, &nops);
	if (err)
		return err;
	return push_nested(e, &attr, ops, nops, off);
}

/*
 * DW_OP_entry_value(EXPR): EXPR's value when the function was entered. At
 * the entry itself that is simply EXPR's value now.
 */
static int push_entry_value(struct loc_eval *e, const Dwarf_Op *op)
{
	const struct bp_arg_ctx *c = e->c;
	Dwarf_Attribute sub;
	Dwarf_Op *ops;
	size_t nops;
	uint64_t reg;
	char what[64];
	int err;

	if (!e->attr || dwarf_getlocation_attr(e->attr, op, &sub) ||
	    dwarf_getlocation(&sub, &ops, &nops) || !nops) {
		bp_arg_fail(c, "cannot read the expression of %s", bp_loc_op_name(op->atom));
		return -EINVAL;
	}
	if (c->func_entry && c->addr == c->func_entry)
		return push_nested(e, &sub, ops, nops, 0);
	/*
	 * Later in the function: a register's value at the entry is saved
	 * there by a companion probe and found again by the frame's CFA.
	 */
	if (!c->func_entry)
		return bp_arg__unavailable(c, -ENOENT, "optimized out",
			"only its value at the function's entry is described (DW_OP_entry_value), and where that entry is is unknown");
	if (nops != 1 || !bp_loc_op_is_reg(&ops[0], &reg))
		return bp_arg__unavailable(c, -ENOENT, "optimized out",
			"only its value at the function's entry is described (DW_OP_entry_value), as memory rather than a register, which the entry probe does not save");
	if (reg < 256 && bp_arch__fp_reg((int)reg, what, sizeof(what))) {
		char why[256];

		snprintf(why, sizeof(why), "only its value at the function's entry is described (DW_OP_entry_value), in %s, which pt_regs does not hold",
			 what);
		return bp_arg__unavailable(c, -ENOENT, "optimized out", why);
	}
	if (c->kernel)
		return bp_arg__unavailable(c, -ENOENT, "optimized out",
			"only its value at the function's entry is described (DW_OP_entry_value): not supported in kernel probes");
	err = bp_loc_check_reg(c, reg);
	if (!err)
		err = bp_loc_push_cfa(e, 0);
	if (err)
		return err;
	return bp_val__entry_reg(c, &e->stack[e->sp - 1], (int)reg);
}

static int push_addrx(struct loc_eval *e, const Dwarf_Op *op)
{
	Dwarf_Attribute res;
	Dwarf_Addr addr;

	if (!e->attr || dwarf_getlocation_attr(e->attr, op, &res) ||
	    dwarf_formaddr(&res, &addr)) {
		bp_arg_fail(e->c, "cannot read the address of %s", bp_loc_op_name(op->atom));
		return -EINVAL;
	}
	return bp_loc_push_addr(e, addr);
}

static int push_implicit(struct loc_eval *e, const Dwarf_Op *op)
{
	Dwarf_Attribute res;
	Dwarf_Block block;
	struct bp_val v;
	int err;

	if (!e->attr || dwarf_getlocation_attr(e->attr, op, &res) ||
	    dwarf_formblock(&res, &block)) {
		bp_arg_fail(e->c, "cannot read the constant of %s", bp_loc_op_name(op->atom));
		return -EINVAL;
	}
	/* longer: a value of its own (a string an implicit pointer points
	 * to), its bytes in 8-byte pieces; nothing may compute with it */
	if (block.length > 8 && e->sp) {
		bp_arg_fail(e->c, "a %" PRIu64 "-byte %s: only constants up to 8 bytes are supported in an expression",
			    (uint64_t)block.length, bp_loc_op_name(op->atom));
		return -EOPNOTSUPP;
	}
	err = bp_loc_const_bytes(e->c, block.data, block.length, &v);
	if (!err)
		err = bp_loc_push_val(e, &v);
	if (!err)
		e->state = LOC_VALUE;
	return err;
}

/* --- one op ---------------------------------------------------------------- */

/* DW_OP_piece / DW_OP_bit_piece: the location so far holds the next part. */
static int piece(struct loc_eval *e, const Dwarf_Op *op)
{
	struct bp_piece *p;
	uint64_t bytes, shift = 0;

	if (op->atom == DW_OP_bit_piece) {
		/* whole bytes only: x86-64 compilers emit nothing finer */
		if (op->number % 8 || op->number2 % 8) {
			bp_arg_fail(e->c, "split into bit-sized pieces (%s %" PRIu64 " %" PRIu64 "): not supported",
				    bp_loc_op_name(op->atom), op->number, op->number2);
			return -EOPNOTSUPP;
		}
		bytes = op->number / 8;
		shift = op->number2;
	} else {
		bytes = op->number;
	}
	if (e->npieces == BP_MAX_PIECES) {
		bp_arg_fail(e->c, "location is split into more than %d pieces: not supported",
			    BP_MAX_PIECES);
		return -E2BIG;
	}
	if (e->sp > 1) {
		bp_arg_fail(e->c, "malformed location expression (%d values left before %s)",
			    e->sp, bp_loc_op_name(op->atom));
		return -EINVAL;
	}
	p = &e->pieces[e->npieces++];
	memset(p, 0, sizeof(*p));
	p->byte_off = e->piece_off;
	p->size = (uint32_t)bytes;
	e->piece_off += bytes;
	if (!e->sp) {
		p->empty = true;
	} else {
		struct bp_val *v = &e->stack[0];

		/* memory at a shifted or masked address: computed */
		if (e->state == LOC_MEM && (v->shift || v->width)) {
			int err = bp_val__flatten(e->c, v);

			if (err)
				return err;
		}
		bp_piece__from_val(p, v);
		p->lvalue = e->state == LOC_MEM;
		if (p->lvalue) {
			p->off += shift / 8;
		} else if (p->shift + shift < 64) {
			p->shift += shift;
		} else {
			bp_arg_fail(e->c, "malformed %s offset %" PRIu64, bp_loc_op_name(op->atom), shift);
			return -EINVAL;
		}
	}
	e->sp = 0;
	e->state = LOC_MEM;
	return 0;
}

/* One op. */
int bp_loc_step(struct loc_eval *e, const Dwarf_Op *op)
{
	unsigned int a = op->atom;
	struct bp_val *v = NULL;
	uint64_t reg;
	int64_t off;
	int err;

	if (a == DW_OP_piece || a == DW_OP_bit_piece)
		return piece(e, op);
	/* a register or a value is a whole location: only a piece may follow */
	if (e->state != LOC_MEM) {
		bp_arg_fail(e->c, "malformed location expression (%s after a %s location)",
			    bp_loc_op_name(a), e->state == LOC_REG ? "register" : "value");
		return -EINVAL;
	}
	if (a >= DW_OP_lit0 && a <= DW_OP_lit31)
		return bp_loc_push(e, BP_BASE_CONST, 0, a - DW_OP_lit0);
	if (bp_loc_op_is_breg(op, &reg, &off))
		return bp_loc_push_reg(e, reg, off);
	if (bp_loc_op_is_reg(op, &reg)) {
		err = bp_loc_push_reg(e, reg, 0);
		if (!err)
			e->state = LOC_REG;
		return err;
	}

	switch (a) {
	case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
	case DW_OP_const8u: case DW_OP_constu:
	case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
	case DW_OP_const8s: case DW_OP_consts:
		/* libdw sign-extends the signed forms into number */
		return bp_loc_push(e, BP_BASE_CONST, 0, (int64_t)op->number);
	case DW_OP_addr:
		return bp_loc_push_addr(e, op->number);
	case DW_OP_addrx:
	case DW_OP_GNU_addr_index:
		return push_addrx(e, op);
	case DW_OP_fbreg:
		return push_frame_base(e, (int64_t)op->number);
	case DW_OP_call_frame_cfa:
		return bp_loc_push_cfa(e, 0);
	case DW_OP_entry_value:
	case DW_OP_GNU_entry_value:
		return push_entry_value(e, op);
	case DW_OP_implicit_value:
		return push_implicit(e, op);
	case DW_OP_plus_uconst:
		err = bp_loc_top(e, a, &v);
		if (err)
			return err;
		/* after a shift or mask: computed */
		if ((v->shift || v->width) && (err = bp_val__flatten(e->c, v)))
			return err;
		v->off += (int64_t)op->number;
		return 0;
	case DW_OP_plus: case DW_OP_minus: case DW_OP_mul: case DW_OP_div:
	case DW_OP_mod: case DW_OP_and: case DW_OP_or: case DW_OP_xor:
	case DW_OP_shl: case DW_OP_shr: case DW_OP_shra:
	case DW_OP_eq: case DW_OP_ne: case DW_OP_lt: case DW_OP_le:
	case DW_OP_gt: case DW_OP_ge:
		return bp_loc_binary_op(e, a);
	case DW_OP_neg:
	case DW_OP_not:
	case DW_OP_abs:
		return bp_loc_unary_op(e, a);
	case DW_OP_rot:
	case DW_OP_pick:
		return bp_loc_rot_pick(e, op);
	case DW_OP_regval_type:
	case DW_OP_GNU_regval_type:
		return bp_loc_regval_type(e, op);
	case DW_OP_deref_type:
	case DW_OP_GNU_deref_type:
		err = bp_loc_top(e, a, &v);
		return err ?: bp_loc_deref_type(e, op);
	case DW_OP_const_type:
	case DW_OP_GNU_const_type:
		return bp_loc_const_type(e, op);
	case DW_OP_reinterpret:
	case DW_OP_GNU_reinterpret:
		/* the same bits read as another type of the same size */
		return bp_loc_top(e, a, &v);
	case DW_OP_implicit_pointer:
	case DW_OP_GNU_implicit_pointer:
		return bp_loc_implicit_pointer(e, op);
	case DW_OP_form_tls_address:
	case DW_OP_GNU_push_tls_address:
		return bp_loc_tls_address(e, op);
	case DW_OP_GNU_parameter_ref:
		return bp_loc_param_ref(e, op);
	case DW_OP_deref:
		err = bp_loc_top(e, a, &v);
		return err ? err : bp_val__deref(e->c, v);
	case DW_OP_deref_size:
		err = bp_loc_top(e, a, &v);
		if (err)
			return err;
		/* a narrower read mid-chain has no plan form: read 8, keep the low bytes */
		if (op->number == 0 || op->number > 8)
			return bp_loc_unsupported(e, op);
		err = bp_val__deref(e->c, v);
		if (!err && op->number < 8) {
			/* DWARF zero-extends it to the generic type: no type of
			 * its own (val_expr.c computes with it in 64 bits) */
			v->width = op->number * 8;
			v->wsigned = false;
			v->typed = false;
		}
		return err;
	case DW_OP_convert:
	case DW_OP_GNU_convert:
		err = bp_loc_top(e, a, &v);
		return err ? err : bp_loc_convert(e, op);
	case DW_OP_dup:
		err = bp_loc_top(e, a, &v);
		return err ? err : bp_loc_push_val(e, v);
	case DW_OP_over:
		if (e->sp < 2)
			return bp_loc_underflow(e, a);
		return bp_loc_push_val(e, &e->stack[e->sp - 2]);
	case DW_OP_swap:
		if (e->sp < 2)
			return bp_loc_underflow(e, a);
		{
			struct bp_val t = e->stack[e->sp - 1];

			e->stack[e->sp - 1] = e->stack[e->sp - 2];
			e->stack[e->sp - 2] = t;
		}
		return 0;
	case DW_OP_drop:
		if (!e->sp)
			return bp_loc_underflow(e, a);
		e->sp--;
		return 0;
	case DW_OP_nop:
		return 0;
	case DW_OP_stack_value:
		err = bp_loc_top(e, a, &v);
		if (!err)
			e->state = LOC_VALUE;
		return err;
	default:
		return bp_loc_unsupported(e, op);
	}
}

/* --- locations with branches --------------------------------------------- */

/*
 * Locations with branches (DW_OP_bra, DW_OP_skip): from the first branch
 * on, the rest of the ops are translated one by one into a fetch
 * expression, whose first ops are the symbolic stack so far; the branches
 * are pointed at their targets at the end.
 */
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
static int bp_loc_enter_xmode(struct loc_eval *e)
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
static int bp_loc_xstep(struct loc_eval *e, const Dwarf_Op *ops, size_t nops, size_t i)
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
static int bp_loc_leave_xmode(struct loc_eval *e, const Dwarf_Op *ops, size_t nops, struct bp_val *out)
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

/* --- the whole expression ------------------------------------------------- */

static int eval_ops(struct loc_eval *e, Dwarf_Op *ops, size_t nops, struct bp_val *out)
{
	const struct bp_arg_ctx *c = e->c;
	size_t i;
	int err;

	for (i = 0; i < nops; i++) {
		if (!e->xmode && (ops[i].atom == DW_OP_bra || ops[i].atom == DW_OP_skip)) {
			err = bp_loc_enter_xmode(e);
			if (err)
				return err;
		}
		err = e->xmode ? bp_loc_xstep(e, ops, nops, i) : bp_loc_step(e, &ops[i]);
		if (err)
			return err;
	}
	if (e->xmode)
		return bp_loc_leave_xmode(e, ops, nops, out);
	memset(out, 0, sizeof(*out));
	if (e->npieces) {
		if (e->sp) {
			bp_arg_fail(c, "malformed location expression (ops after the last DW_OP_piece)");
			return -EINVAL;
		}
		memcpy(out->pieces, e->pieces, e->npieces * sizeof(e->pieces[0]));
		out->npieces = e->npieces;
		return 0;
	}
	if (!e->sp) {
		bp_arg_fail(c, "empty location expression");
		return -EINVAL;
	}
	*out = e->stack[e->sp - 1];
	out->lvalue = e->state == LOC_MEM;
	/* memory at a shifted or masked address: computed */
	if (out->lvalue && (out->shift || out->width))
		return bp_val__flatten(c, out);
	return 0;
}

/* Evaluates ops; the result is an lvalue (memory location) unless the
 * expression names a register or ends in DW_OP_stack_value, or is split
 * into pieces (out->npieces). The evaluation's state is large (values
 * that may hold expressions): it lives on the heap. */
int bp_loc_eval(const struct bp_arg_ctx *c, Dwarf_Attribute *attr, int depth,
		Dwarf_Op *ops, size_t nops, struct bp_val *out)
{
	struct loc_eval *e = bp_loc_new_eval();
	int err;

	if (!e)
		return -ENOMEM;
	e->c = c;
	e->attr = attr;
	e->depth = depth;
	err = eval_ops(e, ops, nops, out);
	free(e);
	return err;
}

/* --- what other parts ask of the evaluator -------------------------------- */

/* DW_OP_GNU_parameter_ref: what the callers pass (callsite.c) */
int bp_loc_param_ref(struct loc_eval *e, const Dwarf_Op *op)
{
	Dwarf_Die param;
	struct bp_val v;
	int err;

	if (!e->attr || dwarf_getlocation_die(e->attr, op, &param)) {
		bp_arg_fail(e->c, "cannot read the parameter of %s", bp_loc_op_name(op->atom));
		return -EINVAL;
	}
	err = bp_val__param_ref(e->c, &param, bp_loc__cfa_expr, &v);
	return err ?: bp_loc_push_val(e, &v);
}

int bp_loc__cfa_expr(const struct bp_arg_ctx *c, struct bp_expr *x)
{
	struct loc_eval *e = bp_loc_new_eval();
	int err;

	if (!e)
		return -ENOMEM;
	e->c = c;
	err = bp_loc_push_cfa(e, 0);
	if (!err)
		err = bp_val__flatten(c, &e->stack[0]);
	if (!err && !bp_expr__append(x, &e->stack[0].f.expr)) {
		bp_arg_fail(c, "its location needs a fetch expression of more than %d operations: not supported",
			    BP_EXPR_MAX_OPS);
		err = -E2BIG;
	}
	free(e);
	return err;
}
