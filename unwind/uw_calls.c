// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A module's call sites, per unit, read when first asked (uw_calls.h), and
 * its global symbols by name. As gdb reads them (dwarf2/read.c,
 * read_call_site_scope): the first call site of a unit at an address
 * wins; a tail call counts for its function only when the function says
 * it lists all its (tail) calls (DW_AT_call_all_calls and kin).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "unwind/uw_calls.h"
#include "util/grow.h"

struct cu_calls {
	Dwarf_Off cu_off;
	struct uw_call_site *v;	/* by pc */
	size_t n, cap;
};

struct global {
	const char *name;
	Dwarf_Addr addr;
};

struct uw_calls {
	Dwfl_Module *mod;
	uw_cu_finder find_cu;
	void *find_arg;
	struct cu_calls **cus;	/* a few units: searched in order */
	size_t ncus, cus_cap;
	struct global *globals;	/* by name, built when first asked */
	size_t nglobals;
	bool globals_built;
	struct uw_call_site *tails;	/* uw_calls__tail_calls' answer */
	size_t ntails, tails_cap;
};

struct uw_calls *uw_calls__new(Dwfl_Module *mod, uw_cu_finder find_cu, void *arg)
{
	struct uw_calls *c = calloc(1, sizeof(*c));

	if (c) {
		c->mod = mod;
		c->find_cu = find_cu;
		c->find_arg = arg;
	}
	return c;
}

void uw_calls__free(struct uw_calls *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->ncus; i++) {
		free(c->cus[i]->v);
		free(c->cus[i]);
	}
	free(c->cus);
	free(c->globals);
	free(c->tails);
	free(c);
}

static bool flag(Dwarf_Die *die, int name)
{
	Dwarf_Attribute attr;
	bool v = false;

	return dwarf_attr_integrate(die, name, &attr) && !dwarf_formflag(&attr, &v) && v;
}

static bool lists_all_tail_calls(Dwarf_Die *func)
{
	return flag(func, DW_AT_call_all_calls) || flag(func, DW_AT_GNU_all_call_sites) ||
	       flag(func, DW_AT_call_all_tail_calls) || flag(func, DW_AT_GNU_all_tail_call_sites);
}

static bool is_c(Dwarf_Die *cu)
{
	switch (dwarf_srclang(cu)) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_C99:
	case DW_LANG_C11:
		return true;
	default:
		return false;
	}
}

static int record(struct cu_calls *cc, Dwarf_Die *die, Dwarf_Die *func, Dwarf_Addr bias)
{
	Dwarf_Attribute attr;
	Dwarf_Addr pc;
	int err;

	if (!dwarf_attr(die, DW_AT_call_return_pc, &attr) && !dwarf_attr(die, DW_AT_low_pc, &attr))
		return 0;
	if (dwarf_formaddr(&attr, &pc))
		return 0;
	err = bp_grow((void **)&cc->v, cc->n, &cc->cap, sizeof(*cc->v), 64);
	if (err)
		return err;
	cc->v[cc->n++] = (struct uw_call_site){
		.pc = pc + bias,
		.die = dwarf_dieoffset(die),
		.func = func ? dwarf_dieoffset(func) : 0,
		.tail = (flag(die, DW_AT_call_tail_call) || flag(die, DW_AT_GNU_tail_call)) &&
			func && lists_all_tail_calls(func),
	};
	return 0;
}

static int visit(struct cu_calls *cc, Dwarf_Die *parent, Dwarf_Die *func, bool c,
		 Dwarf_Addr bias, int depth)
{
	Dwarf_Die child;
	int err = 0;

	if (depth > 256 || dwarf_child(parent, &child))
		return 0;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_call_site:
		case DW_TAG_GNU_call_site:
			err = record(cc, &child, func, bias);
			break;
		case DW_TAG_subprogram:
			err = visit(cc, &child, &child, c, bias, depth + 1);
			break;
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			err = visit(cc, &child, func, c, bias, depth + 1);
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			if (!c)
				err = visit(cc, &child, func, c, bias, depth + 1);
			break;
		default:
			break;
		}
	} while (!err && !dwarf_siblingof(&child, &child));
	return err;
}

