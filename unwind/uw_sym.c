// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A PC to its frames (uw_sym.h), the way gdb builds them:
 * - the unit holding the PC, then the chain of DIEs whose ranges hold it,
 *   from the unit down: the innermost DW_TAG_subprogram is the real
 *   function, each DW_TAG_inlined_subroutine inside it one more frame;
 * - names through DW_AT_abstract_origin/DW_AT_specification: for C the
 *   linkage name when there is one (gdb prints glibc's __GI___qsort_r),
 *   else DW_AT_name; without DWARF, the symbol table's;
 * - the innermost frame's file:line from the line table (uw_lines.h), each
 *   caller of an inlined call at the call's DW_AT_call_file/call_line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "unwind/uw_calls.h"
#include "unwind/uw_lines.h"
#include "unwind/uw_msyms.h"
#include "unwind/uw_sym.h"
#include "util/grow.h"

/* Inlined calls nested at one PC, at most. */
#define MAX_CHAIN	64
/* Addresses remembered per module before the memo starts over. */
#define MEMO_MAX	4096

struct memo_ent {
	Dwarf_Addr addr;
	unsigned int first, n;	/* in syms */
	bool used;
};

/* A unit's address range, when the module has no .debug_aranges */
struct cu_range {
	Dwarf_Addr start, end;
	Dwarf_Off off;
};

struct uw_dbg {
	Dwfl_Module *mod;
	struct uw_calls *calls;
	struct cu_range *cus;	/* by start, built when first needed */
	struct uw_msyms *msyms;	/* code symbols, made when first needed */
	size_t ncus, cus_cap;
	bool cus_built;
	struct uw_lines *lines;
	struct memo_ent *slots;	/* 2 * MEMO_MAX, open addressing */
	size_t used;
	struct uw_sym *syms;
	size_t nsyms, cap;
};

struct uw_dbg *uw_dbg__new(Dwfl_Module *mod)
{
	struct uw_dbg *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->mod = mod;
	d->lines = uw_lines__new();
	d->slots = calloc(2 * MEMO_MAX, sizeof(*d->slots));
	if (!d->lines || !d->slots) {
		uw_dbg__free(d);
		return NULL;
	}
	return d;
}

void uw_dbg__free(struct uw_dbg *d)
{
	if (!d)
		return;
	uw_lines__free(d->lines);
	uw_calls__free(d->calls);
	free(d->cus);
	uw_msyms__free(d->msyms);
	free(d->slots);
	free(d->syms);
	free(d);
}

static bool is_c(int lang)
{
	switch (lang) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_C99:
	case DW_LANG_C11:
#ifdef DW_LANG_C17
	case DW_LANG_C17:
#endif
		return true;
	default:
		return false;
	}
}

static const char *die_name(Dwarf_Die *die, bool c)
{
	Dwarf_Attribute attr;
	const char *name;

	if (c && (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
		  dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))) {
		name = dwarf_formstring(&attr);
		if (name && *name)
			return name;
	}
	return dwarf_diename(die);
}

/* Where a block starts, for gdb's order of blocks. */
static Dwarf_Addr block_start(Dwarf_Die *die)
{
	Dwarf_Addr low, base, start, end, min = (Dwarf_Addr)-1;
	ptrdiff_t off = 0;

	if (!dwarf_lowpc(die, &low))
		return low;
	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (start < min)
			min = start;
	return min;
}

/*
 * Appends to chain (from *n) the DIEs under parent that hold a: functions
 * and inlined calls, through lexical blocks (and, for C++ and the like,
 * namespaces and classes). Descends into the first that holds it: DWARF
 * nests them. Among the unit's own functions (aliases of one assembly
 * routine overlap), the one gdb finds: starting last, the last of those.
 */
