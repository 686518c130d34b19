// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf's fetch arguments at a user-space (or vmlinux DWARF) probe point:
 * $argN, %REG, +OFFS(...), @SYM+OFFS, and a bare @SYM that DWARF does not
 * know. None needs DWARF: a function known from the symbol table only (a
 * binary built without -g) takes them too. When the function has DWARF,
 * $argN is typed by its parameter (and member chains may follow it), and
 * a bare @SYM is the typed global it names, as without this file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <dwarf.h>
#include <gelf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/types.h"
#include "probes/value/fetcharg.h"

bool bp_perf_arg__is(const struct bp_arg_spec *arg)
{
	return arg->farg != BP_FARG_NONE || (arg->global && !arg->nsteps);
}

/* --- $argN's parameter ------------------------------------------------------ */

/* A type that arrives in one integer register: an integer of up to 8
 * bytes, a pointer or reference, an enum. */
static bool one_int_reg(Dwarf_Die *param)
{
	Dwarf_Die tmem, pmem, *t;
	Dwarf_Attribute attr;
	Dwarf_Word enc;
	long size;

	t = bp_type_peel(bp_die_type(param, &tmem), &pmem);
	if (!t)
		return false;
	switch (dwarf_tag(t)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		return true;
	case DW_TAG_enumeration_type:
		size = bp_type_size(t);
		return size > 0 && size <= 8;
	case DW_TAG_base_type:
		size = bp_type_size(t);
		if (size <= 0 || size > 8 || !dwarf_attr_integrate(t, DW_AT_encoding, &attr) ||
		    dwarf_formudata(&attr, &enc))
			return false;
		return enc == DW_ATE_signed || enc == DW_ATE_unsigned ||
		       enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char ||
		       enc == DW_ATE_boolean || enc == DW_ATE_UTF || enc == DW_ATE_address;
	default:
		return false;
	}
}

/*
 * The formal parameter of func that arrives as the n-th integer argument:
 * the n-th, when it and every one before it take one integer register
 * each (or its stack slot past the registers), and no struct returned in
 * memory takes the first. From the abstract instance when there is one (a
 * concrete copy may leave some out).
 */
static bool argn_param(Dwarf_Die *func, int n, Dwarf_Die *param)
{
	Dwarf_Attribute attr;
	Dwarf_Die origin, child, tmem, pmem, *f = func;
	int i = 0;

	/* a struct returned in memory takes rdi for its address: positions
	 * shift (and C++ returns some small ones so too); no type then */
	if (bp_tag_is_record(bp_type_tag(bp_type_peel(bp_die_type(func, &tmem), &pmem))))
		return false;
	if (dwarf_attr(func, DW_AT_abstract_origin, &attr) &&
	    dwarf_formref_die(&attr, &origin))
		f = &origin;
	if (dwarf_child(f, &child))
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_unspecified_parameters)
			return false;
		if (tag != DW_TAG_formal_parameter)
			continue;
		if (!one_int_reg(&child))
			return false;
		if (++i == n) {
			*param = child;
			return true;
		}
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

/* --- where ---------------------------------------------------------------- */

static bool at_entry(const struct bp_arg_ctx *c, const struct bp_perf_point *pt)
{
	return !pt->spec->is_return && !pt->fn->is_inline && c->addr == pt->fn->entry;
}

/* The probe point, as the message that it is no entry says it. */
static void point_text(const struct bp_arg_ctx *c, const struct bp_perf_point *pt,
		       char *buf, size_t len)
{
	const char *name = pt->fn->name ? pt->fn->name : pt->spec->func ? pt->spec->func : "?";
	const char *caller;

	if (pt->spec->is_return) {
		snprintf(buf, len, "the return of %s (%%return)", name);
	} else if (pt->fn->is_inline) {
		caller = bp_die_name((Dwarf_Die *)&pt->fn->frame);
		snprintf(buf, len, "an inlined copy of %s (in %s; inlines=no leaves such copies out)",
			 name, caller ? caller : "its caller");
	} else if (c->addr > pt->fn->entry) {
		snprintf(buf, len, "%s+0x%" PRIx64 "%s", name, c->addr - pt->fn->entry,
			 pt->spec->has_offset || pt->spec->has_line || pt->spec->lazy ? "" :
			 " (past the prologue, where the probe moved for another argument)");
	} else {
		snprintf(buf, len, "0x%" PRIx64 " in %s", c->addr, name);
	}
}

/* --- the bases -------------------------------------------------------------- */

/* The memory at the symbol arg names (+ its offset), an lvalue. */
static int sym_value(struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
		     const struct bp_perf_point *pt, struct bp_val *val, char *desc,
		     size_t desclen)
{
	const struct bp_debuginfo *di = pt->di;
	struct bp_elf_sym sym;
	int count = 0, ret;

	ret = bp_debuginfo__data_symbol(di, arg->var, &sym, &count);
	if (!ret) {
		bp_arg_fail(c, "no symbol '%s' in the symbol table of %s%s", arg->var, di->path,
			    di->dwarf ? "" : " (and it has no debug info)");
		return -ENOENT;
	}
	if (ret < 0) {
		bp_arg_fail(c, "%d symbols called '%s' at different addresses in %s (statics of several files), none of them the one global: ambiguous",
			    count, arg->var, di->path);
		return -ENOTUNIQ;
	}
	if (sym.type == STT_TLS) {
		bp_arg_fail(c, "'%s' is thread-local (STT_TLS): each thread has its own, which the symbol table does not say where%s",
			    arg->var, di->dwarf ? "" : "; with debug info (DWARF), @VAR reads the thread's own");
		return -EOPNOTSUPP;
	}
	ret = bp_fetcharg__addr(c, sym.addr + (uint64_t)arg->sym_off, val);
	if (ret)
		return ret;
	if (arg->sym_off)
		snprintf(desc, desclen, "symbol %s%+" PRId64 " (0x%" PRIx64 ")", arg->var,
			 arg->sym_off, sym.addr + (uint64_t)arg->sym_off);
	else
		snprintf(desc, desclen, "symbol %s (0x%" PRIx64 ")", arg->var, sym.addr);
	return 0;
}

