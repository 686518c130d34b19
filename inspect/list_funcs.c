// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `bpfprobe funcs`: the functions of a binary matching a glob, from DWARF
 * (every out-of-line copy and every inlined copy, with its CU) or, for a
 * binary without DWARF, from the ELF symbol table.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "probes/dwarf/cxx.h"
#include "probes/binary/debuginfo.h"
#include "probes/dwarf/dwarf.h"
#include "probes/binary/libpath.h"
#include "probes/dwarf/types.h"
#include "inspect/funcs_vars.h"
#include "probes/report.h"
#include "util/log.h"
#include "util/grow.h"

/* DIE trees nest a few levels (blocks, inlines); broken DWARF must not
 * recurse without bound */
#define MAX_WALK_DEPTH	128

/* An out-of-line DWARF function, whatever its name: symbols at its
 * address are its aliases. Strings belong to the debuginfo. */
struct by_addr {
	uint64_t addr;		/* ELF address */
	const char *name;
	const char *cu;
	const char *decl_file;
	int decl_line;
};

struct collect {
	const struct bp_debuginfo *di;
	const char *glob;
	struct bp_func_pattern pat;	/* glob, C++ spellings too */
	const char *cu;		/* of the unit being walked */
	struct bp_func_list *l;
	size_t cap;
	struct by_addr *index;	/* every out-of-line function, by address */
	int nindex;
	size_t index_cap;
	int err;
};

/* DWARF functions: by name, qualified name or signature (C++) */
static bool matches_die(const struct collect *c, Dwarf_Die *die, const char *name)
{
	return name && (!c->glob || bp_func_pattern__matches(&c->pat, die, name));
}

static bool matches(const struct collect *c, const char *name)
{
	return name && (!c->glob || !fnmatch(c->glob, name, 0));
}

static struct bp_func_entry *add_entry(struct collect *c)
{
	struct bp_func_list *l = c->l;
	struct bp_func_entry *tmp;

	if (bp_grow((void **)&l->funcs, l->n, &c->cap, sizeof(*l->funcs), 16)) {
		c->err = -ENOMEM;
		return NULL;
	}
	tmp = &l->funcs[l->n++];
	memset(tmp, 0, sizeof(*tmp));
	return tmp;
}

static char *dup_or_null(struct collect *c, const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		c->err = -ENOMEM;
	return d;
}

/* Address, file offset and size of an entry, from its DWARF range. */
static void set_addr(struct collect *c, struct bp_func_entry *e, uint64_t entry,
		     uint64_t end)
{
	e->addr = bp_debuginfo__elf_addr(c->di, entry);
	e->size = end > entry ? end - entry : 0;
	e->has_offset = !bp_debuginfo__file_offset(c->di, entry, &e->offset);
}

/* bp_func__code for any DIE: a declaration has no code. */
bool bp_list__code_range(Dwarf_Die *die, uint64_t *entry, uint64_t *end)
{
	if (dwarf_hasattr(die, DW_AT_declaration))
		return false;
	/* an inlined copy starts where the resolver probes it: its entry_pc,
	 * also when that is only "between views" of an address */
	if (dwarf_tag(die) == DW_TAG_inlined_subroutine)
		return bp_inline__code(die, entry, end);
	return bp_func__code(die, entry, end);
}

static void index_add(struct collect *c, Dwarf_Die *die, const char *name)
{
	struct by_addr *b;
	uint64_t entry, end;

	if (!name || !bp_list__code_range(die, &entry, &end))
		return;
	if (bp_grow((void **)&c->index, c->nindex, &c->index_cap, sizeof(*c->index), 64)) {
		c->err = -ENOMEM;
		return;
	}
	b = &c->index[c->nindex++];
	b->addr = bp_debuginfo__elf_addr(c->di, entry);
	b->name = name;
	b->cu = c->cu;
	b->decl_file = dwarf_decl_file(die);
	b->decl_line = 0;
	dwarf_decl_line(die, &b->decl_line);
}

static void add_dwarf_func(struct collect *c, Dwarf_Die *die, const char *name,
			   const char *caller)
{
	struct bp_func_entry *e;
	uint64_t entry, end;
	int line = 0;

	if (!bp_list__code_range(die, &entry, &end))
		return;
	e = add_entry(c);
	if (!e)
		return;
	e->is_inline = dwarf_tag(die) == DW_TAG_inlined_subroutine;
	e->name = dup_or_null(c, name);
	/* C++: the other spelling, demangled from the linkage name */
	e->signature = bp_cxx__demangled(die);
	e->cu = dup_or_null(c, c->cu);
	e->caller = e->is_inline ? dup_or_null(c, caller) : NULL;
	/* an inlined copy's declaration is its abstract origin's */
	e->decl_file = dup_or_null(c, dwarf_decl_file(die));
	if (!dwarf_decl_line(die, &line))
		e->decl_line = line;
	set_addr(c, e, entry, end);
}

static bool walk_into(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_lexical_block:
	case DW_TAG_namespace:
	case DW_TAG_module:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
		return true;
	default:
		return false;
	}
}

