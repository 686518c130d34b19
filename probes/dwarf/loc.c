// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * DWARF location expressions -> a value being built (struct bp_val).
 *
 * The expression is run on a symbolic stack: each entry is "a register, a
 * constant or a link-time address, dereferenced some times, plus an
 * offset", optionally shifted right and narrowed, which is what a fetch
 * plan can express. DW_OP_piece splits the value into parts with a
 * location each (a struct passed in two registers); a member access picks
 * its part later (bp_val__select). Anything else (arithmetic between two
 * registers, typed stack ops) is refused with the op's name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/loclist.h"
#include "probes/dwarf/types.h"
#include "prologue/arch.h"
#include "util/log.h"

#define STACK_MAX	8
/* DWARF ops a location with branches may have */
#define MAX_XMODE_OPS	64
/* fbreg -> frame base -> CFA, entry value -> its expression */
#define MAX_DEPTH	3

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

/*
 * An evaluation's state (large: values that may hold expressions), on the
 * heap, zeroed but for the stack, which push_val() writes before anything
 * reads it: zeroing it would touch tens of KiB no evaluation uses.
 */
static struct loc_eval *new_eval(void)
{
	const size_t stack_end = offsetof(struct loc_eval, stack) +
				 sizeof(((struct loc_eval *)0)->stack);
	struct loc_eval *e = malloc(sizeof(*e));

	if (e) {
		memset(e, 0, offsetof(struct loc_eval, stack));
		memset((char *)e + stack_end, 0, sizeof(*e) - stack_end);
	}
	return e;
}

static const char *op_name(unsigned int op)
{
	static __thread char buf[32];

	return bp_dw_op_name(op, buf, sizeof(buf));
}

/* The function whose DW_AT_frame_base DW_OP_fbreg means: at an inlined
 * copy, the function it was inlined into. */
static Dwarf_Die *frame_func(const struct bp_arg_ctx *c)
{
	return c->frame ? c->frame : c->func;
}

int bp_val__deref(const struct bp_arg_ctx *c, struct bp_val *v)
{
	struct bp_fetch *f = &v->f;

	int err;

	if (v->npieces) {
		bp_arg_fail(c, "a value split into pieces cannot be dereferenced as a whole");
		return -EOPNOTSUPP;
	}
	if (v->implicit.set) {
		bp_arg_fail(c, "a pointer that exists only in the debug info (DW_OP_implicit_pointer) cannot be read through here");
		return -EOPNOTSUPP;
	}
	/* a read at a computed address, past the plan's reads, or at an
	 * offset no read instruction takes: an expression computes it */
	if (v->shift || v->width || f->nderef >= BP_MAX_DEREFS ||
	    v->off < INT32_MIN || v->off > INT32_MAX) {
		err = bp_val__flatten(c, v);
		if (err)
			return err;
	}
	f->deref_off[f->nderef] = (int32_t)v->off;
	if (c->user && f->nderef >= c->first_user_deref)
		f->user_mask |= 1U << f->nderef;
	f->nderef++;
	v->off = 0;
	v->lvalue = false;
	return 0;
}

/* --- pieces -------------------------------------------------------------- */

static void piece_from_val(struct bp_piece *p, const struct bp_val *v)
{
	p->empty = false;
	p->f = v->f;
	p->off = v->off;
	p->lvalue = v->lvalue;
	p->shift = v->shift;
	p->width = v->width;
	p->wsigned = v->wsigned;
	p->implicit = v->implicit;
}

int bp_val__split(const struct bp_arg_ctx *c, struct bp_val *v, long size,
		  const char *path)
{
	struct bp_piece *p = &v->pieces[0];

	if (v->lvalue || v->npieces)
		return 0;
	if (size <= 0) {
		bp_arg_fail(c, "'%s' is held in a register, but its size is unknown", path);
		return -EINVAL;
	}
	memset(p, 0, sizeof(*p));
	piece_from_val(p, v);
	p->size = (uint32_t)size;
	v->npieces = 1;
	memset(&v->f, 0, sizeof(v->f));
	v->off = 0;
	v->shift = 0;
	v->width = 0;
	v->wsigned = false;
	v->implicit.set = false;
	return 0;
}

