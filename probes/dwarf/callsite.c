// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A parameter whose value only the callers know (DW_OP_GNU_parameter_ref):
 * gcc's clones (.isra, .constprop, .part) drop parameters they do not
 * need, and their DWARF says the value is what the caller passed. Each
 * call site of the clone (DW_TAG_call_site) describes it
 * (DW_TAG_call_site_parameter, DW_AT_call_value) as an expression over the
 * caller's registers at the call, which are the clone's registers at its
 * entry: the value is computed from what the entry probe saves (entry
 * values, prologue/entry_save.h), the caller's stack pointer being the
 * clone's CFA. Several call sites that differ are told apart by the
 * return address at the CFA; a return address none of them has fails the
 * fetch.
 *
 * The call sites of every function are indexed once per binary, the first
 * time one is asked for.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/types.h"
#include "prologue/arch.h"
#include "util/grow.h"

#define MAX_SITES_LISTED	4
#define MAX_XLATE_DEPTH		2
#define MAX_WALK_DEPTH		64

/* A DIE, as something to compare: which file's DWARF, and where. */
struct die_key {
	const void *dbg;
	Dwarf_Off off;
};

struct site {
	struct die_key origin;	/* the function called */
	Dwarf_Die die;		/* the DW_TAG_call_site */
	Dwarf_Die caller;	/* the out-of-line function making the call */
};

struct bp_callsite_index {
	struct site *v;
	size_t n, cap;
};

static struct die_key key_of(Dwarf_Die *die)
{
	return (struct die_key){ .dbg = dwarf_cu_getdwarf(die->cu), .off = dwarf_dieoffset(die) };
}

