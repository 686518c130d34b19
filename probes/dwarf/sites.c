// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The functions a spec names and the probe sites in them: every
 * out-of-line copy (static functions of the same name in several files,
 * gcc's clones foo.constprop.N / foo.isra.N / foo.part.N, which DWARF
 * names foo) and every inlined copy (inline.c), matched by name
 * or glob and by FUNC@SRC, found in DWARF or, when DWARF has none of that
 * name and no argument needs it, in the ELF symbol table.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/copies.h"
#include "probes/dwarf/cxx.h"
#include "probes/dwarf/dwarf.h"
#include "probes/binary/index.h"
#include "probes/binary/line_at.h"
#include "probes/binary/unit_window.h"
#include "probes/dwarf/types.h"
#include "util/log.h"
#include "util/grow.h"
#include "util/stop.h"

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

/* Levenshtein distance of a and b, or some value above max once it is
 * sure to exceed max (no row of the table gets below it again). */
static int edit_distance(const char *a, const char *b, int max)
{
	int la = strlen(a), lb = strlen(b), i, j;
	int row[MAX_NAME_LEN + 1];

	if (la > MAX_NAME_LEN || lb > MAX_NAME_LEN)
		return MAX_NAME_LEN;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int diag = row[0], tmp, low;

		row[0] = low = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (tmp + 1 < row[j])
				row[j] = tmp + 1;
			diag = tmp;
			if (row[j] < low)
				low = row[j];
		}
		if (low > max)
			return low;
	}
	return row[lb];
}

/* Whether name may become a hint: not one already, and not too far
 * from the name wanted in length alone (most names of a large program
 * are rejected here, before anything costly). */
static bool suggest_may_add(const struct suggest *s, const char *name)
{
	int la = strlen(s->want), lb = strlen(name), i;

	for (i = 0; i < s->n; i++) {
		if (!strcmp(s->names[i], name))
			return false;
	}
	/* a prefix ("handle" for "handle_req") is a good hint too */
	if (!strncmp(s->want, name, la) || !strncmp(s->want, name, lb))
		return true;
	/* the distance is at least the difference in length */
	return abs(la - lb) <= la / 3 + 1;
}

static void suggest_add(struct suggest *s, const char *name)
{
	int score, limit, la, lb, i, worst = 0;
	bool prefix;
	char *copy;

	if (!suggest_may_add(s, name))
		return;
	la = strlen(s->want);
	lb = strlen(name);
	prefix = !strncmp(s->want, name, la) || !strncmp(s->want, name, lb);
	limit = la / 3 + 1;
	/* a prefix scores 2 at most, whatever its distance */
	score = edit_distance(s->want, name, prefix ? MAX_NAME_LEN : limit);
	if (prefix)
		score = score < 2 ? score : 2;
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
	const struct bp_spec *spec;
	const char *name;	/* FUNC: a name or a glob */
	bool glob;
	struct bp_func_pattern pat;	/* the same, C++ spellings too */
	struct bp_func *funcs;
	int n;
	size_t cap;
	struct bp_copy_set seen;	/* funcs, to find one again at once */
	bool inlined;		/* an abstract inline instance was seen */
	struct bp_inline_units inline_units;	/* the units holding those */
	bool other_file;	/* a match was dropped by FUNC@SRC */
	const char *cu_name;	/* of the unit being walked */
	struct suggest *sug;
	int err;
	struct bp_diag *diag;	/* why nothing was found */
	unsigned int ticks;	/* the stop flag is looked at every 256 (util/stop.h) */
};

static bool name_matches(const struct func_list *l, Dwarf_Die *die, const char *name)
{
	return bp_func_pattern__matches(&l->pat, die, name);
}

/* FUNC@SRC: the file the function is declared in */
static bool file_matches(struct func_list *l, Dwarf_Die *die)
{
	char buf[PATH_MAX];

	if (!l->spec->src)
		return true;
	if (bp_path__matches(bp_die_decl_file(die, buf, sizeof(buf)), l->spec->src))
		return true;
	l->other_file = true;
	return false;
}

/* f, unless it is there already: the same code reached twice (DWZ,
 * .dynsym), the same inlined copy (its DIE) */
static int func_list_add(struct func_list *l, const struct bp_func *f)
{
	int err = bp_copy_set__add(&l->seen, f);

	if (err <= 0)
		return err;
	if (bp_grow((void **)&l->funcs, l->n, &l->cap, sizeof(*l->funcs), 4))
		return -ENOMEM;
	l->funcs[l->n++] = *f;
	return 0;
}