int bp_val__select(const struct bp_arg_ctx *c, struct bp_val *v, long size,
		   const char *path)
{
	const struct bp_piece *p = NULL;
	int64_t delta;
	char why[256];
	int i;

	if (!v->npieces)
		return 0;
	for (i = 0; i < v->npieces && !p; i++) {
		const struct bp_piece *q = &v->pieces[i];

		if (v->off >= q->byte_off && v->off + size <= (int64_t)q->byte_off + q->size)
			p = q;
		else if (v->off < (int64_t)q->byte_off + q->size && v->off + size > q->byte_off) {
			bp_arg_fail(c, "'%s' (bytes %" PRId64 "..%" PRId64 " of its variable) spans two pieces of the variable's location (DW_OP_piece): not supported",
				    path, v->off, v->off + size - 1);
			return -EOPNOTSUPP;
		}
	}
	if (!p || p->empty) {
		snprintf(why, sizeof(why), "bytes %" PRId64 "..%" PRId64 " of the variable, which '%s' needs, are %s its location (DW_OP_piece)",
			 v->off, v->off + size - 1, path, p ? "marked missing in" : "left out of");
		return bp_arg__unavailable(c, -ENOENT, "optimized out", why);
	}
	delta = v->off - p->byte_off;
	v->f = p->f;
	v->off = p->off;
	v->lvalue = p->lvalue;
	v->shift = p->shift;
	v->width = p->width;
	v->wsigned = p->wsigned;
	v->implicit = p->implicit;
	v->npieces = 0;
	if (v->implicit.set) {
		/* a pointer member: only the whole of it */
		if (delta || size != 8) {
			bp_arg_fail(c, "'%s' is part of a pointer that exists only in the debug info (DW_OP_implicit_pointer)",
				    path);
			return -EOPNOTSUPP;
		}
		return 0;
	}
	if (v->lvalue) {
		v->off += delta;
		return 0;
	}
	/* a register or computed value: the member is some of its bits */
	if (v->shift + (delta + size) * 8 > 64) {
		bp_arg_fail(c, "'%s' lies past the 64 bits of the register holding it", path);
		return -EOPNOTSUPP;
	}
	if (v->width && (delta + size) * 8 > v->width) {
		bp_arg_fail(c, "'%s' lies past the %u bits the location defines", path, v->width);
		return -EOPNOTSUPP;
	}
	v->width = v->width ? v->width - delta * 8 : 0;
	v->shift += delta * 8;
	return 0;
}

/* A constant of len bytes (little-endian): one value, or 8-byte pieces. */
static int const_bytes(const struct bp_arg_ctx *c, const unsigned char *data,
		       size_t len, struct bp_val *v)
{
	size_t i, k;

	memset(v, 0, sizeof(*v));
	if (len > 8 * BP_MAX_PIECES) {
		bp_arg_fail(c, "a %zu-byte constant: too large", len);
		return -E2BIG;
	}
	for (k = 0; k * 8 < len; k++) {
		struct bp_piece *p = &v->pieces[k];
		uint64_t word = 0;

		for (i = 0; i < 8 && k * 8 + i < len; i++)
			word |= (uint64_t)data[k * 8 + i] << (8 * i);
		p->byte_off = k * 8;
		p->size = i;
		p->f.base = BP_BASE_CONST;
		p->f.add = (int64_t)word;
	}
	if (len <= 8) {
		v->f = v->pieces[0].f;
		return 0;
	}
	v->npieces = k;
	return 0;
}

/* --- the stack ------------------------------------------------------------ */

static int check_reg(const struct bp_arg_ctx *c, uint64_t reg)
{
	char why[160], what[64];

	if (reg < 256 && bp_arch__pt_regs_off((int)reg) >= 0)
		return 0;
	if (reg < 256 && bp_arch__fp_reg((int)reg, what, sizeof(what))) {
		bool first = c->diag && !c->diag->failed;
		int err;

		snprintf(why, sizeof(why), "in %s", what);
		err = bp_arg__unavailable(c, -EOPNOTSUPP, why,
			"floating-point registers are not readable from a probe (pt_regs has none)");
		if (first)
			c->diag->fp_register = true;
		return err;
	}
	bp_arg_fail(c, "in DWARF register %" PRIu64 ", which is not readable from a probe",
		    reg);
	return -EOPNOTSUPP;
}

static int push_val(struct loc_eval *e, const struct bp_val *v)
{
	if (e->sp >= STACK_MAX) {
		bp_arg_fail(e->c, "location expression is too deep");
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

/*
 * At a uretprobe the anchor is bpf_get_func_ip(), which returns the
 * probed function's address there only since Linux 6.6 (0 before: the
 * fetch then fails). A warning, said once per process: the resolver may
 * be preparing a probe for another machine, or a kernel with a backport.
 */
static void warn_old_kernel(const struct bp_arg_ctx *c)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2 ||
	    major > 6 || (major == 6 && minor >= 6))
		return;
	bp_diag__warn(c->diag, "uretprobe-func-ip",
		      "%s: warning: argument '%s' reads a global at a return probe, which needs bpf_get_func_ip() at uretprobes (Linux 6.6+); on this kernel (%s) that fetch fails (err != 0)",
		      c->where, c->arg, u.release);
}

