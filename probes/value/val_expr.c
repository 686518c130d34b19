// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Values only a fetch expression computes (prologue/expr.h): the symbolic
 * value the location evaluator (probes/dwarf/loc_eval.c) builds (a base,
 * reads, an offset, a shift and a width) turned into ops, so arithmetic
 * between run-time values, reads at computed addresses, thread-locals
 * (probes/dwarf/tls.c) and entry values away from the entry become
 * fetchable. The common shapes never come here: their plans stay what the
 * prologue compiles best.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "probes/value/value.h"

static int too_long(const struct bp_arg_ctx *c)
{
	bp_arg_fail(c, "its location needs a fetch expression of more than %d operations: not supported",
		    BP_EXPR_MAX_OPS);
	return -E2BIG;
}

int bp_val__push_op(const struct bp_arg_ctx *c, struct bp_expr *x, int op, uint8_t reg,
		    uint8_t size, uint8_t flags, int64_t imm)
{
	return bp_expr__push(x, op, reg, size, flags, imm) ? 0 : too_long(c);
}

static int push(const struct bp_arg_ctx *c, struct bp_expr *x, int op, uint8_t reg,
		uint8_t size, uint8_t flags, int64_t imm)
{
	return bp_val__push_op(c, x, op, reg, size, flags, imm);
}

/* x's top keeps its low width bits, extended by wsigned */
static int push_width(const struct bp_arg_ctx *c, struct bp_expr *x, int width, bool wsigned)
{
	int err;

	if (!width || width >= 64)
		return 0;
	if (!wsigned && width < 32)
		return push(c, x, BP_XOP_AND, 0, 0, BP_XF_IMM, (int64_t)((1ULL << width) - 1));
	if (width % 8 == 0)
		return push(c, x, BP_XOP_EXT, 0, width / 8, wsigned ? BP_XF_SIGNED : 0, 0);
	err = push(c, x, BP_XOP_SHL, 0, 0, BP_XF_IMM, 64 - width);
	return err ?: push(c, x, wsigned ? BP_XOP_SHRA : BP_XOP_SHR, 0, 0, BP_XF_IMM, 64 - width);
}

/* The base of f as ops. */
static int push_base(const struct bp_arg_ctx *c, struct bp_expr *x, const struct bp_fetch *f)
{
	switch (f->base) {
	case BP_BASE_EXPR:
		if (!bp_expr__append(x, &f->expr))
			return too_long(c);
		break;
	case BP_BASE_REG:
		return push(c, x, BP_XOP_REG, f->reg, 0, 0, f->add);
	case BP_BASE_CONST:
		return push(c, x, BP_XOP_CONST, 0, 0, 0, f->add);
	case BP_BASE_ADDR:
		return push(c, x, BP_XOP_ADDR, 0, 0, 0, f->add);
	default:
		bp_arg_fail(c, "a value without a base cannot be computed");
		return -EINVAL;
	}
	return f->add ? push(c, x, BP_XOP_PLUS_CONST, 0, 0, 0, f->add) : 0;
}

