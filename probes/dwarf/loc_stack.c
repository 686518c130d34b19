// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The location evaluator's symbolic stack (loc_eval.h): an evaluation's
 * state, what pushes a register, a constant or an address onto the stack,
 * the top, the registers a probe can read, and the messages about ops.
 * The ops (loc_ops.c) and the evaluator proper (loc_eval.c) build on it.
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
#include "probes/dwarf/loc_eval.h"
#include "probes/dwarf/types.h"
#include "prologue/arch.h"

/*
 * An evaluation's state (large: values that may hold expressions), on the
 * heap, zeroed but for the stack, which bp_loc_push_val() writes before
 * anything reads it: zeroing it would touch tens of KiB no evaluation uses.
 */
struct loc_eval *bp_loc_new_eval(void)
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

const char *bp_loc_op_name(unsigned int op)
{
	static __thread char buf[32];

	return bp_dw_op_name(op, buf, sizeof(buf));
}

/* A constant of len bytes (little-endian): one value, or 8-byte pieces. */
int bp_loc_const_bytes(const struct bp_arg_ctx *c, const unsigned char *data,
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

int bp_loc_check_reg(const struct bp_arg_ctx *c, uint64_t reg)
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

int bp_loc_push_val(struct loc_eval *e, const struct bp_val *v)
{
	if (e->sp >= STACK_MAX) {
		bp_arg_fail(e->c, "location expression is too deep");
		return -E2BIG;
	}
	e->stack[e->sp++] = *v;
	return 0;
}

int bp_loc_push(struct loc_eval *e, enum bp_base_kind base, uint8_t reg, int64_t off)
{
	struct bp_val v = { .f = { .base = base, .reg = reg }, .off = off };

	return bp_loc_push_val(e, &v);
}

int bp_loc_push_reg(struct loc_eval *e, uint64_t reg, int64_t off)
{
	int err = bp_loc_check_reg(e->c, reg);

	return err ? err : bp_loc_push(e, BP_BASE_REG, (uint8_t)reg, off);
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
int bp_loc_push_addr(struct loc_eval *e, uint64_t addr)
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
	return bp_loc_push_val(e, &v);
}

int bp_loc_underflow(struct loc_eval *e, unsigned int op)
{
	bp_arg_fail(e->c, "malformed location expression (%s on an empty stack)",
		    bp_loc_op_name(op));
	return -EINVAL;
}

bool bp_loc_op_is_reg(const Dwarf_Op *op, uint64_t *reg)
{
	if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31)
		*reg = op->atom - DW_OP_reg0;
	else if (op->atom == DW_OP_regx)
		*reg = op->number;
	else
		return false;
	return true;
}

bool bp_loc_op_is_breg(const Dwarf_Op *op, uint64_t *reg, int64_t *off)
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

int bp_loc_unsupported(struct loc_eval *e, const Dwarf_Op *op)
{
	switch (op->atom) {
	default:
		bp_arg_fail(e->c, "location uses %s: not supported",
			    bp_loc_op_name(op->atom));
		break;
	}
	return -EOPNOTSUPP;
}

int bp_loc_top(struct loc_eval *e, unsigned int op, struct bp_val **v)
{
	if (!e->sp)
		return bp_loc_underflow(e, op);
	*v = &e->stack[e->sp - 1];
	return 0;
}
