// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The variable an argument names: a parameter, a local in scope at the
 * probe address, or a file-scope variable (static or global), looked up
 * the way C would: the function's own file first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/types.h"

/* A direct child of parent with tag and (integrated) name. */
static bool find_child(Dwarf_Die *parent, int tag, const char *name, Dwarf_Die *out)
{
	Dwarf_Die child;
	const char *n;

	if (dwarf_child(parent, &child))
		return false;
	do {
		if (dwarf_tag(&child) != tag)
			continue;
		n = bp_die_name(&child);
		if (n && !strcmp(n, name)) {
			*out = child;
			return true;
		}
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

/* The abstract instance of a concrete function, inlined copy or block. */
static bool abstract_origin(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr(die, DW_AT_abstract_origin, &attr) &&
	       dwarf_formref_die(&attr, out);
}

/*
 * A variable of scope (a block, a function or an inlined copy), or one
 * only its abstract instance declares: gcc leaves a static local (at a
 * fixed address: readable) or a local without a location out of the
 * concrete copies, as gdb, which reads the abstract children too, knows.
 */
static bool find_var(Dwarf_Die *scope, const char *name, Dwarf_Die *out)
{
	Dwarf_Die origin;

	return find_child(scope, DW_TAG_variable, name, out) ||
	       (abstract_origin(scope, &origin) &&
		find_child(&origin, DW_TAG_variable, name, out));
}

/*
 * Locals in the lexical blocks around c->addr, innermost first, then the
 * function's own (c->dw->func: an out-of-line function or an inlined copy).
 * Scopes of calls inlined into it belong to another function's source and
 * are skipped.
 */
static bool find_local(const struct bp_arg_ctx *c, const char *name, Dwarf_Die *out)
{
	Dwarf_Die *scopes = NULL;
	int i, n, fi, first = 0;
	bool found = false;

	n = bp_scopes__around(c->dw->func, c->addr, &scopes);
	fi = n > 0 ? bp_scopes__blocks(scopes, n, c->dw->func, &first) : -1;
	for (i = first; i < fi && !found; i++) {
		if (dwarf_tag(&scopes[i]) == DW_TAG_lexical_block)
			found = find_var(&scopes[i], name, out);
	}
	free(scopes);
	/* no block at addr (e.g. at the entry): the function level still counts */
	return found || find_var(c->dw->func, name, out);
}

/* "a, b, c" */
static void param_names(Dwarf_Die *func, char *buf, size_t len)
{
	Dwarf_Die child, origin;
	size_t pos = 0;
	const char *n;

	buf[0] = '\0';
	/* a concrete copy may omit parameters it optimized away */
	if (dwarf_child(func, &child) && abstract_origin(func, &origin))
		func = &origin;
	if (dwarf_child(func, &child))
		return;
	do {
		if (dwarf_tag(&child) != DW_TAG_formal_parameter || pos >= len)
			continue;
		n = bp_die_name(&child);
		pos += snprintf(buf + pos, len - pos, "%s%s", pos ? ", " : "",
				n ? n : "<unnamed>");
	} while (!dwarf_siblingof(&child, &child));
}

int bp_var__find(const struct bp_arg_ctx *c, const char *name, Dwarf_Die *var)
{
	/* a global of that name is a fallback: why it is none is no news */
	struct bp_arg_ctx global = *c;
	struct bp_diag scratch = {};
	char params[256];
	Dwarf_Die origin;

	if (find_child(c->dw->func, DW_TAG_formal_parameter, name, var))
		return 0;
	/* gone from this copy but declared: reported as optimized out */
	if (abstract_origin(c->dw->func, &origin) &&
	    find_child(&origin, DW_TAG_formal_parameter, name, var))
		return 0;
	if (find_local(c, name, var))
		return 0;
	global.diag = &scratch;
	if (!bp_var__find_global(&global, name, var))
		return 0;

	param_names(c->dw->func, params, sizeof(params));
	bp_arg_fail(c, "no parameter, local or global variable '%s' (parameters: %s)", name,
		    params[0] ? params : "none");
	return -ENOENT;
}

/* --- file scope ---------------------------------------------------------- */

#define MAX_IMPORT_DEPTH	4
#define MAX_LISTED_CUS		3

static bool flag_set(Dwarf_Die *die, int name)
{
	Dwarf_Attribute attr;
	bool flag;

	return dwarf_attr_integrate(die, name, &attr) && !dwarf_formflag(&attr, &flag) && flag;
}

/* A definition: it has a place or a value (a declaration has neither). */
static bool is_defined(Dwarf_Die *var)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(var, DW_AT_location, &attr) ||
	       dwarf_attr_integrate(var, DW_AT_const_value, &attr);
}

/*
 * A variable defined at the top of unit (or of the partial units it
 * imports: DWZ moves shared DIEs there). external_only: globals only, not
 * another file's statics.
 */
static bool find_in_unit(Dwarf_Die *unit, const char *name, bool external_only,
			 Dwarf_Die *out, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Die child, imported;
	const char *n;

	if (dwarf_child(unit, &child))
		return false;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_imported_unit:
			if (depth < MAX_IMPORT_DEPTH &&
			    dwarf_attr(&child, DW_AT_import, &attr) &&
			    dwarf_formref_die(&attr, &imported) &&
			    find_in_unit(&imported, name, external_only, out, depth + 1))
				return true;
			break;
		case DW_TAG_variable:
			n = bp_die_name(&child);
			if (!n || strcmp(n, name) || !is_defined(&child))
				break;
			if (external_only && !flag_set(&child, DW_AT_external))
				break;
			*out = child;
			return true;
		}
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

static bool same_unit(Dwarf_Die *a, Dwarf_Die *b)
{
	return dwarf_dieoffset(a) == dwarf_dieoffset(b);
}

struct global_search {
	const char *name;
	bool external_only;
	Dwarf_Die *skip;	/* the function's CU, searched already */
	Dwarf_Die found;
	int nfound;
	char cus[160];		/* where statics of that name were seen */
	size_t pos;
};

static void search_units(Dwarf *dwarf, struct global_search *s)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie, die;
	uint8_t unit_type;
	const char *cu_name;

	while (!dwarf_get_units(dwarf, cu, &cu, NULL, &unit_type, &cudie, &subdie)) {
		/* partial units are reached through their importers */
		if (unit_type == DW_UT_partial || unit_type == DW_UT_type ||
		    (s->skip && same_unit(&cudie, s->skip)))
			continue;
		if (!find_in_unit(&cudie, s->name, s->external_only, &die, 0))
			continue;
		if (!s->nfound++)
			s->found = die;
		cu_name = dwarf_diename(&cudie);
		if (s->nfound <= MAX_LISTED_CUS && s->pos < sizeof(s->cus))
			s->pos += snprintf(s->cus + s->pos, sizeof(s->cus) - s->pos, "%s%s",
					   s->nfound > 1 ? ", " : "", cu_name ? cu_name : "?");
	}
}

