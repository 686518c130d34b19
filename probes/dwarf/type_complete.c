// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Types one unit only declares (DW_AT_declaration: `struct lua_State;` in
 * a file that never needs its members) completed the way a debugger does:
 * from the definition of the same name, kind (a struct or class, a union,
 * an enum) and scope (the unit, or the same namespaces and classes) in
 * another unit of the module: the DWARF libdwfl found (the separate debug
 * file, when there is one), then its DWZ alternate file. Where the
 * definitions of a name are comes from the function index (index.h) when
 * the binary has one, else from one walk of every unit's outer scopes,
 * kept with the binary (bp_type_defs_walk), never from a walk per member.
 *
 * Several definitions of one layout (DWZ may leave copies in several
 * partial units) are one. Different ones are an error listing where each
 * is defined; none is the incomplete-type error, saying no unit defines it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/binary/index.h"
#include "probes/binary/unit_window.h"
#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/types.h"
#include "util/grow.h"

#define MAX_SCOPE_DEPTH		32
#define MAX_DEFS		64	/* definitions of one name looked at */
#define MAX_LISTED		4	/* different ones named in the error */

/* --- the walk ------------------------------------------------------------- */

/* The units whose records are scopes of types, as the index's scan
 * (index_scan.c) tells C apart */
static bool is_c(Dwarf_Die *cudie)
{
	Dwarf_Attribute attr;
	Dwarf_Word lang;

	if (!dwarf_attr(cudie, DW_AT_language, &attr) || dwarf_formudata(&attr, &lang))
		return false;
	return lang == DW_LANG_C89 || lang == DW_LANG_C || lang == DW_LANG_C99 ||
	       lang == DW_LANG_C11;
}

static bool is_type_tag(int tag)
{
	return bp_tag_is_record(tag) || tag == DW_TAG_enumeration_type;
}

struct walk_ctx {
	int (*cb)(const char *name, uint64_t off, void *ctx);
	void *ctx;
	bool c_unit;
};

