// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * DWARF location expressions -> a value being built (struct bp_val).
 *
 * The expression is run on a symbolic stack: each entry is "a register or
 * a constant, dereferenced some times, plus an offset", which is exactly
 * what a fetch plan can express. Anything else (pieces, entry values,
 * arithmetic between two registers) is refused with the op's name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf_resolve.h"
#include "probes/dwarf_types.h"
#include "util/log.h"

#define STACK_MAX	8
/* fbreg -> frame base -> CFA: expressions nest two levels deep */
#define MAX_DEPTH	3

/* DWARF x86-64 numbers of the registers pt_regs does not hold */
#define DWARF_REG_XMM0	17
#define DWARF_REG_MM7	48

struct loc_eval {
	const struct bp_arg_ctx *c;
	int depth;
	struct bp_val stack[STACK_MAX];
	int sp;
};

int bp_val__deref(const struct bp_arg_ctx *c, struct bp_val *v)
{
	struct bp_fetch *f = &v->f;

	if (f->nderef >= BP_MAX_DEREFS) {
		bp_arg_err(c, "needs more than %d memory reads", BP_MAX_DEREFS);
		return -E2BIG;
	}
	if (v->off < INT32_MIN || v->off > INT32_MAX) {
		bp_arg_err(c, "offset %" PRId64 " is out of range", v->off);
		return -ERANGE;
	}
	f->deref_off[f->nderef] = (int32_t)v->off;
	if (c->user)
		f->user_mask |= 1U << f->nderef;
	f->nderef++;
	v->off = 0;
	v->lvalue = false;
	return 0;
}

static const char *op_name(unsigned int op)
{
	static __thread char buf[32];

	return bp_dw_op_name(op, buf, sizeof(buf));
}

static int check_reg(const struct bp_arg_ctx *c, uint64_t reg)
{
	if (reg < BP_REG_MAX && bp_reg__pt_regs_off(reg) >= 0)
		return 0;
	if (reg >= DWARF_REG_XMM0 && reg <= DWARF_REG_MM7)
		bp_arg_err(c, "in a floating-point/vector register (DWARF %" PRIu64 "): floating-point registers are not readable from a probe",
			   reg);
	else
		bp_arg_err(c, "in DWARF register %" PRIu64 ", which is not readable from a probe",
			   reg);
	return -EOPNOTSUPP;
}

static int push_val(struct loc_eval *e, const struct bp_val *v)
{
	if (e->sp >= STACK_MAX) {
		bp_arg_err(e->c, "location expression is too deep");
		return -E2BIG;
	}
	e->stack[e->sp++] = *v;
	return 0;
}

static int push(struct loc_eval *e, enum bp_base_kind base, uint8_t reg, int64_t off)
{
	struct bp_val v = { .f = { .base = base, .reg = reg }, .off = off };

	return push_val(e, &v);
}

static int push_reg(struct loc_eval *e, uint64_t reg, int64_t off)
{
	int err = check_reg(e->c, reg);

	return err ? err : push(e, BP_BASE_REG, (uint8_t)reg, off);
}

static bool is_const(const struct bp_val *v)
{
	return v->f.base == BP_BASE_CONST && !v->f.nderef;
}

static int underflow(struct loc_eval *e, unsigned int op)
{
	bp_arg_err(e->c, "malformed location expression (%s on an empty stack)",
		   op_name(op));
	return -EINVAL;
}

static bool op_is_reg(const Dwarf_Op *op, uint64_t *reg)
{
	if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31)
		*reg = op->atom - DW_OP_reg0;
	else if (op->atom == DW_OP_regx)
		*reg = op->number;
	else
		return false;
	return true;
}

static bool op_is_breg(const Dwarf_Op *op, uint64_t *reg, int64_t *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*off = (int64_t)op->number;
	} else if (op->atom == DW_OP_bregx) {
		*reg = op->number;
		*off = (int64_t)op->number2;
	} else {
		return false;
	}
	return true;
}

static int eval(const struct bp_arg_ctx *c, int depth, Dwarf_Op *ops, size_t nops,
		struct bp_val *out);

