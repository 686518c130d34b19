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

/* An inlined copy's first address and the view it starts at there. */
static bool copy_entry(Dwarf_Die *copy, uint64_t *entry, uint64_t *view)
{
	Dwarf_Attribute attr;
	Dwarf_Word v = 0;
	uint64_t end;

	if (dwarf_tag(copy) != DW_TAG_inlined_subroutine || !bp_inline__code(copy, entry, &end))
		return false;
	if (dwarf_attr(copy, DW_AT_GNU_entry_view, &attr))
		dwarf_formudata(&attr, &v);
	*view = v;
	return true;
}

/*
 * When c->addr is a function's entry, the view of it the probe stands at:
 * an inlined copy's entry_pc, its DW_AT_GNU_entry_view (the copy probed,
 * else the innermost copy that starts at addr); an out-of-line copy's
 * entry, view 0 (where its caller left it).
 */
static bool entry_view(const struct bp_arg_ctx *c, uint64_t *view)
{
	Dwarf_Die *scopes = NULL;
	uint64_t entry;
	bool found = false;
	int i, n;

	if (c->dw->frame && copy_entry(c->dw->func, &entry, view) && entry == c->addr)
		return true;
	if (c->func_entry && c->addr == c->func_entry) {
		*view = 0;
		return true;
	}
	n = bp_scopes__around(frame_func(c), c->addr, &scopes);
	for (i = 0; i < n && !found; i++)
		found = copy_entry(&scopes[i], &entry, view) && entry == c->addr;
	free(scopes);
	return found;
}

/* Whether the entry cand holds at view v of its address. */
static bool holds_at_view(const struct bp_loclist_cand *cand, uint64_t v)
{
	if (!cand->empty)
		return cand->vbegin <= v;
	return cand->vbegin <= v && (cand->vend <= cand->vbegin || v < cand->vend);
}

#define MAX_CANDS	8

/*
 * At a function's entry several entries of a list may hold at once, for
 * different views (an empty range [addr, addr) "views 0..3: rdi", then
 * [addr, ...) "view 3 on: constant 0" after a source-level assignment no
 * instruction does): the one holding at the entry's view, else the one
 * with the lowest view. Returns 1 with ops and *is_view (an empty range
 * chosen), 0 to take today's rules (not an entry, one entry or none
 * there), -1 with buf->err set.
 */
static int entry_location(const struct bp_arg_ctx *c, Dwarf_Die *var, Dwarf_Attribute *attr,
			  Dwarf_Op **ops, size_t *nops, struct bp_loclist_ops *buf,
			  bool *is_view)
{
	struct bp_loclist_cand v[MAX_CANDS];
	uint64_t view;
	int n, i, pick = -1;

	n = bp_loclist__cands(var, attr, c->addr, v, MAX_CANDS, buf);
	if (n <= 1)
		return n < 0 ? -1 : 0;
	if (!entry_view(c, &view))
		return 0;
	for (i = 0; i < n && pick < 0; i++)
		if (v[i].has_views && holds_at_view(&v[i], view))
			pick = i;
	if (pick < 0) {
		/* the lowest view, the first in list order among equals */
		pick = 0;
		for (i = 1; i < n; i++)
			if (v[i].vbegin < v[pick].vbegin)
				pick = i;
	}
	*is_view = v[pick].empty;
	return bp_loclist__nth(attr, v[pick].index, ops, nops, buf);
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
	bool first, at_view = false;

	if (!dwarf_attr_integrate(var, DW_AT_location, &attr)) {
		if (dwarf_attr_integrate(var, DW_AT_const_value, &attr))
			return const_value(c, &attr, val, desc, desclen);
		return bp_arg__unavailable(c, -ENOENT, "optimized out", "it has no location");
	}
	/* the ops read where libdw cannot (DW_OP_GNU_uninit) live in buf */
	n = entry_location(c, var, &attr, &ops, &nops, &buf, &at_view);
	if (n > 0)
		view = at_view;
	else if (n == 0)
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
