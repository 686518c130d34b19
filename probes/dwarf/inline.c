// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Inlined copies of a function: the DW_TAG_inlined_subroutine DIEs whose
 * abstract origin has the name asked for. Each is a probe point of its
 * own, with its own parameter locations, inside the function it was
 * inlined into (whose frame and entry its locations refer to).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/cxx.h"
#include "probes/dwarf/dwarf.h"
#include "probes/binary/dwarf_raw.h"
#include "probes/binary/index.h"
#include "probes/binary/unit_window.h"
#include "probes/dwarf/types.h"
#include "util/grow.h"
#include "util/stop.h"

/* inlined calls nest a few levels inside blocks; broken DWARF must not
 * make us recurse without bound */
#define MAX_DEPTH	64

struct inline_walk {
	struct bp_func_pattern pat;	/* the name (C++ spellings too) */
	int (*cb)(const struct bp_func *fn, void *ctx);
	void *ctx;
	const char *cu_name;
	Dwarf_Die frame;	/* the out-of-line function being walked */
	uint64_t frame_entry;
	int err;
	unsigned int ticks;	/* the stop flag is looked at every 256 */
};

static bool name_matches(const struct inline_walk *w, Dwarf_Die *die)
{
	return bp_func_pattern__matches(&w->pat, die, bp_die_name(die));
}

/*
 * Where an inlined copy starts: DW_AT_entry_pc (gcc), else its low_pc or
 * the lowest of its ranges (clang). end is the end of the range holding it.
 */
bool bp_inline__code(Dwarf_Die *die, uint64_t *entry, uint64_t *end)
{
	Dwarf_Addr base, lo, hi, e = 0, low = (Dwarf_Addr)-1, low_end = 0;
	Dwarf_Addr next = (Dwarf_Addr)-1, next_end = 0;
	bool have_entry = !dwarf_entrypc(die, &e), at_view = false;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		/* gcc's location views: the copy starts "between views" of an
		 * address no instruction of it holds yet (an empty range) */
		if (lo == hi && have_entry && lo == e)
			at_view = true;
		if (lo >= hi)
			continue;
		if (have_entry && e >= lo && e < hi) {
			*entry = e;
			*end = hi;
			return e != 0;
		}
		if (lo < low) {
			low = lo;
			low_end = hi;
		}
		if (have_entry && lo > e && lo < next) {
			next = lo;
			next_end = hi;
		}
	}
	/* the entry of such a copy is that address, where its parameters
	 * have the values the views describe (loc.c) */
	if (at_view && e && next_end) {
		*entry = e;
		*end = next_end;
		return true;
	}
	if (low == (Dwarf_Addr)-1 || !low)
		return false;
	*entry = low;
	*end = low_end;
	return true;
}

static int found(struct inline_walk *w, Dwarf_Die *die)
{
	struct bp_func f = {
		.die = *die, .has_die = true, .is_inline = true,
		.cu_name = w->cu_name, .name = bp_die_name(die),
		.frame = w->frame, .frame_entry = w->frame_entry,
	};

	if (!bp_inline__code(die, &f.entry, &f.end))
		return 0;	/* no code left of this copy */
	return w->cb(&f, w->ctx);
}

/* Inlined calls live in a function's body: in blocks and other inlined
 * calls, never in types or variables. */