static int walk_scope(struct walk_ctx *w, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;
	const char *name;
	int tag, err;

	if (depth > MAX_SCOPE_DEPTH || dwarf_child(parent, &child))
		return 0;
	do {
		tag = dwarf_tag(&child);
		if (is_type_tag(tag) && !dwarf_hasattr(&child, DW_AT_declaration) &&
		    (name = bp_die_name(&child))) {
			err = w->cb(name, dwarf_dieoffset(&child), w->ctx);
			if (err)
				return err;
		}
		/* a namespace's types; in C++ a class's or struct's nested ones */
		if (tag == DW_TAG_namespace ||
		    (!w->c_unit && (tag == DW_TAG_structure_type || tag == DW_TAG_class_type))) {
			err = walk_scope(w, &child, depth + 1);
			if (err)
				return err;
		}
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

int bp_type_defs_walk(Dwarf *dwarf, int (*cb)(const char *name, uint64_t off, void *ctx),
		      void *ctx)
{
	struct walk_ctx w = { .cb = cb, .ctx = ctx };
	Dwarf_Die cudie, subdie;
	Dwarf_CU *cu = NULL;
	uint8_t unit_type;
	int err;

	while (!dwarf_get_units(dwarf, cu, &cu, NULL, &unit_type, &cudie, &subdie)) {
		/* type units are reached by signature, never by name */
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		w.c_unit = is_c(&cudie);
		err = walk_scope(&w, &cudie, 0);
		if (err)
			return err;
	}
	return 0;
}

/* --- the table a walk builds, kept with the binary ------------------------- */

struct def {
	const char *name;	/* libdw's, as long as the file is open */
	uint64_t off;
};

struct table {
	Dwarf *dwarf;
	struct def *v;
	size_t n, cap;
};

/* The main file's (when it has no index) and the DWZ file's. */
struct bp_type_defs {
	struct table main, alt;
	bool main_done, alt_done;
};

static int table_add(const char *name, uint64_t off, void *ctx)
{
	struct table *t = ctx;

	if (bp_grow((void **)&t->v, t->n, &t->cap, sizeof(*t->v), 256))
		return -ENOMEM;
	t->v[t->n++] = (struct def){ .name = name, .off = off };
	return 0;
}

static int def_cmp(const void *a, const void *b)
{
	const struct def *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	return r ? r : x->off < y->off ? -1 : x->off > y->off;
}

static int table_build(struct table *t, Dwarf *dwarf)
{
	int err;

	t->dwarf = dwarf;
	err = bp_type_defs_walk(dwarf, table_add, t);
	if (!err && t->n > 1)
		qsort(t->v, t->n, sizeof(*t->v), def_cmp);
	return err;
}

/* Where name's definitions start in t; *n how many. */
static const struct def *table_find(const struct table *t, const char *name, size_t *n)
{
	size_t lo = 0, hi = t->n, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(t->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < t->n && !strcmp(t->v[end].name, name); end++)
		;
	*n = end - lo;
	return t->v + lo;
}

static void defs_free(struct bp_type_defs *defs)
{
	if (!defs)
		return;
	free(defs->main.v);
	free(defs->alt.v);
	free(defs);
}

static struct bp_type_defs *defs_of(const struct bp_debuginfo *di)
{
	struct bp_debuginfo_lazy *lz = di->cache;

	if (!lz->types) {
		lz->types = calloc(1, sizeof(*lz->types));
		lz->free_types = defs_free;
	}
	return lz->types;
}

/* --- one name's definitions ----------------------------------------------- */

struct found {
	Dwarf_Die v[MAX_DEFS];
	int n;
	bool more;
};

static void found_add(struct found *f, Dwarf_Die *die)
{
	if (f->n == MAX_DEFS)
		f->more = true;
	else
		f->v[f->n++] = *die;
}

/* The definitions a table lists of name. */
static int from_table(struct table *t, bool *done, Dwarf *dwarf, const char *name,
		      struct found *f)
{
	const struct def *d;
	Dwarf_Die die;
	size_t n, i;
	int err;

	if (!*done) {
		err = table_build(t, dwarf);
		if (err) {
			free(t->v);
			memset(t, 0, sizeof(*t));
			return err;
		}
		*done = true;
	}
	d = table_find(t, name, &n);
	for (i = 0; i < n; i++)
		if (dwarf_offdie(dwarf, d[i].off, &die))
			found_add(f, &die);
	return 0;
}

/* Every definition of a type called name in di's DWARF and its DWZ file. */
static int find_defs(const struct bp_debuginfo *di, const char *name, struct found *f)
{
	struct bp_dwarf_index *idx = bp_dwarf_index__get(di);
	struct bp_type_defs *defs = defs_of(di);
	const uint64_t *offs;
	Dwarf *alt = dwarf_getalt(di->dwarf);
	Dwarf_Die die;
	int n, i, err = 0;

	if (!defs)
		return -ENOMEM;
	n = idx ? bp_dwarf_index__types(idx, name, &offs) : -1;
	if (n >= 0) {
		for (i = 0; i < n; i++)
			if (bp_unit_window__offdie(di, idx, offs[i], &die))
				found_add(f, &die);
	} else {
		err = from_table(&defs->main, &defs->main_done, di->dwarf, name, f);
	}
	if (!err && alt)
		err = from_table(&defs->alt, &defs->alt_done, alt, name, f);
	return err;
}

/* --- kind, scope and layout ----------------------------------------------- */

/* A struct and a class are one kind: C++ may declare with either. */
static int kind_of(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_class_type ? DW_TAG_structure_type : tag;
}

/* Appends "::name" (or name) to buf. */
static void scope_append(char *buf, size_t len, const char *name)
{
	size_t l = strlen(buf);

	snprintf(buf + l, len - l, "%s%s", l ? "::" : "", name ? name : "(anonymous)");
}

/*
 * The names of the scopes from parent down to the DIE at target, into
 * buf ("" when it is parent's child): 0, or -ENOENT when a scope on the
 * way is something else than a namespace or a record (a function: a local
 * type), or target is not below parent.
 */
static int scope_path(Dwarf_Die *parent, Dwarf_Off target, char *buf, size_t len, int depth)
{
	Dwarf_Die child, next;
	int r, tag;

	if (depth > MAX_SCOPE_DEPTH || dwarf_child(parent, &child))
		return -ENOENT;
	for (;;) {
		if (dwarf_dieoffset(&child) == target)
			return 0;
		if (dwarf_dieoffset(&child) > target)
			return -ENOENT;
		r = dwarf_siblingof(&child, &next);
		if (r < 0)
			return -ENOENT;
		if (!r && dwarf_dieoffset(&next) <= target) {
			child = next;
			continue;
		}
		/* target is inside child */
		tag = dwarf_tag(&child);
		if (tag != DW_TAG_namespace && !bp_tag_is_record(tag))
			return -ENOENT;
		scope_append(buf, len, bp_die_name(&child));
		return scope_path(&child, target, buf, len, depth + 1);
	}
}

/* The scope a type is declared or defined in ("" for the unit; an
 * out-of-line C++ definition is in its declaration's): 0 or -ENOENT. */
static int scope_of(Dwarf_Die *die, char *buf, size_t len)
{
	Dwarf_Attribute attr;
	Dwarf_Die spec, cudie;

	buf[0] = '\0';
	if (dwarf_attr(die, DW_AT_specification, &attr) && dwarf_formref_die(&attr, &spec))
		die = &spec;
	if (!dwarf_diecu(die, &cudie, NULL, NULL))
		return -ENOENT;
	return scope_path(&cudie, dwarf_dieoffset(die), buf, len, 0);
}

/* A member's offset and bits, as a debugger would lay it out. */
static void member_place(Dwarf_Die *m, Dwarf_Word *off, Dwarf_Word *bitoff)
{
	Dwarf_Attribute attr;

	*off = *bitoff = 0;
	if (dwarf_attr_integrate(m, DW_AT_data_member_location, &attr))
		dwarf_formudata(&attr, off);
	if (dwarf_attr_integrate(m, DW_AT_data_bit_offset, &attr))
		dwarf_formudata(&attr, bitoff);
	else if (dwarf_attr_integrate(m, DW_AT_bit_offset, &attr))
		dwarf_formudata(&attr, bitoff);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Two members (or base classes, or enumerators) alike. */
static bool same_member(Dwarf_Die *a, Dwarf_Die *b)
{
	Dwarf_Die ta, tb;
	Dwarf_Word oa, ob, ba, bb;
	Dwarf_Attribute xa, xb;
	Dwarf_Sword va = 0, vb = 0;
	char na[128], nb[128];

	if (dwarf_tag(a) != dwarf_tag(b) || !same_str(bp_die_name(a), bp_die_name(b)))
		return false;
	if (dwarf_tag(a) == DW_TAG_enumerator) {
		if (dwarf_attr(a, DW_AT_const_value, &xa))
			dwarf_formsdata(&xa, &va);
		if (dwarf_attr(b, DW_AT_const_value, &xb))
			dwarf_formsdata(&xb, &vb);
		return va == vb;
	}
	member_place(a, &oa, &ba);
	member_place(b, &ob, &bb);
	if (oa != ob || ba != bb || dwarf_bitsize(a) != dwarf_bitsize(b))
		return false;
	bp_type_name(bp_die_type(a, &ta), na, sizeof(na));
	bp_type_name(bp_die_type(b, &tb), nb, sizeof(nb));
	return !strcmp(na, nb) && bp_type_size(bp_die_type(a, &ta)) ==
				  bp_type_size(bp_die_type(b, &tb));
}

static bool is_part(int tag)
{
	return tag == DW_TAG_member || tag == DW_TAG_inheritance || tag == DW_TAG_enumerator;
}

/* The next member-like child from *c on (first: *c is the parent). */
static bool next_part(Dwarf_Die *c, bool first)
{
	if (first ? dwarf_child(c, c) : dwarf_siblingof(c, c))
		return false;
	while (!is_part(dwarf_tag(c)))
		if (dwarf_siblingof(c, c))
			return false;
	return true;
}

/* Two definitions of one layout: the same size and members (names,
 * places, types as C writes them), or enumerators. */
static bool same_layout(Dwarf_Die *a, Dwarf_Die *b)
{
	Dwarf_Die ca = *a, cb = *b;
	bool ha, hb, first = true;

	if (kind_of(a) != kind_of(b) || dwarf_bytesize(a) != dwarf_bytesize(b))
		return false;
	for (;; first = false) {
		ha = next_part(&ca, first);
		hb = next_part(&cb, first);
		if (ha != hb)
			return false;
		if (!ha)
			return true;
		if (!same_member(&ca, &cb))
			return false;
	}
}

/* --- saying it ------------------------------------------------------------ */

/* "lstate.c (./lstate.h:304)", "a DWZ partial unit (...)", "the DWZ file
 * (...)": where a definition is. */
static void def_where(const struct bp_debuginfo *di, Dwarf_Die *def, char *buf, size_t len)
{
	Dwarf_Die cudie;
	const char *file, *cu = NULL;
	char path[200], at[240] = "";
	int line = 0;
	bool alt = bp_unit_window__dwarf(di, dwarf_cu_getdwarf(def->cu)) != di->dwarf;

	if (dwarf_diecu(def, &cudie, NULL, NULL) && dwarf_tag(&cudie) == DW_TAG_compile_unit)
		cu = bp_die_name(&cudie);
	file = bp_die_decl_file(def, path, sizeof(path));
	if (file && !dwarf_decl_line(def, &line))
		snprintf(at, sizeof(at), " (%.200s:%d)", file, line);
	if (alt)
		snprintf(buf, len, "the DWZ file%s", at);
	else if (cu)
		snprintf(buf, len, "unit %.64s%s", cu, at);
	else
		snprintf(buf, len, "a DWZ partial unit at 0x%" PRIx64 "%s",
			 (uint64_t)dwarf_dieoffset(&cudie), at);
}

static void note_origin(const struct bp_arg_ctx *c, const char *tname, const char *where)
{
	char *s = c->dw->type_from, text[512];
	size_t l = strlen(s);

	snprintf(text, sizeof(text), "%s defined in %s", tname, where);
	text[sizeof(c->dw->type_from) - 1] = '\0';
	if (strstr(s, text) || l + 2 + strlen(text) >= sizeof(c->dw->type_from))
		return;
	if (l)
		strcat(s, "; ");
	strcat(s, text);
}

static int ambiguous(const struct bp_arg_ctx *c, const char *tname, Dwarf_Die *groups,
		     int ngroups)
{
	char list[768] = "", where[320];
	size_t l = 0;
	int i;

	for (i = 0; i < ngroups && i < MAX_LISTED && l < sizeof(list); i++) {
		def_where(c->dw->di, &groups[i], where, sizeof(where));
		l += snprintf(list + l, sizeof(list) - l, "%s%s, %d bytes", i ? "; " : "", where,
			      dwarf_bytesize(&groups[i]));
	}
	if (ngroups > MAX_LISTED && l < sizeof(list))
		snprintf(list + l, sizeof(list) - l, "; ...");
	bp_arg_fail(c, "%s is declared, not defined, in this compilation unit, and %d units of %s define it differently: %s",
		    tname, ngroups, c->dw->di->path, list);
	return -ENOTUNIQ;
}

static const char *keyword(int tag)
{
	switch (tag) {
	case DW_TAG_class_type:
		return "class";
	case DW_TAG_union_type:
		return "union";
	case DW_TAG_enumeration_type:
		return "enum";
	default:
		return "struct";
	}
}

/* --- completing ----------------------------------------------------------- */

int bp_type__complete(const struct bp_arg_ctx *c, Dwarf_Die *decl, Dwarf_Die *out)
{
	char tname[128], scope[256], dscope[256], where[320];
	Dwarf_Die groups[MAX_DEFS];
	struct found *f;
	const char *name = bp_die_name(decl);
	int i, k, ngroups = 0, err;

	if (!dwarf_hasattr(decl, DW_AT_declaration)) {
		*out = *decl;
		return 0;
	}
	bp_type_name(decl, tname, sizeof(tname));
	if (!name || !c->dw || !c->dw->di || !c->dw->di->dwarf ||
	    scope_of(decl, dscope, sizeof(dscope))) {
		bp_arg_fail(c, "%s is incomplete here (declared, not defined, in this compilation unit)",
			    tname);
		return -ENOENT;
	}
	/* C++: the name with its scopes */
	if (dscope[0])
		snprintf(tname, sizeof(tname), "%s %.56s::%.56s", keyword(dwarf_tag(decl)), dscope,
			 name);
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	err = find_defs(c->dw->di, name, f);
	for (i = 0; !err && i < f->n; i++) {
		if (kind_of(&f->v[i]) != kind_of(decl) || scope_of(&f->v[i], scope, sizeof(scope)) ||
		    strcmp(scope, dscope))
			continue;
		for (k = 0; k < ngroups && !same_layout(&groups[k], &f->v[i]); k++)
			;
		if (k == ngroups)
			groups[ngroups++] = f->v[i];
	}
	free(f);
	if (err == -ENOMEM)
		return err;
	if (!ngroups) {
		bp_arg_fail(c, "%s is incomplete here (declared, not defined, in this compilation unit), and no other unit of %s%s defines it",
			    tname, c->dw->di->path,
			    dwarf_getalt(c->dw->di->dwarf) ? " nor its DWZ file" : "");
		return -ENOENT;
	}
	if (ngroups > 1)
		return ambiguous(c, tname, groups, ngroups);
	*out = groups[0];
	def_where(c->dw->di, out, where, sizeof(where));
	note_origin(c, tname, where);
	return 0;
}