static int cmp_site(const void *a, const void *b)
{
	const struct uw_call_site *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	/* the first in the unit wins */
	return x->die < y->die ? -1 : x->die > y->die;
}

/* The call sites of the unit holding addr (built once). */
static int unit_calls(struct uw_calls *c, Dwarf_Addr addr, struct cu_calls **out)
{
	Dwarf_Die *cu, mem;
	struct cu_calls *cc;
	Dwarf_Addr bias;
	Dwarf_Off off;
	size_t i, j;
	int err;

	cu = c->find_cu(c->find_arg, addr, &mem, &bias);
	if (!cu)
		return -ENOENT;
	off = dwarf_dieoffset(cu);
	for (i = 0; i < c->ncus; i++) {
		if (c->cus[i]->cu_off == off) {
			*out = c->cus[i];
			return 0;
		}
	}
	err = bp_grow((void **)&c->cus, c->ncus, &c->cus_cap, sizeof(*c->cus), 8);
	cc = err ? NULL : calloc(1, sizeof(*cc));
	if (!cc)
		return -ENOMEM;
	cc->cu_off = off;
	err = visit(cc, cu, NULL, is_c(cu), bias, 0);
	if (err) {
		free(cc->v);
		free(cc);
		return err;
	}
	bp_sort(cc->v, cc->n, sizeof(*cc->v), cmp_site);
	for (i = 0, j = 0; i < cc->n; i++)
		if (!j || cc->v[i].pc != cc->v[j - 1].pc)
			cc->v[j++] = cc->v[i];
	cc->n = j;
	c->cus[c->ncus++] = cc;
	*out = cc;
	return 0;
}

int uw_calls__at(struct uw_calls *c, Dwarf_Addr pc, struct uw_call_site *out)
{
	struct cu_calls *cc;
	size_t lo = 0, hi;
	int err;

	/* the unit of the call (pc - 1): a tail call may be its last bytes */
	err = unit_calls(c, pc - 1, &cc);
	if (err)
		return err;
	for (hi = cc->n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (cc->v[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == cc->n || cc->v[lo].pc != pc)
		return -ENOENT;
	*out = cc->v[lo];
	return 0;
}

int uw_calls__entry(Dwarf_Die *die, Dwarf_Addr *entry)
{
	Dwarf_Addr base, start, end;

	if (!dwarf_lowpc(die, entry))
		return 0;
	if (dwarf_ranges(die, 0, &base, &start, &end) > 0) {
		*entry = start;
		return 0;
	}
	return -ENOENT;
}

static Dwarf_Die *die_at(struct uw_calls *c, Dwarf_Off off, Dwarf_Die *mem, Dwarf_Addr *bias)
{
	Dwarf *dw = dwfl_module_getdwarf(c->mod, bias);

	return dw ? dwarf_offdie(dw, off, mem) : NULL;
}

int uw_calls__target(struct uw_calls *c, const struct uw_call_site *cs, struct uw_call_target *t)
{
	Dwarf_Die die, target;
	Dwarf_Attribute attr;
	Dwarf_Addr bias, base, start, end, low;
	ptrdiff_t off = 0;

	memset(t, 0, sizeof(*t));
	if (!die_at(c, cs->die, &die, &bias))
		return -ENOENT;
	/* a computed target (an indirect call) cannot be followed without
	 * the caller's registers; gdb gives up there, and so do we */
	if (dwarf_attr(&die, DW_AT_call_target, &attr) ||
	    dwarf_attr(&die, DW_AT_GNU_call_site_target, &attr))
		return -ENOENT;
	if (!dwarf_attr(&die, DW_AT_call_origin, &attr) &&
	    !dwarf_attr(&die, DW_AT_abstract_origin, &attr))
		return -ENOENT;
	if (!dwarf_formref_die(&attr, &target))
		return -ENOENT;
	if (flag(&target, DW_AT_declaration) && !dwarf_hasattr(&target, DW_AT_specification)) {
		if (dwarf_attr_integrate(&target, DW_AT_linkage_name, &attr) ||
		    dwarf_attr_integrate(&target, DW_AT_MIPS_linkage_name, &attr))
			t->name = dwarf_formstring(&attr);
		if (!t->name)
			t->name = dwarf_diename(&target);
		return t->name ? 0 : -ENOENT;
	}
	if (dwarf_attr_integrate(&target, DW_AT_ranges, &attr)) {
		while (t->n < UW_CALL_TARGETS &&
		       (off = dwarf_ranges(&target, off, &base, &start, &end)) > 0)
			t->addrs[t->n++] = start + bias;
		return t->n ? 0 : -ENOENT;
	}
	if (dwarf_lowpc(&target, &low))
		return -ENOENT;
	t->addrs[t->n++] = low + bias;
	return 0;
}

/* The real function (not an inlined call) holding a, in *mem. */
static Dwarf_Die *function_at(Dwarf_Die *parent, Dwarf_Addr a, bool c, Dwarf_Die *mem, int depth)
{
	Dwarf_Die child, *found = NULL;

	if (depth > 256 || dwarf_child(parent, &child))
		return NULL;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
			if (dwarf_haspc(&child, a) <= 0)
				break;
			if (dwarf_tag(&child) == DW_TAG_subprogram) {
				*mem = child;
				found = mem;
			}
			/* a function nested inside is the one */
			{
				Dwarf_Die inner;

				if (function_at(&child, a, c, &inner, depth + 1)) {
					*mem = inner;
					found = mem;
				}
			}
			return found;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			if (!c && function_at(&child, a, c, mem, depth + 1))
				return mem;
			break;
		default:
			break;
		}
	} while (!dwarf_siblingof(&child, &child));
	return NULL;
}