int bp_var__find_global(const struct bp_arg_ctx *c, const char *name, Dwarf_Die *var)
{
	struct global_search s = { .name = name, .external_only = true };
	Dwarf_Die cudie;

	/* this file's statics and the globals it defines come first */
	if (dwarf_diecu(c->dw->func, &cudie, NULL, NULL)) {
		if (find_in_unit(&cudie, name, false, var, 0))
			return 0;
		s.skip = &cudie;
	}
	if (!c->dw->di || !c->dw->di->dwarf)
		goto none;
	/* a global defined in another file */
	search_units(c->dw->di->dwarf, &s);
	if (s.nfound) {
		*var = s.found;
		return 0;
	}
	/* another file's static: fine when there is only one */
	s.external_only = false;
	search_units(c->dw->di->dwarf, &s);
	if (s.nfound == 1) {
		*var = s.found;
		return 0;
	}
	if (s.nfound > 1) {
		bp_arg_fail(c, "'%s' is a static variable of several files (%s%s), none of them the function's: ambiguous",
			    name, s.cus, s.nfound > MAX_LISTED_CUS ? ", ..." : "");
		return -ENOENT;
	}
none:
	bp_arg_fail(c, "no global or static variable '%s' in %s", name,
		    c->dw->di && c->dw->di->path ? c->dw->di->path : "the binary");
	return -ENOENT;
}

/* Ops that depend on the probe point's registers or frame (a thread-local
 * does not: its address is the thread's, the same at a return). */
static bool op_is_dynamic(unsigned int a)
{
	return (a >= DW_OP_reg0 && a <= DW_OP_breg31) || a == DW_OP_regx ||
	       a == DW_OP_bregx || a == DW_OP_fbreg || a == DW_OP_call_frame_cfa ||
	       a == DW_OP_entry_value || a == DW_OP_GNU_entry_value ||
	       a == DW_OP_push_object_address || a == DW_OP_GNU_parameter_ref;
}

bool bp_var__is_static(Dwarf_Die *var)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops, i;

	if (!dwarf_attr_integrate(var, DW_AT_location, &attr))
		return dwarf_attr_integrate(var, DW_AT_const_value, &attr) != NULL;
	/* a location list changes along the code: a register or frame thing */
	if (attr.form != DW_FORM_exprloc && attr.form != DW_FORM_block1 &&
	    attr.form != DW_FORM_block)
		return false;
	if (dwarf_getlocation(&attr, &ops, &nops) || !nops)
		return false;
	for (i = 0; i < nops; i++) {
		if (op_is_dynamic(ops[i].atom))
			return false;
	}
	return true;
}
