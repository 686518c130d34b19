// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The ops of the location evaluator (loc_eval.h) that compute: typed ops
 * (DW_OP_convert and friends), unary and binary arithmetic, DW_OP_rot and
 * DW_OP_pick, and the ops that name more DWARF (an implicit pointer, a
 * thread-local's address, a parameter's value at the call sites). What
 * the plain plan form holds is folded into the value; the rest becomes a
 * fetch expression (val_expr.c).
 */
#include <errno.h>
#include <stdint.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/loc_eval.h"

static bool is_const(const struct bp_val *v)
{
	return v->f.base == BP_BASE_CONST && !v->f.nderef && !v->shift && !v->width;
}

/* The base type a typed op names (DW_OP_convert and friends). */
static int op_type(struct loc_eval *e, const Dwarf_Op *op, Dwarf_Die *type)
{
	if (!e->attr || dwarf_getlocation_die(e->attr, op, type)) {
		bp_arg_fail(e->c, "cannot read the type of %s", bp_loc_op_name(op->atom));
		return -EINVAL;
	}
	return 0;
}

/*
 * Arithmetic in floating point: BPF has no floating-point instructions.
 * Recorded as such (the coverage counts it with the values in xmm
 * registers: what no BPF program can compute).
 */
static int float_arith(struct loc_eval *e, const char *what)
{
	bool first = e->c->diag && !e->c->diag->failed;

	bp_arg_fail(e->c, "its location computes in floating point (%s), which BPF has no instructions for",
		    what);
	if (first)
		e->c->diag->fp_register = true;
	return -EOPNOTSUPP;
}

/*
 * v, now of base type 'type': narrowing keeps the low bits only. A typed
 * read or constant (converts false) takes the bits as they are; a
 * DW_OP_convert between integers and floating point changes them.
 */
static int apply_type(struct loc_eval *e, struct bp_val *v, Dwarf_Die *type, bool converts)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	int size;

	size = dwarf_bytesize(type);
	if (dwarf_attr_integrate(type, DW_AT_encoding, &attr) &&
	    !dwarf_formudata(&attr, &enc) &&
	    (enc == DW_ATE_float || enc == DW_ATE_complex_float)) {
		if (converts && !v->fp)
			return float_arith(e, "a conversion to floating point");
		v->fp = true;
		return 0;
	}
	if (converts && v->fp)
		return float_arith(e, "a conversion from floating point");
	v->fp = false;
	if (size <= 0 || size >= 8)
		return 0;
	if (!v->width || v->width > size * 8) {
		v->width = size * 8;
		v->wsigned = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	}
	/* arithmetic wraps in the type from now on */
	v->typed = true;
	return 0;
}

/* DW_OP_convert to a base type (0: the generic type, no change). */
int bp_loc_convert(struct loc_eval *e, const Dwarf_Op *op)
{
	Dwarf_Die type;

	if (!op->number)
		return 0;
	return op_type(e, op, &type) ?: apply_type(e, &e->stack[e->sp - 1], &type, true);
}

/* DW_OP_regval_type: a register's value, of a base type */
int bp_loc_regval_type(struct loc_eval *e, const Dwarf_Op *op)
{
	Dwarf_Die type;
	int err;

	err = op_type(e, op, &type) ?: bp_loc_push_reg(e, op->number, 0);
	return err ?: apply_type(e, &e->stack[e->sp - 1], &type, false);
}

/* DW_OP_deref_type: a read of a base type */
int bp_loc_deref_type(struct loc_eval *e, const Dwarf_Op *op)
{
	struct bp_val *v = &e->stack[e->sp - 1];
	Dwarf_Die type;
	int err;

	if (op->number == 0 || op->number > 8)
		return bp_loc_unsupported(e, op);
	err = op_type(e, op, &type) ?: bp_val__deref(e->c, v);
	if (err)
		return err;
	if (op->number < 8) {
		v->width = op->number * 8;
		v->wsigned = false;
	}
	return apply_type(e, v, &type, false);
}

/* DW_OP_const_type: a constant of a base type, its bytes in a block */
int bp_loc_const_type(struct loc_eval *e, const Dwarf_Op *op)
{
	Dwarf_Attribute res;
	Dwarf_Block block;
	struct bp_val v;
	Dwarf_Die type;
	int err;

	if (!e->attr || dwarf_getlocation_attr(e->attr, op, &res) ||
	    dwarf_formblock(&res, &block) || block.length > 8) {
		bp_arg_fail(e->c, "cannot read the constant of %s", bp_loc_op_name(op->atom));
		return -EINVAL;
	}
	err = op_type(e, op, &type) ?: bp_loc_const_bytes(e->c, block.data, block.length, &v);
	err = err ?: bp_loc_push_val(e, &v);
	return err ?: apply_type(e, &e->stack[e->sp - 1], &type, false);
}

