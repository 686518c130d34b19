// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Helpers about one function copy that finding sites (sites.c), inlined
 * copies (inline.c) and source lines (line.c) share: its code range, its
 * name for messages, where its prologue ends, matching a file name, and
 * the growing list of sites.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/types.h"
#include "util/grow.h"

bool bp_path__matches(const char *path, const char *src)
{
	size_t lp, ls;

	if (!path || !src)
		return false;
	lp = strlen(path);
	ls = strlen(src);
	if (lp < ls || strcmp(path + lp - ls, src))
		return false;
	return lp == ls || path[lp - ls - 1] == '/' || src[0] == '/';
}

/* Linkers leave DWARF of discarded code at 0 or at -1/-2 (lld tombstones). */
static bool is_tombstone(Dwarf_Addr a)
{
	return a == 0 || a >= (Dwarf_Addr)-2;
}

/*
 * [entry, end) of the range holding the entry point. A function split in
 * hot and cold parts has only DW_AT_ranges: compilers list the part with
 * the entry first.
 */
bool bp_func__code(Dwarf_Die *die, uint64_t *entry, uint64_t *end)
{
	Dwarf_Addr base, lo, hi, e = 0, first_lo = 0, first_hi = 0;
	bool have_entry = !dwarf_entrypc(die, &e);
	ptrdiff_t off = 0;
	int n = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (lo >= hi)
			continue;
		if (!n++) {
			first_lo = lo;
			first_hi = hi;
		}
		if (have_entry && e >= lo && e < hi) {
			*entry = e;
			*end = hi;
			return !is_tombstone(e);
		}
	}
	if (!n)
		return false;
	*entry = first_lo;
	*end = first_hi;
	return !is_tombstone(first_lo);
}

struct bp_site *bp_site_list__add(struct bp_site_list *l)
{
	if (bp_grow((void **)&l->v, l->n, &l->cap, sizeof(*l->v), 8))
		return NULL;
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	return &l->v[l->n++];
}

void bp_func__where(const struct bp_debuginfo *di, const struct bp_func *fn,
		    bool with_cu, char *buf, size_t len)
{
	const char *name = fn->name ? fn->name : "?";
	const char *caller;

	if (fn->is_inline) {
		caller = bp_die_name((Dwarf_Die *)&fn->frame);
		snprintf(buf, len, "%s inlined into %s at 0x%" PRIx64 " in %s", name,
			 caller ? caller : "?", bp_debuginfo__elf_addr(di, fn->entry),
			 di->path);
	} else if (with_cu && fn->cu_name) {
		snprintf(buf, len, "%s (%s) in %s", name, fn->cu_name, di->path);
	} else {
		snprintf(buf, len, "%s in %s", name, di->path);
	}
}

/* The first row of lines (n rows, sorted by address as libdw keeps them)
 * at addr or past it: n when there is none. */
static size_t first_row_at(Dwarf_Lines *lines, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		Dwarf_Line *line = dwarf_onesrcline(lines, mid);
		Dwarf_Addr a;

		if (!line || dwarf_lineaddr(line, &a))
			return 0;	/* cannot tell: every row is looked at */
		if (a < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The first line-table row in the function flagged prologue_end (clang),
 * else the first row after the entry (gcc marks none: its second row is
 * the first statement of the body). The unit's table is libdw's, decoded
 * once and kept; the function's rows are found by a binary search, not a
 * scan of the whole table per function (a glob over one unit of 100k).
 */
int bp_func__after_prologue(struct bp_func *fn, uint64_t *addr)
{
	uint64_t pe = UINT64_MAX, next = UINT64_MAX;
	Dwarf_Lines *lines;
	Dwarf_Die cudie;
	size_t n, i;

	if (!fn->has_die || !dwarf_diecu(&fn->die, &cudie, NULL, NULL) ||
	    dwarf_getsrclines(&cudie, &lines, &n))
		return -ENOENT;
	for (i = first_row_at(lines, n, fn->entry); i < n; i++) {
		Dwarf_Line *line = dwarf_onesrcline(lines, i);
		bool flag = false;
		Dwarf_Addr a;

		if (!line || dwarf_lineaddr(line, &a))
			continue;
		/* sorted: the function's rows are behind us */
		if (a >= fn->end && a > fn->entry)
			break;
		if (a < fn->entry || a >= fn->end)
			continue;
		if (!dwarf_lineendsequence(line, &flag) && flag)
			continue;
		if (!dwarf_lineprologueend(line, &flag) && flag && a < pe)
			pe = a;
		if (a > fn->entry && a < next)
			next = a;
	}
	if (pe == UINT64_MAX && next == UINT64_MAX)
		return -ENOENT;
	*addr = pe != UINT64_MAX ? pe : next;
	return 0;
}
