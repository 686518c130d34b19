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
#include "probes/binary/unit_window.h"
#include "prologue/arch.h"
#include "util/grow.h"

#define MAX_SITES_LISTED	4
#define MAX_SITES		64	/* call sites of one function told apart */
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

/* di NULL: a DIE of di->dwarf or a DWZ file's (the walk's); else any,
 * the unit window's compared as di->dwarf's (unit_window.h) */
static struct die_key key_of(const struct bp_debuginfo *di, Dwarf_Die *die)
{
	const Dwarf *dbg = dwarf_cu_getdwarf(die->cu);

	return (struct die_key){ .dbg = di ? bp_unit_window__dwarf(di, dbg) : dbg,
				 .off = dwarf_dieoffset(die) };
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
				.origin = key_of(NULL, &origin), .die = child, .caller = *caller,
			};
			continue;
		}
		/* the caller: the function around, none in a namespace or class */
		if (bp_tag_holds_code(tag))
			err = walk(idx, &child, tag == DW_TAG_subprogram ? &child :
					 tag == DW_TAG_inlined_subroutine ||
					 tag == DW_TAG_lexical_block ? caller : NULL, depth + 1);
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
	bp_sort(idx->v, idx->n, sizeof(*idx->v), site_cmp);
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
	bp_cfa_expr_fn cfa;	/* the callee's CFA as ops (loc.c's) */
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
		err = t->cfa(c, t->x);
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
	err = t->cfa(c, t->x) ?:
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

	if (bp_debuginfo__cfa(t->c->dw->di, t->return_pc, &frame, &ops, &nops)) {
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
static bool site_value(const struct bp_debuginfo *di, const struct site *s, Dwarf_Die *param,
		       Dwarf_Attribute *value)
{
	struct die_key want = key_of(di, param), got;
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
		got = key_of(di, &ref);
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
static int site_expr(const struct bp_arg_ctx *c, bp_cfa_expr_fn cfa, const struct site *s,
		     Dwarf_Attribute *value, struct bp_expr *x)
{
	struct xlate t = { .c = c, .cfa = cfa, .x = x, .s = s, .value = value,
			   .return_pc = return_pc(s) };
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

/* What each call site passes: group g of the sites with the same value
 * (-1: it does not say), each group's value from its first site. */
struct site_values {
	const struct site *v;	/* the sites */
	size_t n;
	int group[MAX_SITES];
	Dwarf_Attribute value[MAX_SITES];	/* by group */
	int first[MAX_SITES];			/* a site of each group */
	int size[MAX_SITES];			/* sites in each group */
	int ngroups, missing;
	int deflt;		/* the group that needs no test, or -1 */
	bp_cfa_expr_fn cfa;	/* the callee's CFA as ops (loc.c's) */
};

static int push(struct bp_expr *x, int op, int64_t imm)
{
	return bp_expr__push(x, op, 0, op == BP_XOP_DEREF ? 8 : 0,
			     op == BP_XOP_DEREF ? BP_XF_USER : 0, imm) ? 0 : -E2BIG;
}

/*
 * The values differ between the sites (or some say nothing): the return
 * address at the CFA says which site called. Sites whose group is not
 * the default are tested, each group computing its value; the default
 * group (when the function is called from these sites only and all say
 * what they pass: the largest group) is what remains, else a failed
 * read.
 *
 *	RA (*(CFA - 8))
 *	dup; @ret_k; ==; bra -> group_g(k)	for each tested site k
 *	drop; <default value> | 0 deref		; the rest
 *	skip -> end
 *   group_g:				; and a failing one for sites
 *	drop; <value_g>; skip -> end	; that say nothing
 */
static int dispatch(const struct bp_arg_ctx *c, const struct site_values *sv, struct bp_expr *x)
{
	int bra_at[MAX_SITES], skip_at[MAX_SITES + 2], label[MAX_SITES + 1];
	int nbra = 0, nskips = 0, g, k, err;
	int fail = sv->ngroups;	/* the label of "it does not say" */

	err = sv->cfa(c, x);
	if (err)
		return err;
	if (!bp_expr__push(x, BP_XOP_DEREF, 0, 8, c->user ? BP_XF_USER : 0,
			   -(int64_t)bp_arch__entry_cfa_off()))
		return -E2BIG;
	for (k = 0; k < (int)sv->n && !err; k++) {
		if (sv->group[k] >= 0 && sv->group[k] == sv->deflt)
			continue;
		bra_at[nbra++] = x->nops + 3;
		err = push(x, BP_XOP_DUP, 0) ?:
		      (bp_expr__push(x, BP_XOP_ADDR, 0, 0, 0, (int64_t)return_pc(&sv->v[k])) ? 0 : -E2BIG) ?:
		      push(x, BP_XOP_EQ, 0) ?: push(x, BP_XOP_BRA, 0);
	}
	err = err ?: push(x, BP_XOP_DROP, 0);
	if (!err && sv->deflt >= 0)
		err = site_expr(c, sv->cfa, &sv->v[sv->first[sv->deflt]], (Dwarf_Attribute *)&sv->value[sv->deflt], x);
	else if (!err)
		err = push(x, BP_XOP_CONST, 0) ?: push(x, BP_XOP_DEREF, 0);
	skip_at[nskips++] = x->nops;
	err = err ?: push(x, BP_XOP_SKIP, 0);
	for (g = 0; g <= sv->ngroups && !err; g++) {
		label[g] = x->nops;
		if (g == sv->deflt || (g == fail && !sv->missing))
			continue;
		err = push(x, BP_XOP_DROP, 0);
		if (!err && g == fail)
			err = push(x, BP_XOP_CONST, 0) ?: push(x, BP_XOP_DEREF, 0);
		else if (!err)
			err = site_expr(c, sv->cfa, &sv->v[sv->first[g]], (Dwarf_Attribute *)&sv->value[g], x);
		skip_at[nskips++] = x->nops;
		err = err ?: push(x, BP_XOP_SKIP, 0);
	}
	if (err == -E2BIG) {
		bp_arg_fail(c, "its %zu call sites need a fetch expression of more than %d operations to tell apart: not supported",
			    sv->n, BP_EXPR_MAX_OPS);
		return err;
	}
	if (err)
		return err;
	/* the branches to their groups, the skips to the end */
	for (k = 0, nbra = 0; k < (int)sv->n; k++) {
		if (sv->group[k] >= 0 && sv->group[k] == sv->deflt)
			continue;
		g = sv->group[k] < 0 ? fail : sv->group[k];
		x->ops[bra_at[nbra]].imm = label[g] - bra_at[nbra] - 1;
		nbra++;
	}
	for (k = 0; k < nskips; k++)
		x->ops[skip_at[k]].imm = x->nops - skip_at[k] - 1;
	return 0;
}

/* Sorts the sites into groups of the same value. */
static int group_sites(const struct bp_arg_ctx *c, Dwarf_Die *param, struct site_values *sv)
{
	Dwarf_Op *ops, *gops[MAX_SITES];
	size_t nops, gn[MAX_SITES];
	Dwarf_Attribute value;
	int k, g;

	sv->ngroups = sv->missing = 0;
	for (k = 0; k < (int)sv->n; k++) {
		sv->group[k] = -1;
		if (!site_value(c->dw->di, &sv->v[k], param, &value)) {
			sv->missing++;
			continue;
		}
		if (dwarf_getlocation(&value, &ops, &nops) || !nops) {
			bp_arg_fail(c, "cannot read what a call site of %s passes",
				    bp_arg__frame_name(c));
			return -EINVAL;
		}
		for (g = 0; g < sv->ngroups && !same_ops(gops[g], gn[g], ops, nops); g++)
			;
		if (g == sv->ngroups) {
			gops[g] = ops;
			gn[g] = nops;
			sv->value[g] = value;
			sv->first[g] = k;
			sv->size[g] = 0;
			sv->ngroups++;
		}
		sv->group[k] = g;
		sv->size[g]++;
	}
	return 0;
}

/* DW_AT_call_all_calls (gcc's DW_AT_GNU_all_call_sites): every call of
 * fn is described, so its callers are these sites and no other. */
static bool all_calls_known(Dwarf_Die *fn)
{
	Dwarf_Attribute attr;
	bool flag;

	return (dwarf_attr_integrate(fn, DW_AT_call_all_calls, &attr) ||
		dwarf_attr_integrate(fn, DW_AT_GNU_all_call_sites, &attr)) &&
	       !dwarf_formflag(&attr, &flag) && flag;
}

int bp_val__param_ref(const struct bp_arg_ctx *c, Dwarf_Die *param, bp_cfa_expr_fn cfa,
		      struct bp_val *v)
{
	Dwarf_Die *fn = c->dw->frame ? c->dw->frame : c->dw->func;
	struct bp_callsite_index *idx;
	struct die_key key = key_of(c->dw->di, fn);
	struct site_values *sv;
	struct bp_expr x = {};
	char sites[256], why[320];
	size_t first, n;
	int err, g;

	err = index_get(c->dw->di, &idx);
	if (err)
		return err;
	first = first_site(idx, &key);
	for (n = 0; first + n < idx->n && !key_cmp(&idx->v[first + n].origin, &key); n++)
		;
	if (!n) {
		snprintf(why, sizeof(why), "only its callers know it (DW_OP_GNU_parameter_ref), and no call site of %s is described",
			 bp_arg__frame_name(c));
		return bp_arg__unavailable(c, -ENOENT, "optimized out", why);
	}
	if (n > MAX_SITES) {
		bp_arg_fail(c, "only its callers know it (DW_OP_GNU_parameter_ref), at %zu call sites: too many to tell apart",
			    n);
		return -E2BIG;
	}
	sv = calloc(1, sizeof(*sv));
	if (!sv)
		return -ENOMEM;
	sv->v = &idx->v[first];
	sv->n = n;
	sv->deflt = -1;
	sv->cfa = cfa;
	err = group_sites(c, param, sv);
	if (!err && !sv->ngroups) {
		list_sites(sv->v, n, sites, sizeof(sites));
		snprintf(why, sizeof(why), "only its callers know it (DW_OP_GNU_parameter_ref), and none of its %zu call sites (%s) says what it passes",
			 n, sites);
		err = bp_arg__unavailable(c, -ENOENT, "optimized out", why);
	}
	if (err)
		goto out;
	/* these sites are all its callers: the largest group needs no test */
	if (all_calls_known(fn) && !sv->missing)
		for (g = 0; g < sv->ngroups; g++)
			if (sv->deflt < 0 || sv->size[g] > sv->size[sv->deflt])
				sv->deflt = g;
	/* one value whoever calls: no need to know who did */
	if (sv->ngroups == 1 && sv->deflt == 0)
		err = site_expr(c, cfa, &sv->v[sv->first[0]], &sv->value[0], &x);
	else
		err = dispatch(c, sv, &x);
	if (err)
		goto out;
	memset(v, 0, sizeof(*v));
	v->f.base = BP_BASE_EXPR;
	v->f.expr = x;
	v->f.anchor = c->addr;
	v->f.anchor_kind = c->at_return ? BP_ANCHOR_FUNC_IP : BP_ANCHOR_IP;
out:
	free(sv);
	return err;
}