/* caller: the innermost function (out-of-line or inlined) around parent. */
static void walk(struct collect *c, Dwarf_Die *parent, const char *caller, int depth)
{
	Dwarf_Die child;
	const char *name;
	int tag;

	if (depth > MAX_WALK_DEPTH || dwarf_child(parent, &child))
		return;
	do {
		tag = dwarf_tag(&child);
		if (!walk_into(tag))
			continue;
		name = caller;
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			name = bp_die_name(&child);
			if (matches_die(c, &child, name))
				add_dwarf_func(c, &child, name, caller);
			if (tag == DW_TAG_subprogram)
				index_add(c, &child, name);
		}
		walk(c, &child, name, depth + 1);
	} while (!c->err && !dwarf_siblingof(&child, &child));
}

static void walk_units(struct collect *c, Dwarf *dwarf)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie, *unit;
	uint8_t unit_type;

	while (!c->err && !dwarf_get_units(dwarf, cu, &cu, NULL, &unit_type,
					   &cudie, &subdie)) {
		/* split DWARF: the code is described in the split unit */
		unit = unit_type == DW_UT_skeleton ? &subdie : &cudie;
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type ||
		    !dwarf_tag(unit))
			continue;
		c->cu = dwarf_diename(unit);
		walk(c, unit, NULL, 0);
	}
}

static int by_addr_cmp(const void *a, const void *b)
{
	const struct by_addr *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const struct by_addr *index_find(const struct collect *c, uint64_t addr)
{
	struct by_addr key = { .addr = addr };

	if (!c->nindex)
		return NULL;
	return bsearch(&key, c->index, c->nindex, sizeof(key), by_addr_cmp);
}

/*
 * Symbol-table functions matching the glob. With DWARF, only those DWARF
 * knows by another name at the same address (glibc's malloc is
 * __libc_malloc): they are probeable with arguments by that name too.
 */
static void add_symbols(struct collect *c)
{
	const struct bp_debuginfo *di = c->di;
	int i, n = dwfl_module_getsymtab(di->mod);

	if (c->nindex)	/* qsort(NULL, 0) is undefined */
		qsort(c->index, c->nindex, sizeof(*c->index), by_addr_cmp);
	for (i = 1; i < n && !c->err; i++) {
		const struct by_addr *target = NULL;
		struct bp_func_entry *e;
		const char *name;
		GElf_Addr addr;
		GElf_Word shndx;
		GElf_Sym sym;
		uint64_t daddr;
		int type;

		name = dwfl_module_getsym_info(di->mod, i, &sym, &addr, &shndx, NULL, NULL);
		if (!name || !*name || shndx == SHN_UNDEF || !matches(c, name))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		daddr = addr - di->dwarf_bias;
		if (di->dwarf) {
			target = index_find(c, bp_debuginfo__elf_addr(di, daddr));
			/* no debug info for it, or DWARF lists it by this name */
			if (!target || !strcmp(target->name, name))
				continue;
		}
		e = add_entry(c);
		if (!e)
			return;
		e->from_symtab = true;
		e->name = dup_or_null(c, name);
		if (target) {
			e->alias_of = dup_or_null(c, target->name);
			e->cu = dup_or_null(c, target->cu);
			e->decl_file = dup_or_null(c, target->decl_file);
			e->decl_line = target->decl_line;
		}
		set_addr(c, e, daddr, daddr + sym.st_size);
	}
}

static int by_name_addr(const void *a, const void *b)
{
	const struct bp_func_entry *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r)
		return r;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (int)x->is_inline - (int)y->is_inline;
}

static void free_entry(struct bp_func_entry *e)
{
	free(e->name);
	free(e->signature);
	free(e->cu);
	free(e->caller);
	free(e->alias_of);
	free(e->decl_file);
}

/* The same code reached twice (DWZ partial units, .symtab and .dynsym). */
static void dedup(struct bp_func_list *l)
{
	int i, n = 0;

	for (i = 0; i < l->n; i++) {
		struct bp_func_entry *e = &l->funcs[i];

		if (n && !by_name_addr(&l->funcs[n - 1], e)) {
			free_entry(e);
			continue;
		}
		l->funcs[n++] = *e;
	}
	l->n = n;
}

int bp_func_list__collect(struct bp_func_list *l, const char *binary, const char *glob)
{
	struct bp_debuginfo *di = NULL;
	struct collect c = { .glob = glob, .l = l };
	struct bp_diag d = {};
	int err;

	memset(l, 0, sizeof(*l));
	if (glob)
		bp_func_pattern__init(&c.pat, glob, true);
	l->binary = bp_find_binary(binary);
	if (!l->binary) {
		bp_err("binary '%s' not found\n", binary);
		return -ENOENT;
	}
	err = bp_debuginfo__open(l->binary, &di, &d);
	bp_report__diag(NULL, &d, NULL);
	if (err)
		return err;
	c.di = di;
	l->has_dwarf = di->dwarf != NULL;
	if (di->dwarf)
		walk_units(&c, di->dwarf);
	if (!c.err)
		add_symbols(&c);
	err = c.err;
	free(c.index);
	/* names from DWARF and libelf are gone once di is */
	bp_debuginfo__free(di);
	if (err) {
		bp_err("%s: out of memory listing functions\n", l->binary);
		return err;
	}
	if (l->n)	/* qsort(NULL, 0) is undefined */
		qsort(l->funcs, l->n, sizeof(*l->funcs), by_name_addr);
	dedup(l);
	return 0;
}

void bp_func_list__free(struct bp_func_list *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->n; i++)
		free_entry(&l->funcs[i]);
	free(l->funcs);
	free(l->binary);
	memset(l, 0, sizeof(*l));
}