/* An abstract instance of a function the compiler inlined somewhere. */
static bool is_inlined_abstract(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Word inl;

	if (!dwarf_attr(die, DW_AT_inline, &attr) || dwarf_formudata(&attr, &inl))
		return false;
	return inl == DW_INL_inlined || inl == DW_INL_declared_inlined;
}

static int func_cb(Dwarf_Die *die, void *arg)
{
	struct func_list *l = arg;
	struct bp_func f = { .has_die = true, .die = *die, .cu_name = l->cu_name };
	Dwarf_Attribute attr;
	const char *name;
	bool has_code;

	/* a unit of 100k functions is walked for a while: a stop ends it */
	if (bp_stop__every(&l->ticks)) {
		l->err = -EINTR;
		return DWARF_CB_ABORT;
	}
	if (dwarf_tag(die) != DW_TAG_subprogram)
		return DWARF_CB_OK;
	name = bp_die_name(die);
	if (!name)
		return DWARF_CB_OK;
	if (!name_matches(l, die, name)) {
		/* hints are for a name found nowhere, among functions with code */
		if (l->sug && !l->n && suggest_may_add(l->sug, name) &&
		    !dwarf_hasattr(die, DW_AT_declaration) && bp_func__code(die, &f.entry, &f.end))
			suggest_add(l->sug, name);
		return DWARF_CB_OK;
	}
	has_code = !dwarf_hasattr(die, DW_AT_declaration) &&
		   bp_func__code(die, &f.entry, &f.end);
	if (!has_code) {
		if (dwarf_attr_integrate(die, DW_AT_inline, &attr))
			l->inlined = true;
		if (is_inlined_abstract(die))
			l->err = bp_inline_units__add(&l->inline_units, die);
		return l->err ? DWARF_CB_ABORT : DWARF_CB_OK;
	}
	if (!file_matches(l, die))
		return DWARF_CB_OK;
	f.name = name;
	f.frame = *die;
	f.frame_entry = f.entry;
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

		if (bp_stop__requested())
			return -EINTR;
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

/*
 * The functions the index lists under the names that may match, each
 * DIE given to func_cb as the walk would, in the walk's order. -ESTALE,
 * with why, when an entry is not what the DWARF says.
 */
static int find_in_index(const struct bp_debuginfo *di, struct bp_dwarf_index *idx,
			 struct func_list *l, char *why, size_t len)
{
	struct bp_index_hit *hits = NULL;
	int i, n, err = 0;

	n = bp_dwarf_index__funcs(idx, &l->pat, &hits);
	if (n == -EBADMSG)
		snprintf(why, len, "a block of it read is corrupt");
	if (n < 0)
		return n;
	for (i = 0; i < n && !err; i++) {
		Dwarf_Die die, cudie;
		const char *name;

		if (bp_stop__every(&l->ticks)) {
			err = -EINTR;
			break;
		}
		if (!bp_unit_window__offdie(di, idx, hits[i].die, &die) ||
		    dwarf_tag(&die) != DW_TAG_subprogram ||
		    dwarf_hasattr(&die, DW_AT_declaration) || !(name = bp_die_name(&die)) ||
		    strcmp(name, hits[i].name)) {
			snprintf(why, len, "no function '%s' at DIE 0x%" PRIx64, hits[i].name,
				 hits[i].die);
			err = -ESTALE;
			break;
		}
		l->cu_name = dwarf_diecu(&die, &cudie, NULL, NULL) ? dwarf_diename(&cudie) : NULL;
		if (func_cb(&die, l) != DWARF_CB_OK)
			err = l->err;
	}
	free(hits);
	return err;
}

static int inline_cb(const struct bp_func *fn, void *ctx)
{
	struct func_list *l = ctx;

	if (!file_matches(l, (Dwarf_Die *)&fn->die))
		return 0;
	return func_list_add(l, fn);
}

static int elf_func_cb(const struct bp_elf_func *ef, void *ctx)
{
	struct func_list *l = ctx;
	struct bp_func f = {
		.entry = ef->addr, .end = ef->addr + ef->size,
		.frame_entry = ef->addr, .name = ef->name,
	};

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
	    !bp_func__code(die, &entry, &end) || entry != fa->addr)
		return DWARF_CB_OK;
	fa->out->die = *die;
	fa->out->frame = *die;
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
				l->funcs[i].name, di->path, bp_die_name(&l->funcs[i].die));
		else
			all = false;
	}
	return all;
}