int uw_calls__tail_calls(struct uw_calls *c, Dwarf_Addr entry, const struct uw_call_site **v,
			 int *n)
{
	Dwarf_Die func, *cu, mem;
	struct cu_calls *cc;
	Dwarf_Addr bias, at;
	Dwarf_Off off;
	size_t i;
	int err;

	cu = c->find_cu(c->find_arg, entry, &mem, &bias);
	if (!cu || !function_at(cu, entry - bias, is_c(cu), &func, 0) ||
	    uw_calls__entry(&func, &at) || at + bias != entry)
		return -ENOENT;
	err = unit_calls(c, entry, &cc);
	if (err)
		return err;
	off = dwarf_dieoffset(&func);
	c->ntails = 0;
	for (i = 0; i < cc->n; i++) {
		if (!cc->v[i].tail || cc->v[i].func != off)
			continue;
		err = bp_grow((void **)&c->tails, c->ntails, &c->tails_cap, sizeof(*c->tails), 16);
		if (err)
			return err;
		c->tails[c->ntails++] = cc->v[i];
	}
	*v = c->tails;
	*n = c->ntails;
	return 0;
}

static int cmp_global(const void *a, const void *b)
{
	const struct global *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static int build_globals(struct uw_calls *c)
{
	size_t cap = 0;
	int i, n;

	c->globals_built = true;
	n = dwfl_module_getsymtab(c->mod);
	for (i = 1; i < n; i++) {
		GElf_Addr addr;
		GElf_Word shndx;
		GElf_Sym sym;
		const char *name;
		int bind, type;

		name = dwfl_module_getsym_info(c->mod, i, &sym, &addr, &shndx, NULL, NULL);
		if (!name || !*name || shndx == SHN_UNDEF)
			continue;
		bind = GELF_ST_BIND(sym.st_info);
		type = GELF_ST_TYPE(sym.st_info);
		if ((bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE) ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT))
			continue;
		if (bp_grow((void **)&c->globals, c->nglobals, &cap, sizeof(*c->globals), 256))
			return -ENOMEM;
		c->globals[c->nglobals++] = (struct global){ .name = name, .addr = addr };
	}
	bp_sort(c->globals, c->nglobals, sizeof(*c->globals), cmp_global);
	return 0;
}

int uw_calls__global(struct uw_calls *c, const char *name, Dwarf_Addr *addr)
{
	struct global key = { .name = name }, *g;
	int err;

	if (!c->globals_built) {
		err = build_globals(c);
		if (err)
			return err;
	}
	g = bsearch(&key, c->globals, c->nglobals, sizeof(*g), cmp_global);
	if (!g)
		return -ENOENT;
	*addr = g->addr;
	return 0;
}