int bp_val__flatten(const struct bp_arg_ctx *c, struct bp_val *v)
{
	struct bp_fetch *f = &v->f;
	struct bp_expr x = {};
	int k, err;

	if (v->npieces) {
		bp_arg_fail(c, "a value split into pieces cannot be computed with as a whole");
		return -EOPNOTSUPP;
	}
	if (v->implicit.set) {
		bp_arg_fail(c, "a pointer that exists only in the debug info (DW_OP_implicit_pointer) has no value to compute with");
		return -EOPNOTSUPP;
	}
	if (f->base == BP_BASE_EXPR && !f->nderef && !v->off && !v->shift && !v->width && !f->add)
		return 0;
	/* a register or constant plus an offset: one op */
	if (!f->nderef && (f->base == BP_BASE_REG || f->base == BP_BASE_CONST)) {
		f->add += v->off;
		v->off = 0;
	}
	err = push_base(c, &x, f);
	for (k = 0; k < f->nderef && !err; k++)
		err = push(c, &x, BP_XOP_DEREF, 0, 8, f->user_mask & (1U << k) ? BP_XF_USER : 0,
			   f->deref_off[k]);
	if (!err && v->off)
		err = push(c, &x, BP_XOP_PLUS_CONST, 0, 0, 0, v->off);
	if (!err && v->shift)
		err = push(c, &x, BP_XOP_SHR, 0, 0, BP_XF_IMM, v->shift);
	if (!err)
		err = push_width(c, &x, v->width, v->wsigned);
	if (err)
		return err;
	f->base = BP_BASE_EXPR;
	f->expr = x;
	f->reg = 0;
	f->add = 0;
	f->nderef = 0;
	f->user_mask = 0;
	memset(f->deref_off, 0, sizeof(f->deref_off));
	/* the load bias of BP_XOP_ADDR comes from the probe address */
	f->anchor = c->addr;
	f->anchor_kind = c->at_return ? BP_ANCHOR_FUNC_IP : BP_ANCHOR_IP;
	v->off = 0;
	v->shift = 0;
	v->width = 0;
	v->wsigned = false;
	v->typed = false;
	return 0;
}

/* A constant, as the immediate operand of a binary op. */
static bool const_operand(const struct bp_val *b, int64_t *v)
{
	if (b->f.base != BP_BASE_CONST || b->f.nderef || b->shift || b->width ||
	    b->npieces || b->implicit.set)
		return false;
	*v = b->f.add + b->off;
	return true;
}

int bp_val__binary(const struct bp_arg_ctx *c, struct bp_val *a, struct bp_val *b,
		   int op, uint8_t flags)
{
	/* a width that is no type (a narrower read, a mask) does not make the
	 * generic type's 64-bit arithmetic wrap */
	uint8_t aw = a->typed ? a->width : 0, bw = b->typed ? b->width : 0;
	uint8_t width = aw > bw ? aw : bw;
	bool wsigned = aw >= bw ? a->wsigned : b->wsigned;
	int64_t imm;
	int err;

	/* a narrower typed value is extended by its own type first */
	if (aw && bw && aw != bw)
		width = 0;
	err = bp_val__flatten(c, a);
	if (err)
		return err;
	if (const_operand(b, &imm)) {
		err = push(c, &a->f.expr, op, 0, 0, flags | BP_XF_IMM, imm);
	} else {
		err = bp_val__flatten(c, b);
		if (err)
			return err;
		if (!bp_expr__append(&a->f.expr, &b->f.expr))
			return too_long(c);
		err = push(c, &a->f.expr, op, 0, 0, flags, 0);
	}
	if (err)
		return err;
	a->lvalue = false;
	/* arithmetic in a narrower type wraps in it */
	a->width = op >= BP_XOP_EQ && op <= BP_XOP_GE ? 0 : width;
	a->wsigned = a->width && wsigned;
	a->typed = a->width != 0;
	return 0;
}

int bp_val__unary(const struct bp_arg_ctx *c, struct bp_val *v, int op, int64_t imm)
{
	/* in a type, the result wraps in it; the generic type has 64 bits */
	uint8_t width = v->typed ? v->width : 0;
	bool wsigned = width && v->wsigned;
	int err = bp_val__flatten(c, v);

	if (!err)
		err = push(c, &v->f.expr, op, 0, 0, 0, imm);
	if (err)
		return err;
	v->width = width;
	v->wsigned = wsigned;
	v->typed = width != 0;
	return 0;
}

int bp_val__entry_reg(const struct bp_arg_ctx *c, struct bp_val *v, int reg)
{
	int err = bp_val__flatten(c, v);

	if (err)
		return err;
	err = push(c, &v->f.expr, BP_XOP_ENTRY_REG, (uint8_t)reg, 0, 0, (int64_t)c->func_entry);
	v->lvalue = false;
	return err;
}