static int by_entry(const void *a, const void *b)
{
	const struct bp_func *fa = a, *fb = b;

	if (fa->is_inline != fb->is_inline)
		return fa->is_inline ? 1 : -1;	/* out-of-line copies first */
	return fa->entry < fb->entry ? -1 : fa->entry > fb->entry;
}

static int not_found(const struct bp_debuginfo *di, const struct func_list *l,
		     struct suggest *sug, bool in_symtab)
{
	const struct bp_spec *spec = l->spec;
	char hint[256];

	if (in_symtab) {
		bp_diag__set(l->diag, "function '%s' in %s has no debug info (its file was built without -g?): its arguments cannot be found by name ($argN, %%REG and +OFFS(...) need no debug info)",
			     l->name, di->path);
		return -ENOENT;
	}
	if (l->other_file) {
		bp_diag__set(l->diag, "function '%s' is not declared in a file matching '%s' in %s (it is in other files: drop or fix @%s)",
			     l->name, spec->src, di->path, spec->src);
		return -ENOENT;
	}
	if (l->inlined && !spec->inlines) {
		bp_diag__set(l->diag, "function '%s' is only inlined in %s, and inlines=no excludes inlined copies",
			     l->name, di->path);
		return -ENOENT;
	}
	if (l->inlined && !spec->exec) {
		bp_diag__set(l->diag, "function '%s' is only inlined in %s: inlined copies are not probed in the kernel yet",
			     l->name, di->path);
		return -EOPNOTSUPP;
	}
	if (l->glob) {
		bp_diag__set(l->diag, "no function matches '%s' in %s%s", l->name, di->path,
			     di->dwarf ? "" : " (it has no debug info: only its symbol table was searched)");
		return -ENOENT;
	}
	if (!sug->n)
		bp_debuginfo__elf_func_names(di, suggest_add_cb, sug);
	suggest_format(sug, hint, sizeof(hint));
	bp_diag__set(l->diag, "function '%s' not found in %s%s%s", l->name, di->path, hint,
		     di->dwarf ? "" : " (it has no debug info, which may know it: install its -dbg/-dbgsym package or use debuginfod)");
	return -ENOENT;
}

static int find_in_symtab(const struct bp_debuginfo *di, struct func_list *l,
			  bool need_dwarf, struct suggest *sug)
{
	int nsym;

	if (l->spec->src) {
		if (di->dwarf)
			return not_found(di, l, sug, false);
		bp_diag__set(l->diag, "%s@%s: %s has no debug info (DWARF), which knows source files",
			     l->name, l->spec->src, di->path);
		return -ENODATA;
	}
	nsym = bp_debuginfo__elf_funcs(di, l->name, l->glob, elf_func_cb, l);
	if (nsym < 0)
		return nsym;
	if (!l->n || (!symbols_to_dwarf(di, l) && need_dwarf))
		return not_found(di, l, sug, l->n > 0);
	return 0;
}

/* Back to nothing found, for the walks (no hints were collected). */
static void func_list_reset(struct func_list *l)
{
	free(l->funcs);
	l->funcs = NULL;
	l->n = 0;
	l->cap = 0;
	bp_copy_set__clear(&l->seen);
	l->inlined = false;
	l->other_file = false;
	bp_inline_units__free(&l->inline_units);
}

/*
 * Out-of-line and inlined copies from the index. An entry that is not
 * what the DWARF says makes the index unused from then on (-v says so)
 * and the copies are looked for again by the walks: nothing found.
 */
static int copies_from_index(const struct bp_debuginfo *di, struct bp_dwarf_index *idx,
			     struct func_list *l)
{
	const struct bp_spec *spec = l->spec;
	struct suggest *sug = l->sug;
	char why[256] = "";
	int err;

	/* hints come from the walks, over every function */
	l->sug = NULL;
	err = find_in_index(di, idx, l, why, sizeof(why));
	if (!err && spec->inlines && spec->exec)
		err = bp_inlines__find(di, idx, l->name, l->glob, &l->inline_units, inline_cb, l);
	l->sug = sug;
	if (err == -ESTALE || err == -EBADMSG) {
		bp_dwarf_index__reject(di, why[0] ? why : err == -EBADMSG ?
				       "a block of it read is corrupt" :
				       "an inlined copy it lists is not in the DWARF");
		func_list_reset(l);
		err = 0;
	}
	return err;
}