static int walk(struct inline_walk *w, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;
	int tag, err;

	if (depth > MAX_DEPTH || dwarf_child(parent, &child))
		return 0;
	do {
		tag = dwarf_tag(&child);
		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block)
			continue;
		if (tag == DW_TAG_inlined_subroutine && name_matches(w, &child)) {
			err = found(w, &child);
			if (err)
				return err;
		}
		err = walk(w, &child, depth + 1);
		if (err)
			return err;
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

static int func_cb(Dwarf_Die *die, void *arg)
{
	struct inline_walk *w = arg;
	uint64_t entry, end;

	if (bp_stop__every(&w->ticks)) {
		w->err = -EINTR;
		return DWARF_CB_ABORT;
	}
	/* abstract instances and declarations have no code to walk */
	if (dwarf_tag(die) != DW_TAG_subprogram || dwarf_hasattr(die, DW_AT_declaration) ||
	    !bp_func__code(die, &entry, &end))
		return DWARF_CB_OK;
	w->frame = *die;
	w->frame_entry = entry;
	w->err = walk(w, die, 0);
	return w->err ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/*
 * Can an inlined call in unit name a function described in another unit?
 * LTO (gcc's ltrans units, clang's cross-module inlining) and DWZ do that
 * with references that leave the unit (DW_FORM_ref_addr, the alternate
 * file's forms). The unit's abbreviation table says which forms its
 * DW_TAG_inlined_subroutine DIEs can use: a few dozen entries to read
 * instead of every DIE. An unreadable table counts as "yes".
 */
static bool unit_inlines_from_outside(Dwarf_Die *unit)
{
	Dwarf_Abbrev *abbrev;
	Dwarf_Off off = 0;
	size_t len, cnt, i;
	unsigned int name, form;

	while ((abbrev = dwarf_getabbrev(unit, off, &len)) != DWARF_END_ABBREV) {
		if (!abbrev || !len)
			return true;
		off += len;
		if (dwarf_getabbrevtag(abbrev) != DW_TAG_inlined_subroutine)
			continue;
		if (dwarf_getattrcnt(abbrev, &cnt))
			return true;
		for (i = 0; i < cnt; i++) {
			if (dwarf_getabbrevattr(abbrev, i, &name, &form, NULL))
				return true;
			if (name == DW_AT_abstract_origin && !bp_raw__local_ref(form))
				return true;
		}
	}
	return false;
}

static bool unit_listed(const struct bp_inline_units *units, const Dwarf_Die *unit)
{
	for (int i = 0; i < units->n; i++) {
		if (units->v[i] == unit->cu)
			return true;
	}
	return false;
}

/*
 * Walking every function body of every CU is most of the time a resolve
 * would take, and nearly always finds nothing. An inlined copy's abstract
 * origin is emitted in the CU it was inlined in, as a subprogram whose
 * DW_AT_inline says it was inlined: the caller's pass over the functions
 * has seen those and lists their units. Other units are walked only when
 * their inlined calls can refer to another unit.
 */
static bool unit_may_hold_copies(const struct bp_inline_units *units, Dwarf_Die *unit)
{
	return unit_listed(units, unit) || unit_inlines_from_outside(unit);
}

int bp_inline_units__add(struct bp_inline_units *units, Dwarf_Die *die)
{
	if (unit_listed(units, die))
		return 0;
	if (bp_grow((void **)&units->v, units->n, &units->cap, sizeof(*units->v), 8))
		return -ENOMEM;
	units->v[units->n++] = die->cu;
	return 0;
}

void bp_inline_units__free(struct bp_inline_units *units)
{
	free(units->v);
	memset(units, 0, sizeof(*units));
}

/*
 * One inlined copy the index lists: what func_cb and walk would do with
 * it, when its unit is one they walk. -ESTALE when the DIEs are not what
 * the index says, -EBADMSG when the index cannot be read.
 */
static int indexed_copy(const struct bp_debuginfo *di, struct bp_dwarf_index *idx,
			const struct bp_inline_units *units, const struct bp_index_hit *hit,
			struct inline_walk *w)
{
	Dwarf_Die die, cudie;
	uint64_t end;
	const char *name;

	if (!bp_unit_window__offdie(di, idx, hit->die, &die) ||
	    dwarf_tag(&die) != DW_TAG_inlined_subroutine || !(name = bp_die_name(&die)) ||
	    strcmp(name, hit->name) || !dwarf_diecu(&die, &cudie, NULL, NULL) ||
	    dwarf_dieoffset(&cudie) != hit->unit ||
	    !bp_unit_window__offdie(di, idx, hit->frame, &w->frame) ||
	    dwarf_tag(&w->frame) != DW_TAG_subprogram ||
	    dwarf_hasattr(&w->frame, DW_AT_declaration))
		return -ESTALE;
	if (!unit_listed(units, &cudie)) {
		int outside = bp_dwarf_index__unit_inlines_from_outside(idx, hit->unit);

		if (outside <= 0)
			return outside;
	}
	/* func_cb: a function without code is not walked */
	if (!bp_func__code(&w->frame, &w->frame_entry, &end) || !name_matches(w, &die))
		return 0;
	w->cu_name = dwarf_diename(&cudie);
	return found(w, &die);
}

static int find_indexed(const struct bp_debuginfo *di, struct bp_dwarf_index *idx,
			const struct bp_inline_units *units, struct inline_walk *w)
{
	struct bp_index_hit *hits = NULL;
	int i, n, err = 0;

	n = bp_dwarf_index__inlines(idx, &w->pat, &hits);
	if (n < 0)
		return n;
	for (i = 0; i < n && !err; i++)
		err = indexed_copy(di, idx, units, &hits[i], w);
	free(hits);
	return err;
}

int bp_inlines__find(const struct bp_debuginfo *di, struct bp_dwarf_index *idx,
		     const char *name, bool glob, const struct bp_inline_units *units,
		     int (*cb)(const struct bp_func *fn, void *ctx), void *ctx)
{
	struct inline_walk w = { .cb = cb, .ctx = ctx };
	Dwarf_Die cudie, subdie, *unit;
	Dwarf_CU *cu = NULL;
	uint8_t unit_type;

	if (!di->dwarf)
		return 0;
	bp_func_pattern__init(&w.pat, name, glob);
	if (idx)
		return find_indexed(di, idx, units, &w);
	while (!dwarf_get_units(di->dwarf, cu, &cu, NULL, &unit_type, &cudie,
				&subdie)) {
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		unit = unit_type == DW_UT_skeleton ? &subdie : &cudie;
		if (!dwarf_tag(unit))
			continue;
		if (!unit_may_hold_copies(units, unit))
			continue;
		if (bp_stop__requested())
			return -EINTR;
		w.cu_name = dwarf_diename(unit);
		dwarf_getfuncs(unit, func_cb, &w, 0);
		if (w.err)
			return w.err;
	}
	return 0;
}
