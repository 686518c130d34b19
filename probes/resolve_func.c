// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The functions a spec names: every out-of-line copy (static functions of
 * the same name in several files each give one), found in DWARF or, when
 * no argument needs DWARF, in the ELF symbol table. And where a prologue
 * ends, from the line table.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf_resolve.h"
#include "probes/dwarf_types.h"
#include "util/log.h"

#define MAX_SUGGEST	3
#define MAX_NAME_LEN	64

/* --- "did you mean" ------------------------------------------------------ */

struct suggest {
	const char *want;
	const char *names[MAX_SUGGEST];
	char *owned[MAX_SUGGEST];	/* copies: symbol names do not outlive us */
	int scores[MAX_SUGGEST];
	int n;
};

static int edit_distance(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b), i, j;
	int row[MAX_NAME_LEN + 1];

	if (la > MAX_NAME_LEN || lb > MAX_NAME_LEN)
		return MAX_NAME_LEN;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int diag = row[0], tmp;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (tmp + 1 < row[j])
				row[j] = tmp + 1;
			diag = tmp;
		}
	}
	return row[lb];
}

static void suggest_add(struct suggest *s, const char *name)
{
	int score, limit, i, worst = 0;
	char *copy;

	for (i = 0; i < s->n; i++) {
		if (!strcmp(s->names[i], name))
			return;
	}
	score = edit_distance(s->want, name);
	/* a prefix ("handle" for "handle_req") is a good hint too */
	if (!strncmp(s->want, name, strlen(s->want)) ||
	    !strncmp(s->want, name, strlen(name)))
		score = score < 2 ? score : 2;
	limit = strlen(s->want) / 3 + 1;
	if (score > limit)
		return;
	if (s->n < MAX_SUGGEST) {
		i = s->n++;
	} else {
		for (i = 1; i < s->n; i++) {
			if (s->scores[i] > s->scores[worst])
				worst = i;
		}
		if (s->scores[worst] <= score)
			return;
		i = worst;
		free(s->owned[i]);
	}
	copy = strdup(name);
	s->owned[i] = copy;
	s->names[i] = copy ? copy : "";
	s->scores[i] = score;
}

static void suggest_add_cb(const char *name, void *ctx)
{
	suggest_add(ctx, name);
}

static void suggest_format(struct suggest *s, char *buf, size_t len)
{
	size_t pos = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < s->n && pos < len; i++)
		pos += snprintf(buf + pos, len - pos, "%s%s", i ? ", " : " (did you mean: ",
				s->names[i]);
	if (s->n && pos < len)
		snprintf(buf + pos, len - pos, "?)");
}

static void suggest_free(struct suggest *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		free(s->owned[i]);
}

/* --- collecting functions ------------------------------------------------- */

struct func_list {
	const char *name;
	struct bp_func *funcs;
	int n, cap;
	bool inlined;		/* an abstract inline instance was seen */
	const char *cu_name;	/* of the unit being walked */
	struct suggest *sug;
	int err;
};

static int func_list_add(struct func_list *l, const struct bp_func *f)
{
	struct bp_func *tmp;
	int i;

	for (i = 0; i < l->n; i++) {
		if (l->funcs[i].entry == f->entry)
			return 0;	/* same code reached twice (DWZ, .dynsym) */
	}
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 4;

		tmp = realloc(l->funcs, cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		l->funcs = tmp;
		l->cap = cap;
	}
	l->funcs[l->n++] = *f;
	return 0;
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
static bool func_code(Dwarf_Die *die, uint64_t *entry, uint64_t *end)
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

static int func_cb(Dwarf_Die *die, void *arg)
{
	struct func_list *l = arg;
	struct bp_func f = { .has_die = true, .die = *die, .cu_name = l->cu_name };
	Dwarf_Attribute attr;
	const char *name;
	bool has_code;

	if (dwarf_tag(die) != DW_TAG_subprogram)
		return DWARF_CB_OK;
	name = bp_die_name(die);
	if (!name)
		return DWARF_CB_OK;
	has_code = !dwarf_hasattr(die, DW_AT_declaration) &&
		   func_code(die, &f.entry, &f.end);
	if (strcmp(name, l->name)) {
		if (has_code && l->sug)
			suggest_add(l->sug, name);
		return DWARF_CB_OK;
	}
	if (!has_code) {
		if (dwarf_attr_integrate(die, DW_AT_inline, &attr))
			l->inlined = true;
		return DWARF_CB_OK;
	}
	l->err = func_list_add(l, &f);
	return l->err ? DWARF_CB_ABORT : DWARF_CB_OK;
}

static int find_in_dwarf(Dwarf *dwarf, struct func_list *l)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	uint8_t unit_type;
	Dwarf_Half version;
	int ret;

	while ((ret = dwarf_get_units(dwarf, cu, &cu, &version, &unit_type,
				      &cudie, &subdie)) == 0) {
		Dwarf_Die *unit = &cudie;

		/* split DWARF: the code is described in the split unit */
		if (unit_type == DW_UT_skeleton)
			unit = &subdie;
		else if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		if (!dwarf_tag(unit))
			continue;
		l->cu_name = dwarf_diename(unit);
		if (dwarf_getfuncs(unit, func_cb, l, 0) < 0 && !l->err)
			bp_debug("dwarf_getfuncs: %s\n", dwarf_errmsg(-1));
		if (l->err)
			return l->err;
	}
	return 0;
}