/* Runs a nested expression (frame base, CFA) whose result is a value. */
static int push_nested(struct loc_eval *e, Dwarf_Op *ops, size_t nops, int64_t off)
{
	struct bp_val v;
	uint64_t reg;
	int err;

	if (e->depth + 1 >= MAX_DEPTH) {
		bp_arg_err(e->c, "frame base expression nests too deep");
		return -ELOOP;
	}
	/* "DW_OP_regN" as a frame base means the register's value */
	if (nops == 1 && op_is_reg(&ops[0], &reg))
		return push_reg(e, reg, off);
	err = eval(e->c, e->depth + 1, ops, nops, &v);
	if (err)
		return err;
	/* a "memory location" here is an address: the value we want */
	v.lvalue = false;
	v.off += off;
	return push_val(e, &v);
}

static int push_cfa(struct loc_eval *e, int64_t off)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t nops;
	int err;

	if (bp_debuginfo__cfa(e->c->di, e->c->addr, &frame, &ops, &nops)) {
		bp_arg_err(e->c, "no call frame information (CFI) at 0x%" PRIx64
			   " to find the frame address", e->c->addr);
		return -ENOENT;
	}
	err = push_nested(e, ops, nops, off);
	free(frame);
	return err;
}

static int frame_base_ops(const struct bp_arg_ctx *c, Dwarf_Attribute *attr,
			  Dwarf_Op **ops, size_t *nops)
{
	int n;

	if (!dwarf_attr_integrate(c->func, DW_AT_frame_base, attr)) {
		bp_arg_err(c, "frame-relative, but the function has no frame base");
		return -ENOENT;
	}
	n = dwarf_getlocation_addr(attr, c->addr, ops, nops, 1);
	if (n <= 0 || !*nops) {
		bp_arg_err(c, "the function's frame base is unknown at 0x%" PRIx64,
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
	return push_nested(e, ops, nops, off);
}

static int binary_op(struct loc_eval *e, unsigned int op)
{
	struct bp_val *a, *b;

	if (e->sp < 2)
		return underflow(e, op);
	a = &e->stack[e->sp - 2];
	b = &e->stack[e->sp - 1];
	if (op == DW_OP_plus && is_const(a) && !is_const(b)) {
		struct bp_val t = *a;

		*a = *b;
		*b = t;
	}
	if (!is_const(b)) {
		bp_arg_err(e->c, "location needs %s of two run-time values: not supported",
			   op_name(op));
		return -EOPNOTSUPP;
	}
	a->off = op == DW_OP_plus ? a->off + b->off : a->off - b->off;
	e->sp--;
	return 0;
}

static int unsupported(struct loc_eval *e, const Dwarf_Op *op)
{
	switch (op->atom) {
	case DW_OP_piece:
	case DW_OP_bit_piece:
		bp_arg_err(e->c, "split into pieces (%s): not supported",
			   op_name(op->atom));
		break;
	case DW_OP_addr:
	case DW_OP_addrx:
	case DW_OP_GNU_addr_index:
		bp_arg_err(e->c, "at a fixed address (%s, a global): not supported yet",
			   op_name(op->atom));
		break;
	case DW_OP_form_tls_address:
	case DW_OP_GNU_push_tls_address:
		bp_arg_err(e->c, "thread-local (%s): not supported",
			   op_name(op->atom));
		break;
	default:
		bp_arg_err(e->c, "location uses %s: not supported",
			   op_name(op->atom));
		break;
	}
	return -EOPNOTSUPP;
}

/* One op. *done is set by ops that must end the expression. */
static int step(struct loc_eval *e, const Dwarf_Op *op, bool last, struct bp_val *out,
		bool *done)
{
	unsigned int a = op->atom;
	uint64_t reg;
	int64_t off;

	if (a >= DW_OP_lit0 && a <= DW_OP_lit31)
		return push(e, BP_BASE_CONST, 0, a - DW_OP_lit0);
	if (op_is_breg(op, &reg, &off))
		return push_reg(e, reg, off);
	if (op_is_reg(op, &reg)) {
		int err;

		/* a register location is the whole expression */
		if (!last || e->sp)
			return unsupported(e, op);
		err = push_reg(e, reg, 0);
		if (err)
			return err;
		*out = e->stack[--e->sp];
		*done = true;
		return 0;
	}

	switch (a) {
	case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
	case DW_OP_const8u: case DW_OP_constu:
	case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
	case DW_OP_const8s: case DW_OP_consts:
		/* libdw sign-extends the signed forms into number */
		return push(e, BP_BASE_CONST, 0, (int64_t)op->number);
	case DW_OP_fbreg:
		return push_frame_base(e, (int64_t)op->number);
	case DW_OP_call_frame_cfa:
		return push_cfa(e, 0);
	case DW_OP_plus_uconst:
		if (!e->sp)
			return underflow(e, a);
		e->stack[e->sp - 1].off += (int64_t)op->number;
		return 0;
	case DW_OP_plus:
	case DW_OP_minus:
		return binary_op(e, a);
	case DW_OP_deref:
		if (!e->sp)
			return underflow(e, a);
		return bp_val__deref(e->c, &e->stack[e->sp - 1]);
	case DW_OP_deref_size:
		if (!e->sp)
			return underflow(e, a);
		/* a narrower read mid-chain has no plan form */
		if (op->number != 8)
			return unsupported(e, op);
		return bp_val__deref(e->c, &e->stack[e->sp - 1]);
	case DW_OP_dup:
		if (!e->sp)
			return underflow(e, a);
		return push_val(e, &e->stack[e->sp - 1]);
	case DW_OP_drop:
		if (!e->sp)
			return underflow(e, a);
		e->sp--;
		return 0;
	case DW_OP_nop:
		return 0;
	case DW_OP_stack_value:
		if (!e->sp)
			return underflow(e, a);
		if (!last)
			return unsupported(e, op);
		*out = e->stack[--e->sp];
		out->lvalue = false;
		*done = true;
		return 0;
	case DW_OP_entry_value:
	case DW_OP_GNU_entry_value:
		/* callers turn this into "optimized out" before we get here */
	default:
		return unsupported(e, op);
	}
}

/* Evaluates ops; the result is an lvalue (memory location) unless the
 * expression names a register or ends in DW_OP_stack_value. */
static int eval(const struct bp_arg_ctx *c, int depth, Dwarf_Op *ops, size_t nops,
		struct bp_val *out)
{
	struct loc_eval e = { .c = c, .depth = depth };
	bool done = false;
	size_t i;
	int err;

	/* said first: a piece is why a register op is not the last one */
	for (i = 0; i < nops; i++) {
		if (ops[i].atom == DW_OP_piece || ops[i].atom == DW_OP_bit_piece)
			return unsupported(&e, &ops[i]);
	}
	for (i = 0; i < nops && !done; i++) {
		err = step(&e, &ops[i], i + 1 == nops, out, &done);
		if (err)
			return err;
	}
	if (done)
		return 0;
	if (!e.sp) {
		bp_arg_err(c, "empty location expression");
		return -EINVAL;
	}
	*out = e.stack[e.sp - 1];
	out->lvalue = true;
	return 0;
}

static bool is_entry_value(const Dwarf_Op *ops, size_t nops)
{
	size_t i;

	for (i = 0; i < nops; i++) {
		if (ops[i].atom == DW_OP_entry_value || ops[i].atom == DW_OP_GNU_entry_value)
			return true;
	}
	return false;
}

/* ", available at 0xA-0xB": where a location list does give a location */
static void available_ranges(Dwarf_Attribute *attr, char *buf, size_t len)
{
	Dwarf_Addr base, start, end;
	Dwarf_Op *ops;
	size_t nops, pos = 0;
	ptrdiff_t off = 0;
	int n = 0;

	buf[0] = '\0';
	while ((off = dwarf_getlocations(attr, off, &base, &start, &end, &ops, &nops)) > 0) {
		if (!nops || is_entry_value(ops, nops))
			continue;
		if (n == 3) {
			pos += snprintf(buf + pos, len - pos, ", ...");
			break;
		}
		pos += snprintf(buf + pos, len - pos, "%s0x%" PRIx64 "-0x%" PRIx64,
				n ? ", " : "; available at ", start, end);
		if (pos >= len)
			break;
		n++;
	}
}

static int optimized_out(const struct bp_arg_ctx *c, Dwarf_Attribute *attr,
			 const char *why)
{
	char avail[160] = "";

	if (attr)
		available_ranges(attr, avail, sizeof(avail));
	bp_arg_err(c, "optimized out at 0x%" PRIx64 "%s%s", c->addr, why, avail);
	return -ENOENT;
}

/* "rbp", or "dwarf99" */
static const char *reg_name(uint64_t reg, char *buf, size_t len)
{
	const char *name = reg < BP_REG_MAX ? bp_reg__name(reg) : NULL;

	if (name)
		return name;
	snprintf(buf, len, "dwarf%" PRIu64, reg);
	return buf;
}

/* The frame base as text: "CFA", "rbp", "rsp+8". */
static void frame_base_desc(const struct bp_arg_ctx *c, char *buf, size_t len)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	uint64_t reg;
	int64_t off;
	char rb[16];

	if (dwarf_attr_integrate(c->func, DW_AT_frame_base, &attr) &&
	    dwarf_getlocation_addr(&attr, c->addr, &ops, &nops, 1) > 0 && nops == 1) {
		if (ops[0].atom == DW_OP_call_frame_cfa) {
			snprintf(buf, len, "CFA");
			return;
		}
		if (op_is_reg(&ops[0], &reg)) {
			snprintf(buf, len, "%s", reg_name(reg, rb, sizeof(rb)));
			return;
		}
		if (op_is_breg(&ops[0], &reg, &off)) {
			snprintf(buf, len, "%s%+" PRId64, reg_name(reg, rb, sizeof(rb)), off);
			return;
		}
	}
	snprintf(buf, len, "frame base");
}

/* " 8", " -20", " 7 8" (bregx): the operands of ops that have some */
static void op_operands(const Dwarf_Op *op, char *buf, size_t len)
{
	unsigned int a = op->atom;

	buf[0] = '\0';
	if ((a >= DW_OP_breg0 && a <= DW_OP_breg31) || a == DW_OP_fbreg ||
	    a == DW_OP_consts || a == DW_OP_const1s || a == DW_OP_const2s ||
	    a == DW_OP_const4s || a == DW_OP_const8s)
		snprintf(buf, len, " %" PRId64, (int64_t)op->number);
	else if (a == DW_OP_bregx)
		snprintf(buf, len, " %" PRIu64 " %" PRId64, op->number, (int64_t)op->number2);
	else if (a == DW_OP_constu || a == DW_OP_const1u || a == DW_OP_const2u ||
		 a == DW_OP_const4u || a == DW_OP_const8u || a == DW_OP_plus_uconst ||
		 a == DW_OP_deref_size || a == DW_OP_regx || a == DW_OP_piece)
		snprintf(buf, len, " %" PRIu64, op->number);
}

/* Human form of the expression: the common shapes get a short name, the
 * rest is spelled op by op. */
static void describe(const struct bp_arg_ctx *c, Dwarf_Op *ops, size_t nops,
		     char *buf, size_t len)
{
	char rb[16], fb[32], nb[32], ob[48];
	size_t i, pos = 0;
	uint64_t reg;
	int64_t off;

	if (nops == 1 && op_is_reg(&ops[0], &reg)) {
		snprintf(buf, len, "reg %s", reg_name(reg, rb, sizeof(rb)));
		return;
	}
	if (nops == 1 && ops[0].atom == DW_OP_fbreg) {
		off = (int64_t)ops[0].number;
		frame_base_desc(c, fb, sizeof(fb));
		/* at or above the CFA: the caller's outgoing arguments */
		snprintf(buf, len, "%s%+" PRId64 " (%s)", fb, off,
			 !strcmp(fb, "CFA") && off >= 0 ? "stack" : "frame");
		return;
	}
	if (nops == 1 && ops[0].atom == DW_OP_call_frame_cfa) {
		snprintf(buf, len, "CFA (stack)");
		return;
	}
	if (nops == 1 && op_is_breg(&ops[0], &reg, &off)) {
		snprintf(buf, len, "*(%s%+" PRId64 ")", reg_name(reg, rb, sizeof(rb)), off);
		return;
	}
	if (nops == 2 && op_is_breg(&ops[0], &reg, &off) &&
	    ops[1].atom == DW_OP_stack_value) {
		snprintf(buf, len, "value %s%+" PRId64, reg_name(reg, rb, sizeof(rb)), off);
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < nops && pos < len; i++) {
		op_operands(&ops[i], ob, sizeof(ob));
		pos += snprintf(buf + pos, len - pos, "%s%s%s", i ? ", " : "",
				bp_dw_op_name(ops[i].atom, nb, sizeof(nb)), ob);
	}
}

/* A parameter the compiler folded into a constant (DW_AT_const_value). */
static int const_value(const struct bp_arg_ctx *c, Dwarf_Attribute *attr,
		       struct bp_val *val, char *desc, size_t desclen)
{
	Dwarf_Sword s;
	Dwarf_Word u;

	memset(val, 0, sizeof(*val));
	val->f.base = BP_BASE_CONST;
	if (attr->form == DW_FORM_sdata || attr->form == DW_FORM_implicit_const) {
		if (dwarf_formsdata(attr, &s))
			goto bad;
		val->off = s;
	} else {
		if (dwarf_formudata(attr, &u))
			goto bad;
		val->off = (int64_t)u;
	}
	snprintf(desc, desclen, "const %" PRId64, val->off);
	return 0;
bad:
	bp_arg_err(c, "a constant (DW_AT_const_value) in a form not supported");
	return -EOPNOTSUPP;
}

int bp_loc__var(const struct bp_arg_ctx *c, Dwarf_Die *var, struct bp_val *val,
		char *desc, size_t desclen)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	int n, err;

	if (!dwarf_attr_integrate(var, DW_AT_location, &attr)) {
		if (dwarf_attr_integrate(var, DW_AT_const_value, &attr))
			return const_value(c, &attr, val, desc, desclen);
		return optimized_out(c, NULL, " (it has no location)");
	}
	n = dwarf_getlocation_addr(&attr, c->addr, &ops, &nops, 1);
	if (n < 0) {
		bp_arg_err(c, "cannot read its location: %s", dwarf_errmsg(-1));
		return -EINVAL;
	}
	if (n == 0 || nops == 0)
		return optimized_out(c, &attr, "");
	if (is_entry_value(ops, nops))
		return optimized_out(c, &attr, " (only its value at the function's entry is described: DW_OP_entry_value)");

	describe(c, ops, nops, desc, desclen);
	err = eval(c, 0, ops, nops, val);
	if (err)
		return err;
	bp_debug("%s: argument '%s' at 0x%" PRIx64 ": %s\n", c->where, c->arg,
		 c->addr, desc);
	return 0;
}

bool bp_loc__frame_based(const struct bp_arg_ctx *c, Dwarf_Die *var)
{
	Dwarf_Attribute attr, fb_attr;
	Dwarf_Op *ops, *fb_ops;
	size_t nops, fb_nops, i;

	if (!dwarf_attr_integrate(var, DW_AT_location, &attr) ||
	    dwarf_getlocation_addr(&attr, c->addr, &ops, &nops, 1) <= 0)
		return false;
	for (i = 0; i < nops; i++) {
		if (ops[i].atom != DW_OP_fbreg)
			continue;
		if (!dwarf_attr_integrate(c->func, DW_AT_frame_base, &fb_attr) ||
		    dwarf_getlocation_addr(&fb_attr, c->addr, &fb_ops, &fb_nops, 1) <= 0)
			return true;
		/* the CFA is exact at every address; a register frame base
		 * (rbp, rsp) is only right once the prologue has run */
		if (fb_nops != 1 || fb_ops[0].atom != DW_OP_call_frame_cfa)
			return true;
		/* below the CFA: the callee's own frame, filled by the prologue */
		if ((int64_t)ops[i].number < 0)
			return true;
	}
	return false;
}