/*
 * A link-time address in the probed object: at run time it moves by the
 * object's load bias, which the prologue learns from the probe point's own
 * address (the anchor).
 */
static int push_addr(struct loc_eval *e, uint64_t addr)
{
	struct bp_val v = { .f = { .base = BP_BASE_ADDR, .add = (int64_t)addr } };

	if (e->c->kernel) {
		bp_arg_fail(e->c, "at a fixed address (a global or static variable): not supported in kernel probes yet");
		return -EOPNOTSUPP;
	}
	v.f.anchor = e->c->addr;
	v.f.anchor_kind = e->c->at_return ? BP_ANCHOR_FUNC_IP : BP_ANCHOR_IP;
	if (e->c->at_return)
		warn_old_kernel(e->c);
	return push_val(e, &v);
}

static bool is_const(const struct bp_val *v)
{
	return v->f.base == BP_BASE_CONST && !v->f.nderef && !v->shift && !v->width;
}

static int unsupported(struct loc_eval *e, const Dwarf_Op *op);
static int top(struct loc_eval *e, unsigned int op, struct bp_val **v);
static int step(struct loc_eval *e, const Dwarf_Op *op);

static int underflow(struct loc_eval *e, unsigned int op)
{
	bp_arg_fail(e->c, "malformed location expression (%s on an empty stack)",
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

static int eval(const struct bp_arg_ctx *c, Dwarf_Attribute *attr, int depth,
		Dwarf_Op *ops, size_t nops, struct bp_val *out);

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
	if (nops == 1 && op_is_reg(&ops[0], &reg))
		return push_reg(e, reg, off);
	err = eval(e->c, attr, e->depth + 1, ops, nops, &v);
	if (err)
		return err;
	if (v.npieces) {
		bp_arg_fail(e->c, "a frame base or entry value in pieces: not supported");
		return -EOPNOTSUPP;
	}
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
		bp_arg_fail(c, "cannot read the expression of %s", op_name(op->atom));
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
	if (nops != 1 || !op_is_reg(&ops[0], &reg))
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
	err = check_reg(c, reg);
	if (!err)
		err = push_cfa(e, 0);
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
		bp_arg_fail(e->c, "cannot read the address of %s", op_name(op->atom));
		return -EINVAL;
	}
	return push_addr(e, addr);
}

static int push_implicit(struct loc_eval *e, const Dwarf_Op *op)
{
	Dwarf_Attribute res;
	Dwarf_Block block;
	struct bp_val v;
	int err;

	if (!e->attr || dwarf_getlocation_attr(e->attr, op, &res) ||
	    dwarf_formblock(&res, &block)) {
		bp_arg_fail(e->c, "cannot read the constant of %s", op_name(op->atom));
		return -EINVAL;
	}
	/* longer: a value of its own (a string an implicit pointer points
	 * to), its bytes in 8-byte pieces; nothing may compute with it */
	if (block.length > 8 && e->sp) {
		bp_arg_fail(e->c, "a %" PRIu64 "-byte %s: only constants up to 8 bytes are supported in an expression",
			    (uint64_t)block.length, op_name(op->atom));
		return -EOPNOTSUPP;
	}
	err = const_bytes(e->c, block.data, block.length, &v);
	if (!err)
		err = push_val(e, &v);
	if (!err)
		e->state = LOC_VALUE;
	return err;
}