/* DW_OP_neg, DW_OP_not, DW_OP_abs */
int bp_loc_unary_op(struct loc_eval *e, unsigned int op)
{
	struct bp_val *v = NULL;
	int64_t x;
	int err;

	err = bp_loc_top(e, op, &v);
	if (err)
		return err;
	if (v->fp)
		return float_arith(e, bp_loc_op_name(op));
	if (is_const(v)) {
		x = v->f.add + v->off;
		v->f.add = op == DW_OP_neg ? (int64_t)-(uint64_t)x : op == DW_OP_not ? ~x :
			   x < 0 ? (int64_t)-(uint64_t)x : x;
		v->off = 0;
		return 0;
	}
	return bp_val__unary(e->c, v, op == DW_OP_neg ? BP_XOP_NEG :
			     op == DW_OP_not ? BP_XOP_NOT : BP_XOP_ABS, 0);
}

/* DW_OP_implicit_pointer: a pointer to (part of) another variable */
int bp_loc_implicit_pointer(struct loc_eval *e, const Dwarf_Op *op)
{
	struct bp_val v = {};
	Dwarf_Die die;

	if (!e->attr || dwarf_getlocation_die(e->attr, op, &die)) {
		bp_arg_fail(e->c, "cannot read the target of %s", bp_loc_op_name(op->atom));
		return -EINVAL;
	}
	bp_implicit__set_die(&v.implicit, &die);
	v.implicit.set = true;
	v.implicit.off = (int64_t)op->number2;
	e->state = LOC_VALUE;
	return bp_loc_push_val(e, &v);
}

/* DW_OP_form_tls_address: the offset on the stack, in this module's TLS
 * block, becomes the address for the current thread */
int bp_loc_tls_address(struct loc_eval *e, const Dwarf_Op *op)
{
	struct bp_val *v = NULL;
	int err = bp_loc_top(e, op->atom, &v);

	return err ?: bp_val__tls(e->c, v);
}

/* DW_OP_rot: x y z -> z x y; DW_OP_pick N: a copy of entry N below the top */
int bp_loc_rot_pick(struct loc_eval *e, const Dwarf_Op *op)
{
	struct bp_val t;

	if (op->atom == DW_OP_pick) {
		if (op->number >= (uint64_t)e->sp)
			return bp_loc_underflow(e, op->atom);
		t = e->stack[e->sp - 1 - op->number];
		return bp_loc_push_val(e, &t);
	}
	if (e->sp < 3)
		return bp_loc_underflow(e, op->atom);
	t = e->stack[e->sp - 1];
	e->stack[e->sp - 1] = e->stack[e->sp - 2];
	e->stack[e->sp - 2] = e->stack[e->sp - 3];
	e->stack[e->sp - 3] = t;
	return 0;
}

/*
 * The shift and mask ops the plain plan form applies at the end: x >> K,
 * x & (2^K-1). False when this one is not such (the caller computes it
 * with an expression).
 */
static bool shift_mask(struct bp_val *a, unsigned int op, uint64_t k)
{
	int bits;

	if (a->off && a->f.nderef)
		return false;	/* an addition after a read: not in the form */
	if (op == DW_OP_shr) {
		if (k >= 64 || a->shift + k >= 64 || (a->width && k >= a->width))
			return false;
		a->f.add += a->off;
		a->off = 0;
		a->shift += k;
		/* a logical shift: what is left is 64 - k bits, zero-extended */
		if (a->width) {
			a->width -= k;
		} else {
			a->width = 64 - a->shift;
			a->wsigned = false;
		}
		return true;
	}
	/* DW_OP_and with a low-bits mask */
	if (k == UINT64_MAX)
		return true;
	if (!k || (k & (k + 1)))
		return false;
	a->f.add += a->off;
	a->off = 0;
	bits = __builtin_popcountll(k);
	if (!a->width || a->width > bits) {
		a->width = bits;
		a->wsigned = false;	/* the bits above the mask are 0 */
	}
	return true;
}

/* The expression op of a DWARF binary op, and its signedness: DWARF's
 * generic type divides and compares signed, takes remainders unsigned;
 * a typed value (DW_OP_convert) goes by its type. */
