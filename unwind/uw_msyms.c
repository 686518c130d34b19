// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * gdb's minimal symbols of a module (uw_msyms.h). gdb reads the file's own
 * symbol table (.symtab, or .dynsym when stripped) and, apart, the
 * separate debug file's; in each, by address then name, it takes the last
 * of the symbols at the highest address at or below the PC, one with a
 * size before one without, an earlier one whose size covers the PC before
 * one whose size does not, none past every size (minsyms.c,
 * lookup_minimal_symbol_by_pc_section). Between the two files the higher
 * address wins, the file's own on a tie (so a stripped library's
 * exported name before its debug file's local alias). Only code symbols
 * count, labels without a type too. The name is the one gdb prints
 * (uw_gdbname.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <gelf.h>

#include "unwind/uw_msyms.h"
#include "util/grow.h"

struct msym {
	Dwarf_Addr addr;
	GElf_Xword size;
	const char *name;
	char *print;		/* gdb's name for it, when another */
	bool print_known;
};

struct tier {
	struct msym *v;
	size_t n, cap;
};

struct uw_msyms {
	Dwfl_Module *mod;
	bool built;
	struct tier tiers[2];	/* the file's own, then libdwfl's (the debug file's) */
};

struct uw_msyms *uw_msyms__new(Dwfl_Module *mod)
{
	struct uw_msyms *m = calloc(1, sizeof(*m));

	if (m)
		m->mod = mod;
	return m;
}

void uw_msyms__free(struct uw_msyms *m)
{
	size_t i;
	int t;

	if (!m)
		return;
	for (t = 0; t < 2; t++) {
		for (i = 0; i < m->tiers[t].n; i++)
			free(m->tiers[t].v[i].print);
		free(m->tiers[t].v);
	}
	free(m);
}

static int cmp_msym(const void *a, const void *b)
{
	const struct msym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static bool is_code(Elf *elf, const GElf_Sym *sym, GElf_Word shndx)
{
	int type = GELF_ST_TYPE(sym->st_info);
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
		return false;
	if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
		return false;
	scn = elf ? elf_getscn(elf, shndx) : NULL;
	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

static int add(struct tier *t, Dwarf_Addr addr, GElf_Xword size, const char *name)
{
	if (!name || !*name)
		return 0;
	if (bp_grow((void **)&t->v, t->n, &t->cap, sizeof(*t->v), 256))
		return -ENOMEM;
	t->v[t->n++] = (struct msym){ .addr = addr, .size = size, .name = name };
	return 0;
}

/* The file's own table: .symtab, else .dynsym. */
static int read_own(struct uw_msyms *m)
{
	Elf_Scn *scn = NULL, *found = NULL;
	Dwarf_Addr bias;
	Elf_Data *data;
	GElf_Shdr sh;
	size_t i, n;
	Elf *elf;

	elf = dwfl_module_getelf(m->mod, &bias);
	if (!elf)
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			found = scn;
			break;
		}
		if (sh.sh_type == SHT_DYNSYM)
			found = scn;
	}
	if (!found || !gelf_getshdr(found, &sh) || !(data = elf_getdata(found, NULL)) ||
	    !sh.sh_entsize)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(data, i, &sym) || !is_code(elf, &sym, sym.st_shndx))
			continue;
		if (add(&m->tiers[0], sym.st_value + bias, sym.st_size,
			elf_strptr(elf, sh.sh_link, sym.st_name)))
			return -ENOMEM;
	}
	return 0;
}

/* libdwfl's table: the debug file's .symtab when there is one. */
static int read_dwfl(struct uw_msyms *m)
{
	int i, n = dwfl_module_getsymtab(m->mod);

	for (i = 1; i < n; i++) {
		GElf_Addr addr, bias;
		GElf_Word shndx;
		GElf_Sym sym;
		Elf *elf = NULL;
		const char *name;

		name = dwfl_module_getsym_info(m->mod, i, &sym, &addr, &shndx, &elf, &bias);
		if (name && is_code(elf, &sym, shndx) && add(&m->tiers[1], addr, sym.st_size, name))
			return -ENOMEM;
	}
	return 0;
}

static int build(struct uw_msyms *m)
{
	int i, err;

	m->built = true;
	err = read_own(m);
	if (!err)
		err = read_dwfl(m);
	for (i = 0; i < 2; i++)
		bp_sort(m->tiers[i].v, m->tiers[i].n, sizeof(*m->tiers[i].v), cmp_msym);
	return err;
}

/* gdb's choice in one table: an index, or -1. */
static long best_in(const struct tier *t, Dwarf_Addr addr)
{
	const struct msym *v = t->v;
	long lo = 0, hi = t->n, best_zero = -1;

	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;

		if (v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	hi = lo - 1;
	while (hi >= 0) {
		if (!v[hi].size) {
			if (best_zero < 0)
				best_zero = hi;
			hi--;
			continue;
		}
		if (hi > 0 && addr >= v[hi].addr + v[hi].size &&
		    addr < v[hi - 1].addr + v[hi - 1].size) {
			hi--;
			continue;
		}
		break;
	}
	if (best_zero >= 0 && (hi < 0 || !v[hi].size))
		hi = best_zero;
	if (hi >= 0 && v[hi].size && addr >= v[hi].addr + v[hi].size)
		hi = best_zero;
	return hi;
}

const char *uw_msyms__at(struct uw_msyms *m, Dwarf_Addr addr, Dwarf_Addr *start)
{
	struct msym *best = NULL;
	int i;

	if (!m->built && build(m))
		return NULL;
	for (i = 0; i < 2; i++) {
		long k = best_in(&m->tiers[i], addr);

		if (k >= 0 && (!best || m->tiers[i].v[k].addr > best->addr))
			best = &m->tiers[i].v[k];
	}
	if (!best)
		return NULL;
	if (!best->print_known) {
		best->print = uw_gdb_msym_name(best->name);
		best->print_known = true;
	}
	*start = best->addr;
	return best->print ? best->print : best->name;
}