static int elf_func_cb(const struct bp_elf_func *ef, void *ctx)
{
	struct func_list *l = ctx;
	struct bp_func f = { .entry = ef->addr, .end = ef->addr + ef->size };

	return func_list_add(l, &f);
}

struct func_at {
	uint64_t addr;
	struct bp_func *out;
	bool found;
};

static int func_at_cb(Dwarf_Die *die, void *arg)
{
	struct func_at *fa = arg;
	uint64_t entry, end;

	if (dwarf_tag(die) != DW_TAG_subprogram || dwarf_hasattr(die, DW_AT_declaration) ||
	    !func_code(die, &entry, &end) || entry != fa->addr)
		return DWARF_CB_OK;
	fa->out->die = *die;
	fa->out->has_die = true;
	fa->out->end = end;
	fa->found = true;
	return DWARF_CB_ABORT;
}

/*
 * The DWARF function starting at a symbol's address: a symbol may be an
 * alias DWARF does not know by that name (glibc's malloc is __libc_malloc).
 */
static bool dwarf_func_at(Dwarf *dwarf, struct bp_func *f)
{
	struct func_at fa = { .addr = f->entry, .out = f };
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie, *unit;
	uint8_t unit_type;

	while (!fa.found && !dwarf_get_units(dwarf, cu, &cu, NULL, &unit_type,
					     &cudie, &subdie)) {
		unit = unit_type == DW_UT_skeleton ? &subdie : &cudie;
		if (!dwarf_tag(unit) || dwarf_haspc(unit, f->entry) <= 0)
			continue;
		dwarf_getfuncs(unit, func_at_cb, &fa, 0);
		if (fa.found)
			f->cu_name = dwarf_diename(unit);
	}
	return fa.found;
}

/* Symbol-table functions, given their DWARF when it is there by address.
 * Returns whether all of them have it. */
static bool symbols_to_dwarf(const struct bp_debuginfo *di, struct func_list *l)
{
	bool all = true;
	int i;

	for (i = 0; i < l->n; i++) {
		if (di->dwarf && dwarf_func_at(di->dwarf, &l->funcs[i]))
			bp_info("function '%s' in %s is '%s' in DWARF (an alias)\n",
				l->name, di->path, bp_die_name(&l->funcs[i].die));
		else
			all = false;
	}
	return all;
}

static int by_entry(const void *a, const void *b)
{
	const struct bp_func *fa = a, *fb = b;

	return fa->entry < fb->entry ? -1 : fa->entry > fb->entry;
}

static int not_found(const struct bp_debuginfo *di, const char *name,
		     struct suggest *sug, bool in_symtab)
{
	char hint[256];

	if (in_symtab) {
		bp_err("function '%s' in %s has no debug info (its file was built without -g?): its arguments cannot be found\n",
		       name, di->path);
		return -ENOENT;
	}
	if (!sug->n)
		bp_debuginfo__elf_func_names(di, suggest_add_cb, sug);
	suggest_format(sug, hint, sizeof(hint));
	bp_err("function '%s' not found in %s%s%s\n", name, di->path, hint,
	       di->dwarf ? "" : " (it has no debug info, which may know it: install its -dbg/-dbgsym package or use debuginfod)");
	return -ENOENT;
}

int bp_funcs__find(const struct bp_debuginfo *di, const char *name,
		   bool need_dwarf, struct bp_func **funcs, int *nfuncs)
{
	struct suggest sug = { .want = name };
	struct func_list l = { .name = name, .sug = &sug };
	int err = 0, nsym;

	if (di->dwarf)
		err = find_in_dwarf(di->dwarf, &l);
	if (!err && !l.n && l.inlined) {
		bp_err("function '%s' is only inlined in %s: inline probe points are not supported yet\n",
		       name, di->path);
		err = -EOPNOTSUPP;
	} else if (!err && !l.n) {
		/* not in DWARF: the symbol table still knows its address */
		nsym = bp_debuginfo__elf_funcs(di, name, elf_func_cb, &l);
		if (nsym < 0)
			err = nsym;
		else if (!l.n || (!symbols_to_dwarf(di, &l) && need_dwarf))
			err = not_found(di, name, &sug, l.n > 0);
	}
	if (err == -ENOMEM)
		bp_err("out of memory looking for function '%s'\n", name);
	suggest_free(&sug);
	if (err) {
		free(l.funcs);
		return err;
	}
	qsort(l.funcs, l.n, sizeof(*l.funcs), by_entry);
	*funcs = l.funcs;
	*nfuncs = l.n;
	return 0;
}

/*
 * The first line-table row in the function flagged prologue_end (clang),
 * else the first row after the entry (gcc marks none: its second row is
 * the first statement of the body).
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
	for (i = 0; i < n; i++) {
		Dwarf_Line *line = dwarf_onesrcline(lines, i);
		bool flag = false;
		Dwarf_Addr a;

		if (!line || dwarf_lineaddr(line, &a) || a < fn->entry || a >= fn->end)
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
