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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/types.h"
#include "prologue/arch.h"
#include "util/log.h"

#define STACK_MAX	8
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
};

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

const char *bp_loc__frame_name(const struct bp_arg_ctx *c)
{
	const char *name = bp_die_name(frame_func(c));

	return name ? name : "the function";
}

/*
 * The argument has no value at c->addr: "WHAT at ADDR (FUNC+OFF)[:
 * DETAIL]", offsets counted from the entry of the function that has the
 * frame. Where else it can be read is the caller's to add (arg.c).
 */
static int unavailable(const struct bp_arg_ctx *c, int err, const char *what,
		       const char *detail)
{
	char here[64] = "";

	if (c->func_entry && c->addr >= c->func_entry)
		snprintf(here, sizeof(here), " (%s+0x%" PRIx64 ")", bp_loc__frame_name(c),
			 c->addr - c->func_entry);
	bp_diag__unavailable(c->diag, c->arg, "%s at 0x%" PRIx64 "%s%s%s", what, c->addr,
			     here, detail && *detail ? ": " : "", detail ? detail : "");
	return err;
}

int bp_val__deref(const struct bp_arg_ctx *c, struct bp_val *v)
{
	struct bp_fetch *f = &v->f;

	if (v->npieces) {
		bp_arg_fail(c, "a value split into pieces cannot be dereferenced as a whole");
		return -EOPNOTSUPP;
	}
	if (v->shift || v->width) {
		bp_arg_fail(c, "needs a memory read at an address computed with a shift or mask: not supported");
		return -EOPNOTSUPP;
	}
	if (f->nderef >= BP_MAX_DEREFS) {
		bp_arg_fail(c, "needs more than %d memory reads", BP_MAX_DEREFS);
		return -E2BIG;
	}
	if (v->off < INT32_MIN || v->off > INT32_MAX) {
		bp_arg_fail(c, "offset %" PRId64 " is out of range", v->off);
		return -ERANGE;
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
		return unavailable(c, -ENOENT, "optimized out", why);
	}
	delta = v->off - p->byte_off;
	v->f = p->f;
	v->off = p->off;
	v->lvalue = p->lvalue;
	v->shift = p->shift;
	v->width = p->width;
	v->wsigned = p->wsigned;
	v->npieces = 0;
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
		snprintf(why, sizeof(why), "in %s", what);
		return unavailable(c, -EOPNOTSUPP, why,
			"floating-point registers are not readable from a probe (pt_regs has none)");
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
	Dwarf_Attribute sub;
	Dwarf_Op *ops;
	size_t nops;

	if (!e->c->func_entry || e->c->addr != e->c->func_entry)
		return unavailable(e->c, -ENOENT, "optimized out",
			"only its value at the function's entry is described (DW_OP_entry_value)");
	if (!e->attr || dwarf_getlocation_attr(e->attr, op, &sub) ||
	    dwarf_getlocation(&sub, &ops, &nops) || !nops) {
		bp_arg_fail(e->c, "cannot read the expression of %s", op_name(op->atom));
		return -EINVAL;
	}
	return push_nested(e, &sub, ops, nops, 0);
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
	if (block.length > 8) {
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

/* DW_OP_convert to a base type: narrowing keeps the low bits only. */
static int convert(struct loc_eval *e, const Dwarf_Op *op)
{
	struct bp_val *v = &e->stack[e->sp - 1];
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	Dwarf_Die type;
	int size;

	if (!op->number)
		return 0;	/* the generic type: nothing changes */
	if (!e->attr || dwarf_getlocation_die(e->attr, op, &type)) {
		bp_arg_fail(e->c, "cannot read the type of %s", op_name(op->atom));
		return -EINVAL;
	}
	size = dwarf_bytesize(&type);
	if (dwarf_attr_integrate(&type, DW_AT_encoding, &attr) &&
	    !dwarf_formudata(&attr, &enc) &&
	    (enc == DW_ATE_float || enc == DW_ATE_complex_float)) {
		bp_arg_fail(e->c, "location converts to a floating-point type: not supported");
		return -EOPNOTSUPP;
	}
	if (size <= 0 || size >= 8)
		return 0;
	if (!v->width || v->width > size * 8) {
		v->width = size * 8;
		v->wsigned = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	}
	return 0;
}

/* The shift and mask ops a fetch can apply at the end: x >> K, x & (2^K-1). */
static int shift_mask(struct loc_eval *e, unsigned int op, struct bp_val *a, uint64_t k)
{
	int bits;

	if (a->off && a->f.nderef) {
		bp_arg_fail(e->c, "location needs %s of a value read from memory plus an offset: not supported",
			    op_name(op));
		return -EOPNOTSUPP;
	}
	a->f.add += a->off;
	a->off = 0;
	if (op == DW_OP_shr) {
		if (k >= 64 || a->shift + k >= 64 || (a->width && k >= a->width)) {
			bp_arg_fail(e->c, "location shifts by %" PRIu64 ": not supported", k);
			return -EOPNOTSUPP;
		}
		a->shift += k;
		if (a->width)
			a->width -= k;
		return 0;
	}
	/* DW_OP_and with a low-bits mask */
	if (k == UINT64_MAX)
		return 0;
	if (!k || (k & (k + 1))) {
		bp_arg_fail(e->c, "location masks with 0x%" PRIx64 " (%s): only low-bit masks are supported",
			    k, op_name(op));
		return -EOPNOTSUPP;
	}
	bits = __builtin_popcountll(k);
	if (!a->width || a->width > bits) {
		a->width = bits;
		a->wsigned = false;	/* the bits above the mask are 0 */
	}
	return 0;
}

static int binary_op(struct loc_eval *e, unsigned int op)
{
	struct bp_val *a, *b;

	if (e->sp < 2)
		return underflow(e, op);
	a = &e->stack[e->sp - 2];
	b = &e->stack[e->sp - 1];
	if ((op == DW_OP_plus || op == DW_OP_and) && is_const(a) && !is_const(b)) {
		struct bp_val t = *a;

		*a = *b;
		*b = t;
	}
	if (!is_const(b)) {
		bp_arg_fail(e->c, "location needs %s of two run-time values: not supported",
			    op_name(op));
		return -EOPNOTSUPP;
	}
	if (op == DW_OP_shr || op == DW_OP_and) {
		int err = is_const(a) ? 0 : shift_mask(e, op, a, (uint64_t)(b->f.add + b->off));

		if (err)
			return err;
		if (is_const(a)) {
			uint64_t x = a->f.add + a->off, y = b->f.add + b->off;

			a->f.add = op == DW_OP_shr ? (y < 64 ? x >> y : 0) : x & y;
			a->off = 0;
		}
		e->sp--;
		return 0;
	}
	if (a->shift || a->width) {
		bp_arg_fail(e->c, "location needs %s after a shift or mask: not supported",
			    op_name(op));
		return -EOPNOTSUPP;
	}
	a->off = op == DW_OP_plus ? a->off + (b->f.add + b->off)
				  : a->off - (b->f.add + b->off);
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
		piece_from_val(p, &e->stack[0]);
		p->lvalue = e->state == LOC_MEM;
		if (p->lvalue && (p->shift || p->width)) {
			bp_arg_fail(e->c, "location is memory at a shifted or masked address: not supported");
			return -EOPNOTSUPP;
		}
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
	case DW_OP_form_tls_address:
	case DW_OP_GNU_push_tls_address:
		bp_arg_fail(e->c, "thread-local (%s): its address depends on the thread, which a probe cannot tell from pt_regs: not supported",
			    op_name(op->atom));
		break;
	case DW_OP_implicit_pointer:
	case DW_OP_GNU_implicit_pointer:
		bp_arg_fail(e->c, "a pointer to a value that exists only in the debug info (%s): not supported",
			    op_name(op->atom));
		break;
	case DW_OP_GNU_parameter_ref:
		bp_arg_fail(e->c, "optimized out (%s: only the caller knows it)",
			    op_name(op->atom));
		return -ENOENT;
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
		if (v->shift || v->width) {
			bp_arg_fail(e->c, "location needs %s after a shift or mask: not supported",
				    op_name(a));
			return -EOPNOTSUPP;
		}
		v->off += (int64_t)op->number;
		return 0;
	case DW_OP_plus:
	case DW_OP_minus:
	case DW_OP_shr:
	case DW_OP_and:
		return binary_op(e, a);
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
static int eval(const struct bp_arg_ctx *c, Dwarf_Attribute *attr, int depth,
		Dwarf_Op *ops, size_t nops, struct bp_val *out)
{
	struct loc_eval e = { .c = c, .attr = attr, .depth = depth };
	size_t i;
	int err;

	for (i = 0; i < nops; i++) {
		err = step(&e, &ops[i]);
		if (err)
			return err;
	}
	memset(out, 0, sizeof(*out));
	if (e.npieces) {
		if (e.sp) {
			bp_arg_fail(c, "malformed location expression (ops after the last DW_OP_piece)");
			return -EINVAL;
		}
		memcpy(out->pieces, e.pieces, e.npieces * sizeof(e.pieces[0]));
		out->npieces = e.npieces;
		return 0;
	}
	if (!e.sp) {
		bp_arg_fail(c, "empty location expression");
		return -EINVAL;
	}
	*out = e.stack[e.sp - 1];
	out->lvalue = e.state == LOC_MEM;
	if (out->lvalue && (out->shift || out->width)) {
		bp_arg_fail(c, "location is memory at a shifted or masked address: not supported");
		return -EOPNOTSUPP;
	}
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
		return unavailable(c, -ENOENT, "optimized out", "it has no location");
	}
	n = dwarf_getlocation_addr(&attr, c->addr, &ops, &nops, 1);
	if (n < 0) {
		bp_arg_fail(c, "cannot read its location: %s", dwarf_errmsg(-1));
		return -EINVAL;
	}
	if (n == 0 || nops == 0)
		return unavailable(c, -ENOENT, "optimized out", NULL);
	describe(c, &attr, ops, nops, desc, desclen);
	err = eval(c, &attr, 0, ops, nops, val);
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
	while ((off = dwarf_getlocations(&attr, off, &base, &start, &end, &ops, &nops)) > 0) {
		if (!nops || start >= end)
			continue;
		cb(start, end, is_entry_value(ops, nops), ctx);
		n++;
	}
	return n;
}