static void walk(Dwarf_Die *parent, Dwarf_Addr a, bool c, Dwarf_Die *chain, int *n, int depth)
{
	Dwarf_Addr best_start = 0, start;
	bool have_best = false;
	Dwarf_Die child, best;
	int tag;

	if (depth > 4 * MAX_CHAIN || dwarf_child(parent, &child))
		return;
	do {
		tag = dwarf_tag(&child);
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
		case DW_TAG_entry_point:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			if (dwarf_haspc(&child, a) <= 0)
				break;
			if (depth == 0 && tag == DW_TAG_subprogram) {
				start = block_start(&child);
				if (!have_best || start >= best_start) {
					best = child;
					best_start = start;
					have_best = true;
				}
				break;
			}
			if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
				if (*n == MAX_CHAIN)
					return;
				chain[(*n)++] = child;
			}
			walk(&child, a, c, chain, n, depth + 1);
			return;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type: {
			int before = *n;

			/* C puts no function in these */
			if (c || !dwarf_haschildren(&child))
				break;
			walk(&child, a, c, chain, n, depth + 1);
			if (*n > before)
				return;
			break;
		}
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	if (have_best && *n < MAX_CHAIN) {
		chain[(*n)++] = best;
		walk(&best, a, c, chain, n, depth + 1);
	}
}

/* The file and line an inlined call was made from. */
static void call_site(Dwarf_Die *inl, Dwarf_Files *files, size_t nfiles,
		      const char **file, int *line)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;

	*file = NULL;
	*line = 0;
	if (!dwarf_attr(inl, DW_AT_call_line, &attr) || dwarf_formudata(&attr, &w) || !w)
		return;
	*line = (int)w;
	if (files && dwarf_attr(inl, DW_AT_call_file, &attr) && !dwarf_formudata(&attr, &w) &&
	    w < nfiles)
		*file = dwarf_filesrc(files, w, NULL, NULL);
	if (!*file)
		*line = 0;
}

static int push_sym(struct uw_dbg *d, const struct uw_sym *s)
{
	int err = bp_grow((void **)&d->syms, d->nsyms, &d->cap, sizeof(*d->syms), 64);

	if (err)
		return err;
	d->syms[d->nsyms++] = *s;
	return 0;
}

/* The symbol table's function at addr, and its address (gdb's choice). */
static const char *symtab_func(struct uw_dbg *d, Dwarf_Addr addr, Dwarf_Addr *start)
{
	if (!d->msyms)
		d->msyms = uw_msyms__new(d->mod);
	return d->msyms ? uw_msyms__at(d->msyms, addr, start) : NULL;
}

