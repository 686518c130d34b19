// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The parameter or local variable an argument names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf_resolve.h"
#include "probes/dwarf_types.h"
#include "util/log.h"

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

static bool same_die(Dwarf_Die *a, Dwarf_Die *b)
{
	return dwarf_dieoffset(a) == dwarf_dieoffset(b) && a->cu == b->cu;
}

/*
 * Locals in the lexical blocks around c->addr, innermost first, then the
 * function's own. Scopes inside an inlined call belong to another
 * function's source and are skipped.
 */
static bool find_local(const struct bp_arg_ctx *c, const char *name, Dwarf_Die *out)
{
	Dwarf_Die cudie, *scopes = NULL;
	int i, n, first = 0;
	bool found = false;

	if (!dwarf_diecu(c->func, &cudie, NULL, NULL))
		return false;
	n = dwarf_getscopes(&cudie, c->addr, &scopes);
	for (i = 0; i < n; i++) {
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
			first = i + 1;
	}
	for (i = first; i < n && !found; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_lexical_block || same_die(&scopes[i], c->func))
			found = find_child(&scopes[i], DW_TAG_variable, name, out);
		if (same_die(&scopes[i], c->func))
			break;
	}
	free(scopes);
	/* no block at addr (e.g. at the entry): the function level still counts */
	return found || find_child(c->func, DW_TAG_variable, name, out);
}

/* The abstract instance of an out-of-line copy of an inline function. */
static bool abstract_origin(Dwarf_Die *func, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr(func, DW_AT_abstract_origin, &attr) &&
	       dwarf_formref_die(&attr, out);
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
	char params[256];
	Dwarf_Die origin;

	if (find_child(c->func, DW_TAG_formal_parameter, name, var))
		return 0;
	/* gone from this copy but declared: reported as optimized out */
	if (abstract_origin(c->func, &origin) &&
	    find_child(&origin, DW_TAG_formal_parameter, name, var))
		return 0;
	if (find_local(c, name, var))
		return 0;

	param_names(c->func, params, sizeof(params));
	bp_arg_err(c, "no parameter or variable '%s' (parameters: %s)", name,
		   params[0] ? params : "none");
	return -ENOENT;
}