/* Every copy of spec's FUNC in di: out-of-line ones, then inlined ones. */
static int find_copies(const struct bp_debuginfo *di, const struct bp_spec *spec,
		       bool need_dwarf, struct bp_func **funcs, int *nfuncs,
		       struct bp_diag *d)
{
	struct suggest sug = { .want = spec->func };
	struct func_list l = {
		.spec = spec, .name = spec->func, .glob = spec->func_glob,
		.sug = spec->func_glob ? NULL : &sug, .diag = d,
	};
	struct bp_dwarf_index *idx;
	int err = 0;

	bp_func_pattern__init(&l.pat, spec->func, spec->func_glob);
	idx = di->dwarf ? bp_dwarf_index__get(di) : NULL;
	if (idx) {
		err = copies_from_index(di, idx, &l);
		/* nothing in DWARF: the walks say why, with hints */
		if (!err && !l.n) {
			func_list_reset(&l);
			idx = NULL;
		}
	}
	if (di->dwarf && !idx) {
		err = find_in_dwarf(di->dwarf, &l);
		/* kernel points go on symbols: no inlined copies there yet */
		if (!err && spec->inlines && spec->exec)
			err = bp_inlines__find(di, NULL, l.name, l.glob, &l.inline_units,
					       inline_cb, &l);
	}
	bp_inline_units__free(&l.inline_units);
	if (!err && !l.n) {
		if (l.inlined || l.other_file)
			err = not_found(di, &l, &sug, false);
		else
			/* not in DWARF: the symbol table still knows its address */
			err = find_in_symtab(di, &l, need_dwarf, &sug);
	}
	if (err == -ENOMEM)
		bp_diag__add(d, "out of memory looking for function '%s'", l.name);
	bp_copy_set__clear(&l.seen);
	suggest_free(&sug);
	if (err) {
		free(l.funcs);
		return err;
	}
	bp_sort(l.funcs, l.n, sizeof(*l.funcs), by_entry);
	*funcs = l.funcs;
	*nfuncs = l.n;
	return 0;
}

/* --- probe sites ---------------------------------------------------------- */

/*
 * The source line of addr, for reports: read from the line program
 * (line_at.h), else as libdw decodes the whole table. A unit other sites
 * share has its table decoded by libdw, once: it keeps it for the next
 * (running the unit's line program again for each of 100k functions of
 * one unit was quadratic).
 */
static void site_source(struct bp_site *s, bool unit_shared)
{
	Dwarf_Die cudie;
	Dwarf_Line *line;
	int lineno;

	if (!s->fn.has_die || !dwarf_diecu(&s->fn.die, &cudie, NULL, NULL))
		return;
	if (!unit_shared && !bp_line_at(&cudie, s->addr, &s->file_owned, &s->line)) {
		s->file = s->file_owned;
		return;
	}
	line = dwarf_getsrc_die(&cudie, s->addr);
	if (!line || dwarf_lineno(line, &lineno))
		return;
	s->file = dwarf_linesrc(line, NULL, NULL);
	s->line = lineno;
}

/* FUNC, FUNC+OFFS, FUNC%return in one copy. */
static int entry_site(const struct bp_spec *spec, struct bp_site *s, bool unit_shared,
		      struct bp_diag *d)
{
	const struct bp_func *fn = &s->fn;
	uint64_t size = fn->end - fn->entry;

	if (fn->is_inline && spec->is_return) {
		bp_diag__set(d, "%s: %%return cannot probe an inlined copy (it returns into its caller without a ret instruction): add inlines=no to probe only out-of-line copies, or force=yes to skip the inlined ones",
			     s->where);
		return -EINVAL;
	}
	s->addr = fn->entry;
	if (spec->has_offset) {
		/* symbol-table functions may have size 0: nothing to check */
		if (size && spec->offset >= size) {
			bp_diag__set(d, "%s: offset +%" PRIu64 " is past the end of the %s (%" PRIu64 " bytes)",
				     s->where, spec->offset,
				     fn->is_inline ? "inlined copy" : "function", size);
			return -ERANGE;
		}
		s->addr += spec->offset;
	} else {
		s->at_entry = !fn->is_inline;
	}
	site_source(s, unit_shared);
	return 0;
}

/* The DIE's own DW_AT_name (not its origin's) is name. */
static bool own_name_is(const Dwarf_Die *die, const char *name)
{
	Dwarf_Attribute attr;
	const char *own;

	if (!dwarf_attr((Dwarf_Die *)die, DW_AT_name, &attr))
		return false;
	own = dwarf_formstring(&attr);
	return own && !strcmp(own, name);
}