/* "$argN has no type here": a member chain needs the parameter's type. */
static int untyped_chain(struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
			 const struct bp_perf_point *pt)
{
	const char *why = !pt->fn->has_die ? "the function has no debug info (DWARF)" :
			  pt->symbol ? "the function is a compiler-made copy whose parameters differ from its source's" :
			  "its parameter does not arrive alone in that register or stack slot (see $argN in the README)";

	bp_arg_fail(c, "%s has no type here (%s): its members cannot be found; name the parameter, or read memory with +OFFS(%s)",
		    arg->var, why, arg->var);
	return -EINVAL;
}

static int compile_argn(struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
			const struct bp_perf_point *pt, struct bp_fetch *out,
			char **type_name, char *desc, size_t desclen)
{
	Dwarf_Die param, tmem, *type;
	const char *pname = NULL;
	char point[256];
	struct bp_val val;
	bool typed;
	size_t n;
	int err;

	typed = pt->fn->has_die && !pt->symbol &&
		argn_param((Dwarf_Die *)&pt->fn->die, arg->argn, &param);
	if (typed)
		pname = bp_die_name(&param);
	if (!at_entry(c, pt)) {
		point_text(c, pt, point, sizeof(point));
		/* at the return, the parameter is gone too */
		return bp_fetcharg__not_entry(c, arg, point, pt->spec->is_return ? NULL : pname);
	}
	err = bp_fetcharg__argn(c, arg->argn, &val, desc, desclen);
	if (err)
		return err;
	if (!typed || arg->nreads) {
		if (arg->nsteps)
			return untyped_chain(c, arg, pt);
		return bp_fetcharg__compile(c, arg, &val, c->user, out, type_name, desc, desclen);
	}
	n = strlen(desc);
	if (pname && n + 1 < desclen)
		snprintf(desc + n - 1, desclen - n + 1, ", parameter '%s')", pname);
	type = bp_die_type(&param, &tmem);
	/* the chain may read user memory (@user); the stack slot is the kernel's */
	if (c->kernel)
		c->first_user_deref = val.lvalue ? 1 : 0;
	c->user = c->user || arg->user;
	return bp_member__compile(c, arg, type, &val, out, type_name);
}

/* A bare @SYM: DWARF's variable when it has one, else the symbol's memory. */
static int compile_global(struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
			  const struct bp_perf_point *pt, struct bp_fetch *out,
			  char **type_name, char *desc, size_t desclen)
{
	struct bp_diag scratch = {};
	struct bp_arg_ctx t = *c;
	struct bp_elf_sym sym;
	struct bp_val val;
	Dwarf_Die var;
	int count, err;

	if (pt->di->dwarf) {
		t.diag = &scratch;
		if (!bp_var__find_global(&t, arg->var, &var) ||
		    !bp_debuginfo__data_symbol(pt->di, arg->var, &sym, &count))
			/* DWARF's, or DWARF saying why there is none */
			return bp_arg__compile(c, arg, out, type_name, desc, desclen);
	}
	err = sym_value(c, arg, pt, &val, desc, desclen);
	return err ?: bp_fetcharg__compile(c, arg, &val, c->user, out, type_name, desc,
					     desclen);
}

int bp_perf_arg__compile(struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
			 const struct bp_perf_point *pt, struct bp_fetch *out,
			 char **type_name, char *desc, size_t desclen)
{
	char point[256];
	struct bp_val val;
	int err;

	/* a function known from the symbol table only has no DIE */
	if (!pt->fn->has_die)
		c->dw->func = NULL;
	c->spec_arg = arg;
	switch (arg->farg) {
	case BP_FARG_USTACK:
	case BP_FARG_KSTACK:
		return bp_fetcharg__stack(arg, out, type_name, desc, desclen);
	case BP_FARG_NONE:
		return compile_global(c, arg, pt, out, type_name, desc, desclen);
	case BP_FARG_ARGN:
		if (!arg->nreads)
			return compile_argn(c, arg, pt, out, type_name, desc, desclen);
		if (!at_entry(c, pt)) {
			point_text(c, pt, point, sizeof(point));
			return bp_fetcharg__not_entry(c, arg, point, NULL);
		}
		err = bp_fetcharg__argn(c, arg->argn, &val, desc, desclen);
		break;
	case BP_FARG_REG:
		err = bp_fetcharg__reg(c, arg->reg, &val, desc, desclen);
		break;
	case BP_FARG_SYM:
		err = sym_value(c, arg, pt, &val, desc, desclen);
		break;
	default:
		bp_arg_fail(c, "unknown fetch argument kind %d", arg->farg);
		return -EINVAL;
	}
	return err ?: bp_fetcharg__compile(c, arg, &val, c->user, out, type_name, desc,
					     desclen);
}