int bp_loc_xop_of(unsigned int op, const struct bp_val *a, const struct bp_val *b,
		  uint8_t *flags)
{
	bool typed_unsigned = (a->typed && a->width && !a->wsigned) ||
			      (b->typed && b->width && !b->wsigned);
	bool typed_signed = (a->typed && a->width && a->wsigned) ||
			    (b->typed && b->width && b->wsigned);

	*flags = 0;
	switch (op) {
	case DW_OP_plus: return BP_XOP_ADD;
	case DW_OP_minus: return BP_XOP_SUB;
	case DW_OP_mul: return BP_XOP_MUL;
	case DW_OP_and: return BP_XOP_AND;
	case DW_OP_or: return BP_XOP_OR;
	case DW_OP_xor: return BP_XOP_XOR;
	case DW_OP_shl: return BP_XOP_SHL;
	case DW_OP_shr: return BP_XOP_SHR;
	case DW_OP_shra: return BP_XOP_SHRA;
	case DW_OP_mod:
		*flags = typed_signed ? BP_XF_SIGNED : 0;
		return BP_XOP_MOD;
	case DW_OP_div:
		*flags = typed_unsigned ? 0 : BP_XF_SIGNED;
		return BP_XOP_DIV;
	case DW_OP_eq: return BP_XOP_EQ;
	case DW_OP_ne: return BP_XOP_NE;
	case DW_OP_lt: *flags = typed_unsigned ? 0 : BP_XF_SIGNED; return BP_XOP_LT;
	case DW_OP_le: *flags = typed_unsigned ? 0 : BP_XF_SIGNED; return BP_XOP_LE;
	case DW_OP_gt: *flags = typed_unsigned ? 0 : BP_XF_SIGNED; return BP_XOP_GT;
	case DW_OP_ge: *flags = typed_unsigned ? 0 : BP_XF_SIGNED; return BP_XOP_GE;
	default: return BP_XOP_NONE;
	}
}

/* Two constants: computed now, as the prologue would. */
static bool fold(unsigned int op, int64_t x, int64_t y, int64_t *r)
{
	uint64_t ux = (uint64_t)x, uy = (uint64_t)y;

	switch (op) {
	case DW_OP_plus: *r = (int64_t)(ux + uy); return true;
	case DW_OP_minus: *r = (int64_t)(ux - uy); return true;
	case DW_OP_mul: *r = (int64_t)(ux * uy); return true;
	case DW_OP_and: *r = x & y; return true;
	case DW_OP_or: *r = x | y; return true;
	case DW_OP_xor: *r = x ^ y; return true;
	case DW_OP_shl: *r = uy > 63 ? 0 : (int64_t)(ux << uy); return true;
	case DW_OP_shr: *r = uy > 63 ? 0 : (int64_t)(ux >> uy); return true;
	case DW_OP_eq: *r = x == y; return true;
	case DW_OP_ne: *r = x != y; return true;
	case DW_OP_lt: *r = x < y; return true;
	case DW_OP_le: *r = x <= y; return true;
	case DW_OP_gt: *r = x > y; return true;
	case DW_OP_ge: *r = x >= y; return true;
	default: return false;	/* division and the rest: at run time */
	}
}

int bp_loc_binary_op(struct loc_eval *e, unsigned int op)
{
	struct bp_val *a, *b;
	uint8_t flags;
	int64_t r;
	int xop, err;

	if (e->sp < 2)
		return bp_loc_underflow(e, op);
	a = &e->stack[e->sp - 2];
	b = &e->stack[e->sp - 1];
	if (a->fp || b->fp)
		return float_arith(e, bp_loc_op_name(op));
	if (is_const(a) && is_const(b) && fold(op, a->f.add + a->off, b->f.add + b->off, &r)) {
		a->f.add = r;
		a->off = 0;
		e->sp--;
		return 0;
	}
	if ((op == DW_OP_plus || op == DW_OP_and) && is_const(a) && !is_const(b)) {
		struct bp_val t = *a;

		*a = *b;
		*b = t;
	}
	/* what the plain form holds: an offset, a final shift or mask */
	if (is_const(b) && !a->implicit.set && !a->npieces) {
		if ((op == DW_OP_plus || op == DW_OP_minus) && !a->shift && !a->width) {
			a->off = op == DW_OP_plus ? a->off + (b->f.add + b->off)
						  : a->off - (b->f.add + b->off);
			e->sp--;
			return 0;
		}
		if ((op == DW_OP_shr || op == DW_OP_and) &&
		    shift_mask(a, op, (uint64_t)(b->f.add + b->off))) {
			e->sp--;
			return 0;
		}
	}
	xop = bp_loc_xop_of(op, a, b, &flags);
	if (!xop)
		return bp_loc_unsupported(e, &(Dwarf_Op){ .atom = op });
	err = bp_val__binary(e->c, a, b, xop, flags);
	if (err)
		return err;
	e->sp--;
	return 0;
}