static int key_cmp(const struct die_key *a, const struct die_key *b)
{
	if (a->dbg != b->dbg)
		return a->dbg < b->dbg ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

static int site_cmp(const void *a, const void *b)
{
	return key_cmp(&((const struct site *)a)->origin, &((const struct site *)b)->origin);
}

static bool is_call_site(int tag)
{
	return tag == DW_TAG_call_site || tag == DW_TAG_GNU_call_site;
}

/* The function a call site calls (DWARF 5, or gcc's DWARF 4 extension). */
static bool call_origin(Dwarf_Die *site, Dwarf_Die *origin)
{
	Dwarf_Attribute attr;

	return (dwarf_attr(site, DW_AT_call_origin, &attr) ||
		dwarf_attr(site, DW_AT_abstract_origin, &attr)) &&
	       dwarf_formref_die(&attr, origin);
}

static int walk(struct bp_callsite_index *idx, Dwarf_Die *parent, Dwarf_Die *caller, int depth)
{
	Dwarf_Die child, origin;
	int tag, err = 0;

	if (depth > MAX_WALK_DEPTH || dwarf_child(parent, &child))
		return 0;
	do {
		tag = dwarf_tag(&child);
		if (is_call_site(tag)) {
			if (!caller || !call_origin(&child, &origin))
				continue;
			if (bp_grow((void **)&idx->v, idx->n, &idx->cap, sizeof(*idx->v), 256))
				return -ENOMEM;
			idx->v[idx->n++] = (struct site){
				.origin = key_of(&origin), .die = child, .caller = *caller,
			};
			continue;
		}
		switch (tag) {
		case DW_TAG_subprogram:
			err = walk(idx, &child, &child, depth + 1);
			break;
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			err = walk(idx, &child, tag == DW_TAG_inlined_subroutine ||
					  tag == DW_TAG_lexical_block ? caller : NULL, depth + 1);
			break;
		}
	} while (!err && !dwarf_siblingof(&child, &child));
	return err;
}

static void index_free(struct bp_callsite_index *idx)
{
	if (idx)
		free(idx->v);
	free(idx);
}

static int index_get(const struct bp_debuginfo *di, struct bp_callsite_index **out)
{
	struct bp_callsite_index *idx;
	Dwarf_Die cudie, subdie;
	Dwarf_CU *cu = NULL;
	uint8_t unit_type;
	int err = 0;

	if (di->cache->callsites) {
		*out = di->cache->callsites;
		return 0;
	}
	idx = calloc(1, sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	while (!err && !dwarf_get_units(di->dwarf, cu, &cu, NULL, &unit_type, &cudie, &subdie)) {
		if (unit_type == DW_UT_compile || unit_type == DW_UT_skeleton)
			err = walk(idx, unit_type == DW_UT_skeleton ? &subdie : &cudie, NULL, 0);
	}
	if (err) {
		index_free(idx);
		return err;
	}
	qsort(idx->v, idx->n, sizeof(*idx->v), site_cmp);
	di->cache->callsites = idx;
	di->cache->free_callsites = index_free;
	*out = idx;
	return 0;
}

/* The first site calling key, or idx->n. */
static size_t first_site(const struct bp_callsite_index *idx, const struct die_key *key)
{
	size_t lo = 0, hi = idx->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_cmp(&idx->v[mid].origin, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* --- one call site's value, as the callee sees it at its entry ------------- */

struct xlate {
	const struct bp_arg_ctx *c;
	struct bp_expr *x;
	const struct site *s;
	Dwarf_Attribute *value;	/* the DW_AT_call_value (for nested ops) */
	uint64_t return_pc;
};

static int xpush(struct xlate *t, int op, uint8_t reg, uint8_t size, uint8_t flags, int64_t imm)
{
	if (bp_expr__push(t->x, op, reg, size, flags, imm))
		return 0;
	bp_arg_fail(t->c, "its value at the call sites needs a fetch expression of more than %d operations: not supported",
		    BP_EXPR_MAX_OPS);
	return -E2BIG;
}

/* The caller's register reg at the call, plus off: the callee's at its
 * entry (the stack pointer: the callee's CFA). */
static int reg_at_call(struct xlate *t, uint64_t reg, int64_t off)
{
	const struct bp_arg_ctx *c = t->c;
	int err;

	if (reg == (uint64_t)bp_arch__sp_reg()) {
		err = bp_loc__cfa_expr(c, t->x);
		return err ?: (off ? xpush(t, BP_XOP_PLUS_CONST, 0, 0, 0, off) : 0);
	}
	if (reg >= 256 || bp_arch__pt_regs_off((int)reg) < 0) {
		char buf[32];

		bp_arg_fail(c, "the callers pass it in %s, which pt_regs does not hold",
			    bp_arch__reg_text((int)reg, buf, sizeof(buf)));
		return -EOPNOTSUPP;
	}
	if (c->func_entry && c->addr == c->func_entry)
		return xpush(t, BP_XOP_REG, (uint8_t)reg, 0, 0, off);
	if (c->kernel) {
		bp_arg_fail(c, "only its callers know it (DW_OP_GNU_parameter_ref), which needs entry values: not supported in kernel probes");
		return -EOPNOTSUPP;
	}
	err = bp_loc__cfa_expr(c, t->x) ?:
	      xpush(t, BP_XOP_ENTRY_REG, (uint8_t)reg, 0, 0, (int64_t)c->func_entry);
	return err ?: (off ? xpush(t, BP_XOP_PLUS_CONST, 0, 0, 0, off) : 0);
}

static int xlate_ops(struct xlate *t, Dwarf_Op *ops, size_t nops, int depth);

/* The caller's CFA at the call: its CFI rule at the return address. */
static int caller_cfa(struct xlate *t, int depth)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t nops;
	int err;

	if (bp_debuginfo__cfa(t->c->di, t->return_pc, &frame, &ops, &nops)) {
		bp_arg_fail(t->c, "no call frame information at its call site 0x%" PRIx64,
			    t->return_pc);
		return -ENOENT;
	}
	err = xlate_ops(t, ops, nops, depth + 1);
	free(frame);
	return err;
}

/* The caller's frame base at the call. */
static int caller_frame_base(struct xlate *t, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Die caller = t->s->caller;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr_integrate(&caller, DW_AT_frame_base, &attr) ||
	    dwarf_getlocation_addr(&attr, t->return_pc, &ops, &nops, 1) <= 0 || !nops) {
		bp_arg_fail(t->c, "the caller's frame base is unknown at its call site 0x%" PRIx64,
			    t->return_pc);
		return -ENOENT;
	}
	return xlate_ops(t, ops, nops, depth + 1);
}

/*
 * DW_OP_entry_value(DW_OP_regN) in what the caller passes: the caller's
 * own entry value, which the entry probe of the caller saves, found by the
 * caller's CFA.
 */
static int caller_entry_value(struct xlate *t, Dwarf_Attribute *attr, const Dwarf_Op *op,
			      int depth)
{
	Dwarf_Die caller = t->s->caller;
	Dwarf_Attribute sub;
	Dwarf_Op *ops;
	uint64_t entry, end;
	size_t nops;
	int err;

	if (dwarf_getlocation_attr(attr, op, &sub) || dwarf_getlocation(&sub, &ops, &nops) ||
	    nops != 1 || ops[0].atom < DW_OP_reg0 || ops[0].atom > DW_OP_reg31 ||
	    bp_arch__pt_regs_off(ops[0].atom - DW_OP_reg0) < 0) {
		bp_arg_fail(t->c, "only its callers know it (DW_OP_GNU_parameter_ref), and the call site at 0x%" PRIx64 " passes an entry value of the caller that is not a register's",
			    t->return_pc);
		return -EOPNOTSUPP;
	}
	if (!bp_func__code(&caller, &entry, &end) || t->c->kernel) {
		bp_arg_fail(t->c, "only its callers know it (DW_OP_GNU_parameter_ref), and the call site at 0x%" PRIx64 " passes an entry value of a caller whose entry is unknown",
			    t->return_pc);
		return -EOPNOTSUPP;
	}
	err = caller_cfa(t, depth);
	return err ?: xpush(t, BP_XOP_ENTRY_REG, (uint8_t)(ops[0].atom - DW_OP_reg0), 0, 0,
			    (int64_t)entry);
}

static int xlate_op(struct xlate *t, const Dwarf_Op *op, int depth)
{
	unsigned int a = op->atom;
	uint8_t user = t->c->user ? BP_XF_USER : 0;
	int err;

	if (a >= DW_OP_lit0 && a <= DW_OP_lit31)
		return xpush(t, BP_XOP_CONST, 0, 0, 0, a - DW_OP_lit0);
	if (a >= DW_OP_breg0 && a <= DW_OP_breg31)
		return reg_at_call(t, a - DW_OP_breg0, (int64_t)op->number);
	if (a >= DW_OP_reg0 && a <= DW_OP_reg31)
		return reg_at_call(t, a - DW_OP_reg0, 0);
	switch (a) {
	case DW_OP_bregx:
		return reg_at_call(t, op->number, (int64_t)op->number2);
	case DW_OP_regx:
		return reg_at_call(t, op->number, 0);
	case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
	case DW_OP_const8u: case DW_OP_constu:
	case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
	case DW_OP_const8s: case DW_OP_consts:
		return xpush(t, BP_XOP_CONST, 0, 0, 0, (int64_t)op->number);
	case DW_OP_addr:
		return xpush(t, BP_XOP_ADDR, 0, 0, 0, (int64_t)op->number);
	case DW_OP_plus_uconst:
		return xpush(t, BP_XOP_PLUS_CONST, 0, 0, 0, (int64_t)op->number);
	case DW_OP_deref:
		return xpush(t, BP_XOP_DEREF, 0, 8, user, 0);
	case DW_OP_deref_size:
		if (op->number != 1 && op->number != 2 && op->number != 4 && op->number != 8)
			break;
		return xpush(t, BP_XOP_DEREF, 0, (uint8_t)op->number, user, 0);
	case DW_OP_plus: return xpush(t, BP_XOP_ADD, 0, 0, 0, 0);
	case DW_OP_minus: return xpush(t, BP_XOP_SUB, 0, 0, 0, 0);
	case DW_OP_mul: return xpush(t, BP_XOP_MUL, 0, 0, 0, 0);
	case DW_OP_and: return xpush(t, BP_XOP_AND, 0, 0, 0, 0);
	case DW_OP_or: return xpush(t, BP_XOP_OR, 0, 0, 0, 0);
	case DW_OP_xor: return xpush(t, BP_XOP_XOR, 0, 0, 0, 0);
	case DW_OP_shl: return xpush(t, BP_XOP_SHL, 0, 0, 0, 0);
	case DW_OP_shr: return xpush(t, BP_XOP_SHR, 0, 0, 0, 0);
	case DW_OP_shra: return xpush(t, BP_XOP_SHRA, 0, 0, 0, 0);
	case DW_OP_neg: return xpush(t, BP_XOP_NEG, 0, 0, 0, 0);
	case DW_OP_not: return xpush(t, BP_XOP_NOT, 0, 0, 0, 0);
	case DW_OP_dup: return xpush(t, BP_XOP_DUP, 0, 0, 0, 0);
	case DW_OP_drop: return xpush(t, BP_XOP_DROP, 0, 0, 0, 0);
	case DW_OP_swap: return xpush(t, BP_XOP_SWAP, 0, 0, 0, 0);
	case DW_OP_over: return xpush(t, BP_XOP_OVER, 0, 0, 0, 0);
	case DW_OP_stack_value:
	case DW_OP_nop:
		return 0;
	case DW_OP_call_frame_cfa:
		if (depth < MAX_XLATE_DEPTH)
			return caller_cfa(t, depth);
		break;
	case DW_OP_entry_value:
	case DW_OP_GNU_entry_value:
		if (depth < MAX_XLATE_DEPTH)
			return caller_entry_value(t, t->value, op, depth);
		break;
	case DW_OP_fbreg:
		if (depth >= MAX_XLATE_DEPTH)
			break;
		err = caller_frame_base(t, depth);
		return err ?: (op->number ? xpush(t, BP_XOP_PLUS_CONST, 0, 0, 0, (int64_t)op->number) : 0);
	}
	{
		char name[32];

		bp_arg_fail(t->c, "only its callers know it (DW_OP_GNU_parameter_ref), and the call site at 0x%" PRIx64 " describes it with %s, which a probe in the callee cannot compute",
			    t->return_pc, bp_dw_op_name(a, name, sizeof(name)));
	}
	return -EOPNOTSUPP;
}

static int xlate_ops(struct xlate *t, Dwarf_Op *ops, size_t nops, int depth)
{
	int err = 0;

	for (size_t i = 0; i < nops && !err; i++)
		err = xlate_op(t, &ops[i], depth);
	return err;
}

/* --- the parameter ----------------------------------------------------------- */

/* What one call site passes for param: its DW_AT_call_value, or none. */
static bool site_value(const struct site *s, Dwarf_Die *param, Dwarf_Attribute *value)
{
	struct die_key want = key_of(param), got;
	Dwarf_Attribute attr;
	Dwarf_Die child, ref, site = s->die;

	if (dwarf_child(&site, &child))
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (tag != DW_TAG_call_site_parameter && tag != DW_TAG_GNU_call_site_parameter)
			continue;
		if (!(dwarf_attr(&child, DW_AT_call_parameter, &attr) ||
		      dwarf_attr(&child, DW_AT_abstract_origin, &attr)) ||
		    !dwarf_formref_die(&attr, &ref))
			continue;
		got = key_of(&ref);
		if (key_cmp(&got, &want))
			continue;
		return dwarf_attr(&child, DW_AT_call_value, value) ||
		       dwarf_attr(&child, DW_AT_GNU_call_site_value, value);
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

static uint64_t return_pc(const struct site *s)
{
	Dwarf_Attribute attr;
	Dwarf_Die site = s->die;
	Dwarf_Addr pc = 0;

	if (dwarf_attr(&site, DW_AT_call_return_pc, &attr) ||
	    dwarf_attr(&site, DW_AT_low_pc, &attr))
		dwarf_formaddr(&attr, &pc);
	return pc;
}

static bool same_ops(Dwarf_Op *a, size_t na, Dwarf_Op *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (a[i].atom != b[i].atom || a[i].number != b[i].number ||
		    a[i].number2 != b[i].number2)
			return false;
	return true;
}

/* One site's value, appended to x. */
static int site_expr(const struct bp_arg_ctx *c, const struct site *s,
		     Dwarf_Attribute *value, struct bp_expr *x)
{
	struct xlate t = { .c = c, .x = x, .s = s, .value = value, .return_pc = return_pc(s) };
	Dwarf_Op *ops;
	size_t nops;

	if (dwarf_getlocation(value, &ops, &nops) || !nops) {
		bp_arg_fail(c, "cannot read what the call site at 0x%" PRIx64 " passes", t.return_pc);
		return -EINVAL;
	}
	return xlate_ops(&t, ops, nops, 0);
}

/* "0x1234, 0x1250, ..." */
static void list_sites(const struct site *v, size_t n, char *buf, size_t len)
{
	size_t i, pos = 0;

	buf[0] = '\0';
	for (i = 0; i < n && i < MAX_SITES_LISTED && pos < len; i++)
		pos += snprintf(buf + pos, len - pos, "%s0x%" PRIx64, i ? ", " : "", return_pc(&v[i]));
	if (n > MAX_SITES_LISTED && pos < len)
		snprintf(buf + pos, len - pos, ", ...");
}

/*
 * The values differ between the sites: the return address at the CFA
 * says which site called, each branch computes its own.
 *
 *	RA (*(CFA - 8))
 *	dup; @ret_k; ==; bra -> site_k		for each site
 *	drop; 0; deref			; no site of ours: the fetch fails
 *	skip -> end
 *   site_k:
 *	drop; <value_k>; skip -> end
 */
static int dispatch(const struct bp_arg_ctx *c, const struct site *v, size_t n,
		    Dwarf_Attribute *values, struct bp_expr *x)
{
	int bra_at[64], skip_at[64], i, err;
	int nskips = 0;

	if (n > 64)
		return -E2BIG;
	err = bp_loc__cfa_expr(c, x);
	if (!err && !bp_expr__push(x, BP_XOP_DEREF, 0, 8, c->user ? BP_XF_USER : 0,
				   -(int64_t)bp_arch__entry_cfa_off()))
		err = -E2BIG;
	for (i = 0; i < (int)n && !err; i++) {
		bra_at[i] = x->nops + 3;
		if (!bp_expr__push(x, BP_XOP_DUP, 0, 0, 0, 0) ||
		    !bp_expr__push(x, BP_XOP_ADDR, 0, 0, 0, (int64_t)return_pc(&v[i])) ||
		    !bp_expr__push(x, BP_XOP_EQ, 0, 0, 0, 0) ||
		    !bp_expr__push(x, BP_XOP_BRA, 0, 0, 0, 0))
			err = -E2BIG;
	}
	if (!err) {
		skip_at[nskips++] = x->nops + 3;
		if (!bp_expr__push(x, BP_XOP_DROP, 0, 0, 0, 0) ||
		    !bp_expr__push(x, BP_XOP_CONST, 0, 0, 0, 0) ||
		    !bp_expr__push(x, BP_XOP_DEREF, 0, 8, BP_XF_USER, 0) ||
		    !bp_expr__push(x, BP_XOP_SKIP, 0, 0, 0, 0))
			err = -E2BIG;
	}
	for (i = 0; i < (int)n && !err; i++) {
		x->ops[bra_at[i]].imm = x->nops - bra_at[i] - 1;
		if (!bp_expr__push(x, BP_XOP_DROP, 0, 0, 0, 0)) {
			err = -E2BIG;
			break;
		}
		err = site_expr(c, &v[i], &values[i], x);
		if (err)
			return err;
		if (i + 1 < (int)n) {
			skip_at[nskips++] = x->nops;
			if (!bp_expr__push(x, BP_XOP_SKIP, 0, 0, 0, 0))
				err = -E2BIG;
		}
	}
	if (err == -E2BIG) {
		bp_arg_fail(c, "its %zu call sites need a fetch expression of more than %d operations to tell apart: not supported",
			    n, BP_EXPR_MAX_OPS);
		return err;
	}
	for (i = 0; i < nskips && !err; i++)
		x->ops[skip_at[i]].imm = x->nops - skip_at[i] - 1;
	return err;
}

int bp_val__param_ref(const struct bp_arg_ctx *c, Dwarf_Die *param, struct bp_val *v)
{
	Dwarf_Die *fn = c->frame ? c->frame : c->func;
	struct bp_callsite_index *idx;
	struct die_key key = key_of(fn);
	Dwarf_Attribute values[64];
	struct site with[64];
	size_t nv = 0, missing = 0;
	Dwarf_Op *ops0 = NULL, *ops;
	size_t first, n, i, nops0 = 0, nops;
	struct bp_expr x = {};
	char sites[256];
	bool same = true;
	int err;

	err = index_get(c->di, &idx);
	if (err)
		return err;
	first = first_site(idx, &key);
	for (n = 0; first + n < idx->n && !key_cmp(&idx->v[first + n].origin, &key); n++)
		;
	if (!n) {
		snprintf(sites, sizeof(sites), "only its callers know it (DW_OP_GNU_parameter_ref), and no call site of %s is described",
			 bp_loc__frame_name(c));
		return bp_loc__unavailable(c, -ENOENT, "optimized out", sites);
	}
	if (n > 64) {
		bp_arg_fail(c, "only its callers know it (DW_OP_GNU_parameter_ref), at %zu call sites: too many to tell apart",
			    n);
		return -E2BIG;
	}
	/* the sites that say what they pass; the others fail at run time */
	for (i = 0; i < n; i++) {
		if (!site_value(&idx->v[first + i], param, &values[nv])) {
			missing++;
			continue;
		}
		if (dwarf_getlocation(&values[nv], &ops, &nops) || !nops) {
			bp_arg_fail(c, "cannot read what a call site of %s passes",
				    bp_loc__frame_name(c));
			return -EINVAL;
		}
		if (!nv)
			ops0 = ops, nops0 = nops;
		else if (!same_ops(ops0, nops0, ops, nops))
			same = false;
		with[nv++] = idx->v[first + i];
	}
	if (!nv) {
		char why[320];

		list_sites(&idx->v[first], n, sites, sizeof(sites));
		snprintf(why, sizeof(why), "only its callers know it (DW_OP_GNU_parameter_ref), and none of its %zu call sites (%s) says what it passes",
			 n, sites);
		return bp_loc__unavailable(c, -ENOENT, "optimized out", why);
	}
	/* one value whoever calls: no need to know who did */
	err = same && !missing ? site_expr(c, &with[0], &values[0], &x)
			       : dispatch(c, with, nv, values, &x);
	if (err)
		return err;
	memset(v, 0, sizeof(*v));
	v->f.base = BP_BASE_EXPR;
	v->f.expr = x;
	v->f.anchor = c->addr;
	v->f.anchor_kind = c->at_return ? BP_ANCHOR_FUNC_IP : BP_ANCHOR_IP;
	return 0;
}