static int cmp_cu_range(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Every unit's ranges: libdw 0.188 finds a unit by .debug_aranges only,
 * which clang does not emit. */
static int index_cus(struct uw_dbg *d)
{
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;

	d->cus_built = true;
	while ((cu = dwfl_module_nextcu(d->mod, cu, &bias))) {
		Dwarf_Addr base, start, end;
		ptrdiff_t off = 0;

		while ((off = dwarf_ranges(cu, off, &base, &start, &end)) > 0) {
			int err = bp_grow((void **)&d->cus, d->ncus, &d->cus_cap, sizeof(*d->cus), 64);

			if (err)
				return err;
			d->cus[d->ncus++] = (struct cu_range){
				.start = start + bias, .end = end + bias, .off = dwarf_dieoffset(cu),
			};
		}
	}
	if (d->ncus)
		qsort(d->cus, d->ncus, sizeof(*d->cus), cmp_cu_range);
	return 0;
}

/* The unit holding addr (an address of the module's Dwfl), in *mem. */
static Dwarf_Die *find_cu(struct uw_dbg *d, Dwarf_Addr addr, Dwarf_Die *mem, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwfl_module_addrdie(d->mod, addr, bias);
	size_t lo = 0, hi;
	int steps = 0;
	Dwarf *dw;

	if (cu)
		return cu;
	if (!d->cus_built && index_cus(d))
		return NULL;
	/* the last range starting at or before addr, back while one could
	 * still hold it (ranges of units may nest in a bad index) */
	for (hi = d->ncus; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->cus[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	dw = dwfl_module_getdwarf(d->mod, bias);
	while (dw && lo-- > 0 && steps++ < 64)
		if (addr < d->cus[lo].end)
			return dwarf_offdie(dw, d->cus[lo].off, mem);
	return NULL;
}

static Dwarf_Die *find_cu_cb(void *arg, Dwarf_Addr addr, Dwarf_Die *mem, Dwarf_Addr *bias)
{
	return find_cu(arg, addr, mem, bias);
}

struct uw_calls *uw_dbg__calls(struct uw_dbg *d)
{
	if (!d->calls)
		d->calls = uw_calls__new(d->mod, find_cu_cb, d);
	return d->calls;
}

static int compute(struct uw_dbg *d, Dwarf_Addr addr)
{
	Dwarf_Die chain[MAX_CHAIN], *cu, cu_mem;
	struct uw_sym s = { 0 };
	Dwarf_Addr bias, start = 0;
	const char *sym_name, *file = NULL;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	int n = 0, first = 0, line = 0, i, err;
	bool c;

	sym_name = symtab_func(d, addr, &start);
	cu = find_cu(d, addr, &cu_mem, &bias);
	if (!cu) {
		/* no DWARF here: the symbol alone, no line (as gdb) */
		s.func = sym_name;
		s.has_start = s.has_entry = sym_name != NULL;
		s.start = s.entry = start;
		return push_sym(d, &s);
	}
	c = is_c(dwarf_srclang(cu));
	walk(cu, addr - bias, c, chain, &n, 0);
	/* a function nested in another is a function of its own */
	for (i = 0; i < n; i++)
		if (dwarf_tag(&chain[i]) == DW_TAG_subprogram)
			first = i;
	err = uw_lines__find(d->lines, cu, addr - bias, &file, &line);
	if (err == -ENOMEM)
		return err;
	if (err) {
		file = NULL;
		line = 0;
	}
	if (n == 0) {
		/* code with lines but no function (assembly) */
		s.func = sym_name;
		s.file = file;
		s.line = line;
		s.has_start = s.has_entry = sym_name != NULL;
		s.start = s.entry = start;
		return push_sym(d, &s);
	}
	if (dwarf_getsrcfiles(cu, &files, &nfiles))
		files = NULL;
	for (i = n - 1; i >= first; i--) {
		s = (struct uw_sym){ 0 };
		s.func = die_name(&chain[i], c);
		s.is_inline = dwarf_tag(&chain[i]) == DW_TAG_inlined_subroutine;
		if (i == n - 1) {
			s.file = file;
			s.line = line;
		} else {
			call_site(&chain[i + 1], files, nfiles, &s.file, &s.line);
		}
		if (i == first) {
			Dwarf_Addr entry;

			if (!s.func)
				s.func = sym_name;
			s.has_start = sym_name != NULL;
			s.start = start;
			if (!uw_calls__entry(&chain[i], &entry)) {
				s.has_entry = true;
				s.entry = entry + bias;
			} else {
				s.has_entry = s.has_start;
				s.entry = start;
			}
		}
		err = push_sym(d, &s);
		if (err)
			return err;
	}
	return 0;
}

static size_t slot_of(Dwarf_Addr addr)
{
	return (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 32) & (2 * MEMO_MAX - 1);
}

int uw_dbg__symbolize(struct uw_dbg *d, Dwarf_Addr addr, const struct uw_sym **syms, int *n)
{
	struct memo_ent *e;
	size_t i, first;
	int err;

	for (i = slot_of(addr); d->slots[i].used; i = (i + 1) & (2 * MEMO_MAX - 1)) {
		if (d->slots[i].addr == addr) {
			*syms = d->syms + d->slots[i].first;
			*n = d->slots[i].n;
			return 0;
		}
	}
	if (d->used == MEMO_MAX) {
		/* full: start over */
		memset(d->slots, 0, 2 * MEMO_MAX * sizeof(*d->slots));
		d->used = 0;
		d->nsyms = 0;
		i = slot_of(addr);
	}
	first = d->nsyms;
	err = compute(d, addr);
	if (err) {
		d->nsyms = first;
		return err;
	}
	e = &d->slots[i];
	e->used = true;
	e->addr = addr;
	e->first = first;
	e->n = d->nsyms - first;
	d->used++;
	*syms = d->syms + first;
	*n = e->n;
	return 0;
}