/* The base type a typed op names (DW_OP_convert and friends). */
static int op_type(struct loc_eval *e, const Dwarf_Op *op, Dwarf_Die *type)
{
	if (!e->attr || dwarf_getlocation_die(e->attr, op, type)) {
		bp_arg_fail(e->c, "cannot read the type of %s", op_name(op->atom));
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
	return 0;
}

/* DW_OP_convert to a base type (0: the generic type, no change). */
static int convert(struct loc_eval *e, const Dwarf_Op *op)
{
	Dwarf_Die type;

	if (!op->number)
		return 0;
	return op_type(e, op, &type) ?: apply_type(e, &e->stack[e->sp - 1], &type, true);
}

/* DW_OP_regval_type: a register's value, of a base type */
static int regval_type(struct loc_eval *e, const Dwarf_Op *op)
{
	Dwarf_Die type;
	int err;

	err = op_type(e, op, &type) ?: push_reg(e, op->number, 0);
	return err ?: apply_type(e, &e->stack[e->sp - 1], &type, false);
}

/* DW_OP_deref_type: a read of a base type */
static int deref_type(struct loc_eval *e, const Dwarf_Op *op)
{
	struct bp_val *v = &e->stack[e->sp - 1];
	Dwarf_Die type;
	int err;

	if (op->number == 0 || op->number > 8)
		return unsupported(e, op);
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
static int const_type(struct loc_eval *e, const Dwarf_Op *op)
{
	Dwarf_Attribute res;
	Dwarf_Block block;
	struct bp_val v;
	Dwarf_Die type;
	int err;

	if (!e->attr || dwarf_getlocation_attr(e->attr, op, &res) ||
	    dwarf_formblock(&res, &block) || block.length > 8) {
		bp_arg_fail(e->c, "cannot read the constant of %s", op_name(op->atom));
		return -EINVAL;
	}
	err = op_type(e, op, &type) ?: const_bytes(e->c, block.data, block.length, &v);
	err = err ?: push_val(e, &v);
	return err ?: apply_type(e, &e->stack[e->sp - 1], &type, false);
}

/* DW_OP_neg, DW_OP_not, DW_OP_abs */
static int unary_op(struct loc_eval *e, unsigned int op)
{
	struct bp_val *v = NULL;
	int64_t x;
	int err;

	err = top(e, op, &v);
	if (err)
		return err;
	if (v->fp)
		return float_arith(e, op_name(op));
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
static int implicit_pointer(struct loc_eval *e, const Dwarf_Op *op)
{
	struct bp_val v = {};

	if (!e->attr || dwarf_getlocation_die(e->attr, op, &v.implicit.die)) {
		bp_arg_fail(e->c, "cannot read the target of %s", op_name(op->atom));
		return -EINVAL;
	}
	v.implicit.set = true;
	v.implicit.off = (int64_t)op->number2;
	e->state = LOC_VALUE;
	return push_val(e, &v);
}

/* DW_OP_form_tls_address: the offset on the stack, in this module's TLS
 * block, becomes the address for the current thread */
static int tls_address(struct loc_eval *e, const Dwarf_Op *op)
{
	struct bp_val *v = NULL;
	int err = top(e, op->atom, &v);

	return err ?: bp_val__tls(e->c, v);
}

/* DW_OP_GNU_parameter_ref: what the callers pass (callsite.c) */
static int param_ref(struct loc_eval *e, const Dwarf_Op *op)
{
	Dwarf_Die param;
	struct bp_val v;
	int err;

	if (!e->attr || dwarf_getlocation_die(e->attr, op, &param)) {
		bp_arg_fail(e->c, "cannot read the parameter of %s", op_name(op->atom));
		return -EINVAL;
	}
	err = bp_val__param_ref(e->c, &param, bp_loc__cfa_expr, &v);
	return err ?: push_val(e, &v);
}

int bp_loc__cfa_expr(const struct bp_arg_ctx *c, struct bp_expr *x)
{
	struct loc_eval *e = new_eval();
	int err;

	if (!e)
		return -ENOMEM;
	e->c = c;
	err = push_cfa(e, 0);
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

/* DW_OP_rot: x y z -> z x y; DW_OP_pick N: a copy of entry N below the top */
static int rot_pick(struct loc_eval *e, const Dwarf_Op *op)
{
	struct bp_val t;

	if (op->atom == DW_OP_pick) {
		if (op->number >= (uint64_t)e->sp)
			return underflow(e, op->atom);
		t = e->stack[e->sp - 1 - op->number];
		return push_val(e, &t);
	}
	if (e->sp < 3)
		return underflow(e, op->atom);
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
static int xop_of(unsigned int op, const struct bp_val *a, const struct bp_val *b,
		  uint8_t *flags)
{
	bool typed_unsigned = (a->width && !a->wsigned) || (b->width && !b->wsigned);
	bool typed_signed = (a->width && a->wsigned) || (b->width && b->wsigned);

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

static int binary_op(struct loc_eval *e, unsigned int op)
{
	struct bp_val *a, *b;
	uint8_t flags;
	int64_t r;
	int xop, err;

	if (e->sp < 2)
		return underflow(e, op);
	a = &e->stack[e->sp - 2];
	b = &e->stack[e->sp - 1];
	if (a->fp || b->fp)
		return float_arith(e, op_name(op));
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
	xop = xop_of(op, a, b, &flags);
	if (!xop)
		return unsupported(e, &(Dwarf_Op){ .atom = op });
	err = bp_val__binary(e->c, a, b, xop, flags);
	if (err)
		return err;
	e->sp--;
	return 0;
}

/* DW_OP_piece / DW_OP_bit_piece: the location so far holds the next part. */
static int piece(struct loc_eval *e, const Dwarf_Op *op)
{
	struct bp_piece *p;
	uint64_t bytes, shift = 0;

	if (op->atom == DW_OP_bit_piece) {
		/* whole bytes only: x86-64 compilers emit nothing finer */
		if (op->number % 8 || op->number2 % 8) {
			bp_arg_fail(e->c, "split into bit-sized pieces (%s %" PRIu64 " %" PRIu64 "): not supported",
				    op_name(op->atom), op->number, op->number2);
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
			    e->sp, op_name(op->atom));
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
		piece_from_val(p, v);
		p->lvalue = e->state == LOC_MEM;
		if (p->lvalue) {
			p->off += shift / 8;
		} else if (p->shift + shift < 64) {
			p->shift += shift;
		} else {
			bp_arg_fail(e->c, "malformed %s offset %" PRIu64, op_name(op->atom), shift);
			return -EINVAL;
		}
	}
	e->sp = 0;
	e->state = LOC_MEM;
	return 0;
}

static int unsupported(struct loc_eval *e, const Dwarf_Op *op)
{
	switch (op->atom) {
	default:
		bp_arg_fail(e->c, "location uses %s: not supported",
			    op_name(op->atom));
		break;
	}
	return -EOPNOTSUPP;
}

static int top(struct loc_eval *e, unsigned int op, struct bp_val **v)
{
	if (!e->sp)
		return underflow(e, op);
	*v = &e->stack[e->sp - 1];
	return 0;
}

/* One op. */
static int step(struct loc_eval *e, const Dwarf_Op *op)
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
			    op_name(a), e->state == LOC_REG ? "register" : "value");
		return -EINVAL;
	}
	if (a >= DW_OP_lit0 && a <= DW_OP_lit31)
		return push(e, BP_BASE_CONST, 0, a - DW_OP_lit0);
	if (op_is_breg(op, &reg, &off))
		return push_reg(e, reg, off);
	if (op_is_reg(op, &reg)) {
		err = push_reg(e, reg, 0);
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
		return push(e, BP_BASE_CONST, 0, (int64_t)op->number);
	case DW_OP_addr:
		return push_addr(e, op->number);
	case DW_OP_addrx:
	case DW_OP_GNU_addr_index:
		return push_addrx(e, op);
	case DW_OP_fbreg:
		return push_frame_base(e, (int64_t)op->number);
	case DW_OP_call_frame_cfa:
		return push_cfa(e, 0);
	case DW_OP_entry_value:
	case DW_OP_GNU_entry_value:
		return push_entry_value(e, op);
	case DW_OP_implicit_value:
		return push_implicit(e, op);
	case DW_OP_plus_uconst:
		err = top(e, a, &v);
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
		return binary_op(e, a);
	case DW_OP_neg:
	case DW_OP_not:
	case DW_OP_abs:
		return unary_op(e, a);
	case DW_OP_rot:
	case DW_OP_pick:
		return rot_pick(e, op);
	case DW_OP_regval_type:
	case DW_OP_GNU_regval_type:
		return regval_type(e, op);
	case DW_OP_deref_type:
	case DW_OP_GNU_deref_type:
		err = top(e, a, &v);
		return err ?: deref_type(e, op);
	case DW_OP_const_type:
	case DW_OP_GNU_const_type:
		return const_type(e, op);
	case DW_OP_reinterpret:
	case DW_OP_GNU_reinterpret:
		/* the same bits read as another type of the same size */
		return top(e, a, &v);
	case DW_OP_implicit_pointer:
	case DW_OP_GNU_implicit_pointer:
		return implicit_pointer(e, op);
	case DW_OP_form_tls_address:
	case DW_OP_GNU_push_tls_address:
		return tls_address(e, op);
	case DW_OP_GNU_parameter_ref:
		return param_ref(e, op);
	case DW_OP_deref:
		err = top(e, a, &v);
		return err ? err : bp_val__deref(e->c, v);
	case DW_OP_deref_size:
		err = top(e, a, &v);
		if (err)
			return err;
		/* a narrower read mid-chain has no plan form: read 8, keep the low bytes */
		if (op->number == 0 || op->number > 8)
			return unsupported(e, op);
		err = bp_val__deref(e->c, v);
		if (!err && op->number < 8) {
			v->width = op->number * 8;
			v->wsigned = false;	/* DWARF zero-extends it */
		}
		return err;
	case DW_OP_convert:
	case DW_OP_GNU_convert:
		err = top(e, a, &v);
		return err ? err : convert(e, op);
	case DW_OP_dup:
		err = top(e, a, &v);
		return err ? err : push_val(e, v);
	case DW_OP_over:
		if (e->sp < 2)
			return underflow(e, a);
		return push_val(e, &e->stack[e->sp - 2]);
	case DW_OP_swap:
		if (e->sp < 2)
			return underflow(e, a);
		{
			struct bp_val t = e->stack[e->sp - 1];

			e->stack[e->sp - 1] = e->stack[e->sp - 2];
			e->stack[e->sp - 2] = t;
		}
		return 0;
	case DW_OP_drop:
		if (!e->sp)
			return underflow(e, a);
		e->sp--;
		return 0;
	case DW_OP_nop:
		return 0;
	case DW_OP_stack_value:
		err = top(e, a, &v);
		if (!err)
			e->state = LOC_VALUE;
		return err;
	default:
		return unsupported(e, op);
	}
}

/* Evaluates ops; the result is an lvalue (memory location) unless the
 * expression names a register or ends in DW_OP_stack_value, or is split
 * into pieces (out->npieces). */
/* --- locations with branches ----------------------------------------------- */

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
static int enter_xmode(struct loc_eval *e)
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
	err = step(e, op);
	e->xmode = true;
	e->state = state;
	if (!err && e->sp != 1) {
		bp_arg_fail(e->c, "%s cannot be computed after a branch", op_name(op->atom));
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

	return xop_of(atom, &generic, &generic, flags);
}

/* A branch: to the op at byte offset 'to', forward only. */
static int xjump(struct loc_eval *e, const Dwarf_Op *ops, size_t nops, size_t i)
{
	size_t next = i + 1 < nops ? ops[i + 1].offset : ops[i].offset + 3;
	int16_t rel = (int16_t)ops[i].number;

	if (rel < 0 || e->njumps == MAX_XMODE_OPS) {
		bp_arg_fail(e->c, "its location loops (%s backwards): not supported",
			    op_name(ops[i].atom));
		return -EOPNOTSUPP;
	}
	e->jumps[e->njumps].at = e->x.nops;
	e->jumps[e->njumps].to = next + rel;
	e->njumps++;
	return xpush(e, ops[i].atom == DW_OP_bra ? BP_XOP_BRA : BP_XOP_SKIP, 0, 0, 0, 0);
}

/* One op, translated into the expression. */
static int xstep(struct loc_eval *e, const Dwarf_Op *ops, size_t nops, size_t i)
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
		bp_arg_fail(e->c, "malformed location expression (%s after a value)", op_name(a));
		return -EINVAL;
	}
	if (a >= DW_OP_lit0 && a <= DW_OP_lit31)
		return xpush(e, BP_XOP_CONST, 0, 0, 0, a - DW_OP_lit0);
	if (op_is_breg(op, &reg, &off))
		return check_reg(e->c, reg) ?: xpush(e, BP_XOP_REG, (uint8_t)reg, 0, 0, off);
	if (op_is_reg(op, &reg)) {
		err = check_reg(e->c, reg) ?: xpush(e, BP_XOP_REG, (uint8_t)reg, 0, 0, 0);
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
			return unsupported(e, op);
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
		return unsupported(e, op);
	}
}

/* The branches pointed at the ops of their targets; the result. */
static int leave_xmode(struct loc_eval *e, const Dwarf_Op *ops, size_t nops, struct bp_val *out)
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
			err = enter_xmode(e);
			if (err)
				return err;
		}
		err = e->xmode ? xstep(e, ops, nops, i) : step(e, &ops[i]);
		if (err)
			return err;
	}
	if (e->xmode)
		return leave_xmode(e, ops, nops, out);
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
static int eval(const struct bp_arg_ctx *c, Dwarf_Attribute *attr, int depth,
		Dwarf_Op *ops, size_t nops, struct bp_val *out)
{
	struct loc_eval *e = new_eval();
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

static bool is_entry_value(const Dwarf_Op *ops, size_t nops)
{
	size_t i;

	for (i = 0; i < nops; i++) {
		if (ops[i].atom == DW_OP_entry_value || ops[i].atom == DW_OP_GNU_entry_value)
			return true;
	}
	return false;
}

/* "rbp", "xmm0", or "dwarf99" */
static const char *reg_name(uint64_t reg, char *buf, size_t len)
{
	if (reg >= 256) {
		snprintf(buf, len, "dwarf%" PRIu64, reg);
		return buf;
	}
	return bp_arch__reg_text((int)reg, buf, len);
}

/* The frame base as text: "CFA", "rbp", "rsp+8". */
static void frame_base_desc(const struct bp_arg_ctx *c, char *buf, size_t len)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	uint64_t reg;
	int64_t off;
	char rb[32];

	if (dwarf_attr_integrate(frame_func(c), DW_AT_frame_base, &attr) &&
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
	else if (a == DW_OP_bregx || a == DW_OP_bit_piece)
		snprintf(buf, len, " %" PRIu64 " %" PRId64, op->number, (int64_t)op->number2);
	else if (a == DW_OP_addr)
		snprintf(buf, len, " 0x%" PRIx64, op->number);
	else if (a == DW_OP_constu || a == DW_OP_const1u || a == DW_OP_const2u ||
		 a == DW_OP_const4u || a == DW_OP_const8u || a == DW_OP_plus_uconst ||
		 a == DW_OP_deref_size || a == DW_OP_regx || a == DW_OP_piece)
		snprintf(buf, len, " %" PRIu64, op->number);
}

/* Human form of the expression: the common shapes get a short name, the
 * rest is spelled op by op. */
static void describe(const struct bp_arg_ctx *c, Dwarf_Attribute *attr,
		     Dwarf_Op *ops, size_t nops, char *buf, size_t len)
{
	Dwarf_Attribute res;
	Dwarf_Addr addr;
	char rb[32], fb[64], nb[32], ob[48];
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
	if (nops == 1 && ops[0].atom == DW_OP_addr) {
		snprintf(buf, len, "global @0x%" PRIx64, ops[0].number);
		return;
	}
	if (nops == 1 && (ops[0].atom == DW_OP_addrx || ops[0].atom == DW_OP_GNU_addr_index) &&
	    !dwarf_getlocation_attr(attr, &ops[0], &res) && !dwarf_formaddr(&res, &addr)) {
		snprintf(buf, len, "global @0x%" PRIx64, addr);
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

/* A variable the compiler folded into a constant (DW_AT_const_value). */
static int const_value(const struct bp_arg_ctx *c, Dwarf_Attribute *attr,
		       struct bp_val *val, char *desc, size_t desclen)
{
	Dwarf_Block block;
	Dwarf_Sword s;
	Dwarf_Word u;
	int err;

	memset(val, 0, sizeof(*val));
	val->f.base = BP_BASE_CONST;
	switch (attr->form) {
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		if (dwarf_formsdata(attr, &s))
			goto bad;
		val->f.add = s;
		break;
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
		/* a struct, a double: its bytes */
		if (dwarf_formblock(attr, &block))
			goto bad;
		err = const_bytes(c, block.data, block.length, val);
		if (err)
			return err;
		snprintf(desc, desclen, "const (%" PRIu64 " bytes)", (uint64_t)block.length);
		return 0;
	default:
		/* data1..data8: the final size and sign give it its meaning */
		if (dwarf_formudata(attr, &u))
			goto bad;
		val->f.add = (int64_t)u;
		break;
	}
	snprintf(desc, desclen, "const %" PRId64, val->f.add);
	return 0;
bad:
	bp_arg_fail(c, "a constant (DW_AT_const_value) in a form not supported");
	return -EOPNOTSUPP;
}

/*
 * Location views: gcc describes a value that holds only "between views"
 * of one address (at an inlined copy's entry, before its first
 * instruction) with an empty range [addr, addr) qualified by views
 * (DW_AT_GNU_locviews). No instruction runs between the views of one
 * address, so at addr the machine holds what that entry says: used when
 * no entry covers addr. Returns 1 with ops, 0 when there is none.
 */
static int view_location(Dwarf_Attribute *attr, uint64_t addr, Dwarf_Op **ops, size_t *nops,
			 struct bp_loclist_ops *buf)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	if (attr->form == DW_FORM_exprloc || attr->form == DW_FORM_block1 ||
	    attr->form == DW_FORM_block)
		return 0;
	while ((off = bp_loclist__next(attr, off, &base, &start, &end, ops, nops, buf)) > 0) {
		if (start == addr && end == addr && *nops)
			return 1;
	}
	return 0;
}

/* s + text, as room allows */
static void append(char *s, size_t len, const char *text)
{
	size_t l = strlen(s);

	if (l < len)
		snprintf(s + l, len - l, "%s", text);
}

int bp_loc__var(const struct bp_arg_ctx *c, Dwarf_Die *var, struct bp_val *val,
		char *desc, size_t desclen)
{
	struct bp_loclist_ops buf;
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	int n, err, view = 0;
	bool first;

	if (!dwarf_attr_integrate(var, DW_AT_location, &attr)) {
		if (dwarf_attr_integrate(var, DW_AT_const_value, &attr))
			return const_value(c, &attr, val, desc, desclen);
		return bp_arg__unavailable(c, -ENOENT, "optimized out", "it has no location");
	}
	/* the ops read where libdw cannot (DW_OP_GNU_uninit) live in buf */
	n = bp_loclist__at(&attr, c->addr, &ops, &nops, &buf);
	if (n < 0) {
		bp_arg_fail(c, "its location cannot be read (%s)", buf.err);
		return -EINVAL;
	}
	if (n == 0 || nops == 0)
		n = view = view_location(&attr, c->addr, &ops, &nops, &buf);
	if (n == 0 || nops == 0)
		return bp_arg__unavailable(c, -ENOENT, "optimized out", NULL);
	describe(c, &attr, ops, nops, desc, desclen);
	if (view)
		append(desc, desclen, " (location view)");
	/* gcc's mark of a value not yet initialized: the location still
	 * holds what the variable has, as gdb shows it */
	if (buf.uninit)
		append(desc, desclen, " (uninitialized: DW_OP_GNU_uninit)");
	first = c->diag && !c->diag->failed;
	err = eval(c, &attr, 0, ops, nops, val);
	if (err && first && buf.uninit)
		append(c->diag->msg, sizeof(c->diag->msg),
		       "; DWARF marks its value uninitialized there (DW_OP_GNU_uninit)");
	if (err)
		return err;
	bp_debug("%s: argument '%s' at 0x%" PRIx64 ": %s\n", c->where, c->arg,
		 c->addr, desc);
	return 0;
}

int bp_loc__implicit_target(const struct bp_arg_ctx *c, struct bp_val *v)
{
	struct bp_implicit im = v->implicit;
	struct bp_val t;
	Dwarf_Die tmem;
	char desc[160];
	long size;
	int err;

	err = bp_loc__var(c, &im.die, &t, desc, sizeof(desc));
	if (err)
		return err;
	if (!t.lvalue && !t.npieces && !t.implicit.set) {
		/* the object is a value (a register, a constant of up to 8
		 * bytes): its bytes; a string constant's array type may have
		 * no bound, and a register holds 8 */
		size = bp_type_size(bp_die_type(&im.die, &tmem));
		if (size <= 0 || size > 8)
			size = 8;
		err = bp_val__split(c, &t, size, "the implicit pointer's target");
		if (err)
			return err;
	}
	t.off += im.off;
	*v = t;
	return 0;
}

bool bp_loc__frame_based(const struct bp_arg_ctx *c, Dwarf_Die *var)
{
	struct bp_loclist_ops buf;
	Dwarf_Attribute attr, fb_attr;
	Dwarf_Op *ops, *fb_ops;
	size_t nops, fb_nops, i;

	if (!dwarf_attr_integrate(var, DW_AT_location, &attr) ||
	    bp_loclist__at(&attr, c->addr, &ops, &nops, &buf) <= 0)
		return false;
	for (i = 0; i < nops; i++) {
		if (ops[i].atom != DW_OP_fbreg)
			continue;
		if (!dwarf_attr_integrate(frame_func(c), DW_AT_frame_base, &fb_attr) ||
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

/* Calls cb with [start, end) of every entry of var's location list; 0 when
 * the location is a single expression (the same everywhere). */
int bp_loc__ranges(Dwarf_Die *var, void (*cb)(uint64_t start, uint64_t end, bool entry_value,
					       void *ctx), void *ctx)
{
	struct bp_loclist_ops buf;
	Dwarf_Addr base, start, end;
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	ptrdiff_t off = 0;
	size_t nops;
	int n = 0;

	if (!dwarf_attr_integrate(var, DW_AT_location, &attr) ||
	    attr.form == DW_FORM_exprloc || attr.form == DW_FORM_block1 ||
	    attr.form == DW_FORM_block)
		return 0;
	while ((off = bp_loclist__next(&attr, off, &base, &start, &end, &ops, &nops, &buf)) > 0) {
		if (!nops || start >= end)
			continue;
		cb(start, end, is_entry_value(ops, nops), ctx);
		n++;
	}
	return n;
}