static const char *symbol_of(const struct bp_debuginfo *di, const struct bp_func *fn)
{
	const char *sym;

	if (fn->is_inline)
		return NULL;
	/*
	 * A clone's DIE has no name of its own (it names its abstract
	 * origin), and an alias found through the symbol table has a name
	 * other than its DIE's: a function named by its own DW_AT_name is
	 * its symbol. The look-up is a linear scan of the symbol table in
	 * libdwfl, so skipping it keeps a glob over a large binary fast.
	 */
	if (fn->has_die && fn->name && own_name_is(&fn->die, fn->name))
		return NULL;
	sym = bp_debuginfo__symbol_at(di, fn->entry);
	return sym && fn->name && strcmp(sym, fn->name) ? sym : NULL;
}

/*
 * The sites of one copy; one that cannot be placed carries err and why
 * (its msg). Running out of memory is fatal, said in d.
 */
static int copy_sites(const struct bp_debuginfo *di, const struct bp_spec *spec,
		      const struct bp_func *funcs, const struct bp_copy_facts *facts, int i,
		      struct bp_site_list *l, struct bp_diag *d)
{
	const struct bp_func *fn = &funcs[i];
	const char *sym = symbol_of(di, fn);
	struct bp_diag why = {};
	char where[256];
	struct bp_site *s;
	int first = l->n, j, err;

	bp_func__where(di, fn, facts[i].name_shared, where, sizeof(where));
	if (sym)	/* a clone: clone_me (clone_me.constprop.0) */
		snprintf(where, sizeof(where), "%s (%s) in %s", fn->name, sym, di->path);

	/* FUNC:0 is FUNC's entry, as in perf */
	if ((spec->has_line && spec->line) || spec->lazy) {
		err = bp_lines__in_func(di, spec, fn, l, &why);
		for (j = first; !err && j < l->n; j++)
			l->v[j].symbol = sym;
	} else {
		s = bp_site_list__add(l);
		if (!s)
			return -ENOMEM;
		s->fn = *fn;
		s->symbol = sym;
		snprintf(s->where, sizeof(s->where), "%s", where);
		err = entry_site(spec, s, facts[i].unit_shared, &why);
		if (err)
			l->n--;
	}
	if (err == -ENOMEM) {
		/* fatal: said as the whole search's failure */
		if (why.failed)
			bp_diag__set(d, "%s", why.msg);
		return err;
	}
	if (!err)
		return 0;
	/* a copy that cannot be probed: fatal, or skipped with force=yes */
	l->n = first;
	s = bp_site_list__add(l);
	if (!s)
		return -ENOMEM;
	s->fn = *fn;
	s->symbol = sym;
	s->err = err;
	snprintf(s->where, sizeof(s->where), "%s", where);
	if (why.failed) {
		s->msg = strdup(why.msg);
		if (!s->msg)
			return -ENOMEM;
	}
	return 0;
}

void bp_sites__free(struct bp_site *sites, int nsites)
{
	int i;

	if (!sites)
		return;
	for (i = 0; i < nsites; i++) {
		free(sites[i].msg);
		free(sites[i].file_owned);
	}
	free(sites);
}

int bp_sites__find(const struct bp_debuginfo *di, const struct bp_spec *spec,
		   struct bp_site **sites, int *nsites, struct bp_diag *d)
{
	struct bp_copy_facts *facts = NULL;
	struct bp_site_list l = {};
	struct bp_func *funcs = NULL;
	unsigned int ticks = 0;
	int i, n = 0, err;

	if (!spec->func) {
		err = bp_lines__in_file(di, spec, &l, d);
	} else {
		/* lines need DWARF; so do arguments */
		err = find_copies(di, spec, bp_spec__needs_dwarf(spec) ||
				  spec->has_line || spec->lazy, &funcs, &n, d);
		if (!err)
			err = bp_copies__facts(funcs, n, &facts);
		for (i = 0; !err && i < n; i++)
			err = bp_stop__every(&ticks) ? -EINTR :
			      copy_sites(di, spec, funcs, facts, i, &l, d);
	}
	free(facts);
	free(funcs);
	if (!err && !l.n) {
		bp_diag__set(d, "%s: no probe point in %s", spec->point ? spec->point : "?",
			     di->path);
		err = -ENOENT;
	}
	if (err) {
		if (err == -ENOMEM)
			bp_diag__add(d, "%s: out of memory", spec->point ? spec->point : "?");
		bp_sites__free(l.v, l.n);
		return err;
	}
	*sites = l.v;
	*nsites = l.n;
	return 0;
}
