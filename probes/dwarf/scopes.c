// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The scopes around an address: the chain of DIEs whose code holds it,
 * from the unit down to the innermost lexical block or inlined call.
 *
 * libdw's dwarf_getscopes() switches to an inlined function's abstract
 * definition at an inlined call, and finds nothing when that definition
 * is in another unit (gcc's LTO: early-debug units referenced with
 * DW_FORM_ref_addr). This walks the concrete tree only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/types.h"

#define MAX_SCOPE_DEPTH	32

/* DIEs that are scopes of code: they count when they hold addr */
static bool is_code_scope(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_lexical_block;
}

/*
 * Whether die's code holds addr, or starts "between the views" of addr:
 * gcc's location views give an inlined copy (and its blocks) an empty
 * range [addr, addr) at the address it begins at, before its first own
 * instruction.
 */
static bool holds(Dwarf_Die *die, uint64_t addr, int views)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	if (dwarf_haspc(die, addr) > 0)
		return true;
	if (!views)
		return false;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0)
		if (lo == hi && lo == addr)
			return true;
	return false;
}

/*
 * Pushes the chain below parent that holds addr; returns its length.
 * Sibling scopes may both claim addr (overlapping lexical blocks): the
 * one leading deepest wins, as it is where the code at addr belongs.
 */
static int descend(Dwarf_Die *parent, uint64_t addr, int views, Dwarf_Die *chain, int depth)
{
	Dwarf_Die child, best[MAX_SCOPE_DEPTH];
	int tag, d, got = depth;

	if (depth >= MAX_SCOPE_DEPTH || dwarf_child(parent, &child))
		return depth;
	do {
		tag = dwarf_tag(&child);
		if (!bp_tag_holds_code(tag))
			continue;
		if (is_code_scope(tag)) {
			bool in = holds(&child, addr, views);

			/* inside a function, a copy that begins at addr between
			 * views may sit in a block whose code does not hold it
			 * (BP_SCOPES_VIEWS_ANYWHERE: in any function) */
			if (!in && !(views == BP_SCOPES_VIEWS_ANYWHERE ||
				     (views && (depth || dwarf_tag(parent) != DW_TAG_compile_unit) &&
				      tag != DW_TAG_subprogram)))
				continue;
			chain[depth] = child;
			d = descend(&child, addr, views, chain, depth + 1);
			if (!in && d == depth + 1)
				continue;	/* nothing there begins at addr */
		} else {
			/* a namespace or class: a function defined inside it */
			d = descend(&child, addr, views, chain, depth);
		}
		if (d > got) {
			memcpy(best + depth, chain + depth, (d - depth) * sizeof(*chain));
			got = d;
		}
	} while (!dwarf_siblingof(&child, &child));
	if (got > depth)
		memcpy(chain + depth, best + depth, (got - depth) * sizeof(*chain));
	return got;
}

int bp_scopes__at(Dwarf_Die *cudie, uint64_t addr, int views, Dwarf_Die **scopes)
{
	Dwarf_Die chain[MAX_SCOPE_DEPTH];
	int n, i;

	*scopes = NULL;
	n = descend(cudie, addr, views, chain, 0);
	if (!n)
		return -ENOENT;
	*scopes = malloc((n + 1) * sizeof(**scopes));
	if (!*scopes)
		return -ENOMEM;
	/* innermost first, the unit last */
	for (i = 0; i < n; i++)
		(*scopes)[i] = chain[n - 1 - i];
	(*scopes)[n] = *cudie;
	return n + 1;
}

static bool same_die(Dwarf_Die *a, Dwarf_Die *b)
{
	return a->cu == b->cu && dwarf_dieoffset(a) == dwarf_dieoffset(b);
}

int bp_scopes__blocks(Dwarf_Die *scopes, int n, Dwarf_Die *func, int *first)
{
	int i, fi = -1;

	for (i = 0; i < n && fi < 0; i++)
		if (same_die(&scopes[i], func))
			fi = i;
	*first = 0;
	for (i = 0; i < fi; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
			*first = i + 1;
	return fi;
}

int bp_scopes__around(Dwarf_Die *func, uint64_t addr, Dwarf_Die **scopes)
{
	Dwarf_Die chain[MAX_SCOPE_DEPTH], *outer = NULL;
	int n, m, i;

	*scopes = NULL;
	/* func and what holds it: dwarf_getscopes_die() walks the concrete
	 * tree from the unit down to it */
	m = dwarf_getscopes_die(func, &outer);
	if (m <= 0) {
		free(outer);
		return -ENOENT;
	}
	/* the blocks and copies inside func around addr */
	n = descend(func, addr, BP_SCOPES_VIEWS, chain, 0);
	*scopes = malloc((n + m) * sizeof(**scopes));
	if (!*scopes) {
		free(outer);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		(*scopes)[i] = chain[n - 1 - i];
	memcpy(*scopes + n, outer, m * sizeof(*outer));
	free(outer);
	return n + m;
}
