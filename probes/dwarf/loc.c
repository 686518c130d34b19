// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * DWARF location expressions -> a value being built (struct bp_val): the
 * entry points. A variable's value at an address (its location there, a
 * location view, or a constant: DW_AT_const_value), an implicit pointer's
 * target, the CFA as fetch ops, where a variable's location changes. The
 * expressions themselves are run by the evaluator (loc_eval.h):
 *   loc_stack.c     the symbolic stack and what pushes onto it
 *   loc_ops.c       typed ops, arithmetic, ops that name more DWARF
 *   loc_eval.c      nested expressions, one op, locations with branches
 *                   (DW_OP_bra, DW_OP_skip), a whole expression, the CFA
 *   loc_describe.c  a location in words, for messages
 * and a value's dereference and pieces are probes/value/val_pieces.c's.
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
#include "probes/dwarf/loclist.h"
#include "probes/dwarf/types.h"
#include "util/log.h"

static bool is_entry_value(const Dwarf_Op *ops, size_t nops)
{
	size_t i;

	for (i = 0; i < nops; i++) {
		if (ops[i].atom == DW_OP_entry_value || ops[i].atom == DW_OP_GNU_entry_value)
			return true;
	}
	return false;
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
		err = bp_loc_const_bytes(c, block.data, block.length, val);
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
	bp_loc_describe(c, &attr, ops, nops, desc, desclen);
	if (view)
		append(desc, desclen, " (location view)");
	/* gcc's mark of a value not yet initialized: the location still
	 * holds what the variable has, as gdb shows it */
	if (buf.uninit)
		append(desc, desclen, " (uninitialized: DW_OP_GNU_uninit)");
	first = c->diag && !c->diag->failed;
	err = bp_loc_eval(c, &attr, 0, ops, nops, val);
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
	Dwarf_Die die, tmem;
	char desc[160];
	long size;
	int err;

	bp_implicit__die(&im, &die);
	err = bp_loc__var(c, &die, &t, desc, sizeof(desc));
	if (err)
		return err;
	if (!t.lvalue && !t.npieces && !t.implicit.set) {
		/* the object is a value (a register, a constant of up to 8
		 * bytes): its bytes; a string constant's array type may have
		 * no bound, and a register holds 8 */
		size = bp_type_size(bp_die_type(&die, &tmem));
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
