// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Building the function index (index.h) in one pass over .debug_info,
 * read from its bytes (dwarf_raw.h): the subtrees that hold no function
 * (types, a function's parameters and variables) are skipped by their
 * DW_AT_sibling without reading them.
 *
 * It visits what the resolver's walks would (index.h): dwarf_getfuncs'
 * scopes (units, namespaces, classes and structures, functions, blocks;
 * in a C unit only functions, blocks and inlined calls) and, in each
 * function it reports, inline.c's walk (blocks and inlined calls, 64
 * levels down at most); and the named type definitions of each unit's
 * outer scopes (bp_type_defs_walk's: the unit, its namespaces, in C++ its
 * classes and structs). An imported unit (DWZ) makes it give up, as the
 * reader does with what it does not read: the walks are then used as
 * before. A name that goes through a reference the scan did not see
 * (another file, a DIE in a subtree it skipped) is asked of libdw.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>

#include "probes/binary/debuginfo.h"
#include "probes/binary/dwarf_raw.h"
#include "probes/binary/index.h"
#include "util/bigmem.h"
#include "util/grow.h"

/* deeper DIE trees than this are left to libdw */
#define MAX_LEVELS	256
/* inline.c's walk: the children of a block or inlined call at this
 * nesting level or less are looked at */
#define INLINE_WALK_MAX	64
/* dwarf_attr_integrate follows this many origins and specifications */
#define NAME_HOPS	17

/* What the walk asks of a tag, worked out once per abbreviation. */
enum {
	TAG_SUBPROGRAM	= 1 << 0,
	TAG_INLINED	= 1 << 1,	/* DW_TAG_inlined_subroutine */
	TAG_WALKED	= 1 << 2,	/* inline.c's walk goes into it */
	TAG_SCOPES	= 1 << 3,	/* dwarf_getfuncs goes into it */
	TAG_C_KEPT	= 1 << 4,	/* ... even in a C unit */
	TAG_IMPORTED	= 1 << 5,	/* DW_TAG_imported_unit */
	TAG_TYPE	= 1 << 6,	/* a struct, class, union or enum */
	TAG_NAMESPACE	= 1 << 7,
};

/* The attributes read, in the reader's values */
enum { V_NAME, V_ORIGIN, V_SPEC, V_SIBLING, NVALUES };

static const uint32_t wanted[NVALUES] = {
	[V_NAME] = DW_AT_name,
	[V_ORIGIN] = DW_AT_abstract_origin,
	[V_SPEC] = DW_AT_specification,
	[V_SIBLING] = DW_AT_sibling,
};

/* What a DIE says about its name (dwarf_attr_integrate). */
enum name_kind { NAME_NONE, NAME_KNOWN, NAME_REF, NAME_ASK_LIBDW };

struct die_name {
	enum name_kind kind;
	const char *name;	/* NAME_KNOWN */
	uint64_t ref;		/* NAME_REF: the origin or specification */
};

/* A subprogram seen (reported or not: an origin names through it). */
struct sub {
	uint64_t off;
	struct die_name n;
	bool reported;
};

struct inl {
	uint64_t off, frame, unit;
	struct die_name n;
};

/* A type definition seen. */
struct tdef {
	uint64_t off;
	struct die_name n;
};

/* Unique names, by content. */
struct names {
	const char **v;		/* by id */
	size_t n, cap;
	uint32_t *slots;	/* id + 1, 0: empty */
	uint32_t nslots;
};

struct scan {
	const struct bp_debuginfo *di;
	struct bp_raw raw;
	struct sub *subs;
	size_t nsubs, cap_subs;
	struct inl *inls;
	size_t ninls, cap_inls;
	struct tdef *tdefs;
	size_t ntdefs, cap_tdefs;
	uint64_t *units;	/* inlining from outside */
	size_t nunits, cap_units;
	uint64_t *cus;		/* every unit's header */
	size_t ncus, cap_cus;
	bool self_contained;
};

/* --- the walk ------------------------------------------------------------- */

/* libdw_visit_scopes: the DIEs whose children dwarf_getfuncs visits */
static bool may_have_scopes(uint32_t tag)
{
	switch (tag) {
	case DW_TAG_compile_unit:
	case DW_TAG_module:
	case DW_TAG_lexical_block:
	case DW_TAG_with_stmt:
	case DW_TAG_catch_block:
	case DW_TAG_try_block:
	case DW_TAG_entry_point:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_subprogram:
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
		return true;
	}
	return false;
}

static uint8_t classify(uint32_t tag)
{
	uint8_t c = 0;

	if (tag == DW_TAG_subprogram)
		c |= TAG_SUBPROGRAM | TAG_C_KEPT;
	if (tag == DW_TAG_inlined_subroutine)
		c |= TAG_INLINED | TAG_WALKED | TAG_C_KEPT;
	if (tag == DW_TAG_lexical_block)
		c |= TAG_WALKED | TAG_C_KEPT;
	if (may_have_scopes(tag))
		c |= TAG_SCOPES;
	if (tag == DW_TAG_imported_unit)
		c |= TAG_IMPORTED;
	if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	    tag == DW_TAG_union_type || tag == DW_TAG_enumeration_type)
		c |= TAG_TYPE;
	if (tag == DW_TAG_namespace)
		c |= TAG_NAMESPACE;
	return c;
}

/* dwarf_getfuncs prunes every other subtree of a C unit */
static bool is_c(int64_t lang)
{
	return lang == DW_LANG_C89 || lang == DW_LANG_C || lang == DW_LANG_C99 ||
	       lang == DW_LANG_C11;
}

/*
 * dwarf_attr_integrate(DW_AT_name): the DIE's own name, else where its
 * abstract origin, else its specification, points (followed later).
 */
static struct die_name die_name(const struct scan *s, const struct bp_raw_unit *u,
				const struct bp_raw_value *v)
{
	const struct bp_raw_value *ref = v[V_ORIGIN].at ? &v[V_ORIGIN] : &v[V_SPEC];
	struct die_name n = { .kind = NAME_NONE };

	if (v[V_NAME].at) {
		n.name = bp_raw__string(&s->raw, u, &v[V_NAME]);
		n.kind = n.name ? NAME_KNOWN : NAME_ASK_LIBDW;
	} else if (ref->at) {
		n.kind = bp_raw__ref(u, ref, &n.ref) ? NAME_REF : NAME_ASK_LIBDW;
	}
	return n;
}

struct level {
	uint64_t frame;		/* the children are in this function's inline walk */
	bool funcs;		/* the children are visited by dwarf_getfuncs */
	bool types;		/* the children are in a unit's outer scopes */
	uint8_t walk_level;	/* the children's level in that walk */
};

/* One DIE's place: what its children are to the walks. */
static struct level child_level(const struct level *l, uint64_t off, uint8_t cls,
				bool reported, bool c_unit)
{
	struct level child = {
		.funcs = l->funcs && (cls & TAG_SCOPES) && (!c_unit || (cls & TAG_C_KEPT)),
		/* a namespace's types; a C++ class's or struct's nested ones */
		.types = l->types && ((cls & TAG_NAMESPACE) ||
				      (!c_unit && (cls & TAG_TYPE) && (cls & TAG_SCOPES))),
	};

	if (reported) {
		child.frame = off;
		child.walk_level = 1;
	} else if (l->frame && (cls & TAG_WALKED) && l->walk_level <= INLINE_WALK_MAX) {
		child.frame = l->frame;
		child.walk_level = l->walk_level + 1;
	}
	return child;
}

static int note(struct scan *s, const struct bp_raw_unit *u, const struct level *l,
		uint64_t off, uint8_t cls, bool reported, const struct die_name *n)
{
	if (l->funcs && (cls & TAG_SUBPROGRAM)) {
		/* room at once for what a unit's DWARF usually holds: the
		 * pages not filled cost nothing */
		if (bp_bigmem__grow((void **)&s->subs, s->nsubs, &s->cap_subs, sizeof(*s->subs),
				    1024 + s->raw.sec.info.size / 128))
			return -ENOMEM;
		s->subs[s->nsubs++] = (struct sub){ .off = off, .n = *n, .reported = reported };
	}
	if (l->frame && (cls & TAG_INLINED)) {
		if (bp_bigmem__grow((void **)&s->inls, s->ninls, &s->cap_inls, sizeof(*s->inls), 256))
			return -ENOMEM;
		s->inls[s->ninls++] = (struct inl){ .off = off, .frame = l->frame,
						    .unit = u->die_off, .n = *n };
	}
	return 0;
}

static int note_type(struct scan *s, uint64_t off, const struct die_name *n)
{
	if (n->kind == NAME_NONE)
		return 0;	/* an anonymous type: nobody names it */
	if (bp_bigmem__grow((void **)&s->tdefs, s->ntdefs, &s->cap_tdefs, sizeof(*s->tdefs), 256))
		return -ENOMEM;
	s->tdefs[s->ntdefs++] = (struct tdef){ .off = off, .n = *n };
	return 0;
}

static int walk_unit(struct scan *s, const struct bp_raw_unit *u, const uint8_t *p)
{
	const uint8_t *base = s->raw.sec.info.p;
	struct level levels[MAX_LEVELS];
	bool c_unit = is_c(u->lang);
	size_t depth = 1;

	levels[0] = (struct level){ .funcs = true, .types = true };
	while (depth) {
		const struct level *l = &levels[depth - 1];
		struct bp_raw_value v[NVALUES];
		const struct bp_raw_abbrev *ab;
		uint64_t off = p - base, code, sib;
		struct die_name n = {};
		struct level child;
		bool reported, read, type_def;
		uint8_t cls;
		int err;

		if (!bp_raw__uleb(&p, u->end, &code))
			return bp_raw__refuse(&s->raw, "a DIE past its unit's end at 0x%llx",
					      (unsigned long long)off);
		if (!code) {
			depth--;
			continue;
		}
		ab = bp_raw__abbrev(&s->raw, code);
		if (!ab)
			return bp_raw__refuse(&s->raw, "unknown abbreviation %llu at 0x%llx",
					      (unsigned long long)code, (unsigned long long)off);
		cls = ab->class;
		if (l->funcs && (cls & TAG_IMPORTED))
			return bp_raw__refuse(&s->raw, "an imported unit (DWZ) at 0x%llx",
					      (unsigned long long)off);
		reported = l->funcs && (cls & TAG_SUBPROGRAM) && !ab->has_decl;
		child = child_level(l, off, cls, reported, c_unit);
		type_def = l->types && (cls & TAG_TYPE) && !ab->has_decl;
		read = (l->funcs && (cls & TAG_SUBPROGRAM)) || (l->frame && (cls & TAG_INLINED)) ||
		       type_def;
		if (!read && ab->children && !child.funcs && !child.frame) {
			/* a type, say: past its members at once */
			sib = bp_raw__quick_sibling(u, ab, p);
			if (sib > off && sib <= (uint64_t)(u->end - base)) {
				p = base + sib;
				continue;
			}
		}
		if (read || (ab->children && ab->wanted) ?
		    !bp_raw__read_attrs(&s->raw, u, ab, &p, v) :
		    !bp_raw__skip_attrs(&s->raw, u, ab, &p))
			return bp_raw__refuse(&s->raw, "a DIE past its unit's end at 0x%llx",
					      (unsigned long long)off);
		if (read) {
			n = die_name(s, u, v);
			err = type_def ? note_type(s, off, &n) : note(s, u, l, off, cls, reported, &n);
			if (err)
				return err;
		}
		if (!ab->children)
			continue;
		if (child.funcs || child.frame) {
			if (depth == MAX_LEVELS)
				return bp_raw__refuse(&s->raw, "DIEs nested deeper than %d levels",
						      MAX_LEVELS);
			levels[depth++] = child;
			continue;
		}
		if (ab->wanted && bp_raw__ref(u, &v[V_SIBLING], &sib) && sib > off &&
		    sib <= (uint64_t)(u->end - base)) {
			p = base + sib;
			continue;
		}
		if (!bp_raw__skip_children(&s->raw, u, &p))
			return bp_raw__refuse(&s->raw, "a DIE past its unit's end at 0x%llx",
					      (unsigned long long)off);
	}
	return 0;
}

static int scan_units(struct scan *s)
{
	uint64_t off = 0, next = 0;
	int err = 0;

	while (!err && off < s->raw.sec.info.size) {
		struct bp_raw_unit u = { .off = off };
		const uint8_t *p;
		bool children = false;

		err = bp_raw__unit(&s->raw, &u, &next, &p, &children);
		if (err >= 0) {
			if (bp_grow((void **)&s->cus, s->ncus, &s->cap_cus, sizeof(*s->cus), 256))
				return -ENOMEM;
			s->cus[s->ncus++] = off;
			/* a unit that is no compile unit is reached from outside */
			s->self_contained &= !err && !u.refs_outside;
		}
		off = next;
		if (err) {
			/* 1: a unit without code to walk */
			err = err > 0 ? 0 : err;
			continue;
		}
		if (u.inlines_from_outside) {
			if (bp_grow((void **)&s->units, s->nunits, &s->cap_units,
				    sizeof(*s->units), 16))
				return -ENOMEM;
			s->units[s->nunits++] = u.die_off;
		}
		if (children)
			err = walk_unit(s, &u, p);
	}
	return err < 0 ? err : 0;
}

/* --- names ---------------------------------------------------------------- */

static const struct sub *find_sub(const struct scan *s, uint64_t off)
{
	size_t lo = 0, hi = s->nsubs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->subs[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nsubs && s->subs[lo].off == off ? &s->subs[lo] : NULL;
}

/* A DIE's DW_AT_name, through its origin or specification. */
static const char *libdw_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr_integrate(die, DW_AT_name, &attr))
		return NULL;
	return dwarf_formstring(&attr);
}

/* The name libdw_name() gives the DIE at off whose own attributes say n,
 * or NULL (it has none, or libdw cannot read it). */
static const char *resolve_name(const struct scan *s, uint64_t off, const struct die_name *n)
{
	const struct die_name *cur = n;
	const struct sub *t;
	Dwarf_Die die;

	for (int hop = 0; hop < NAME_HOPS; hop++) {
		if (cur->kind == NAME_KNOWN)
			return cur->name;
		if (cur->kind == NAME_NONE)
			return NULL;
		if (cur->kind != NAME_REF || !(t = find_sub(s, cur->ref)))
			break;
		cur = &t->n;
	}
	if (!dwarf_offdie(s->di->dwarf, off, &die))
		return NULL;
	return libdw_name(&die);
}

/* Room for want names (at most half the slots taken), the slots doubled
 * from 4096 as needed; the names placed again when they move. */
static int names_grow(struct names *t, size_t want)
{
	uint32_t nslots = t->nslots ? t->nslots * 2 : 4096;
	uint32_t *slots;

	while ((want + 1) * 2 > nslots && nslots < (1u << 30))
		nslots *= 2;
	slots = bp_bigmem__alloc((size_t)nslots * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		uint32_t h = bp_index__hash(t->v[i]) & (nslots - 1);

		while (slots[h])
			h = (h + 1) & (nslots - 1);
		slots[h] = i + 1;
	}
	bp_bigmem__free(t->slots, (size_t)t->nslots * sizeof(*t->slots));
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

/* The id of name, added when new; -1 when out of memory. */
static int64_t names_id(struct names *t, const char *name)
{
	uint32_t h;

	if ((t->n + 1) * 2 > t->nslots && (t->nslots >= (1u << 30) || names_grow(t, t->n + 1)))
		return -1;
	h = bp_index__hash(name) & (t->nslots - 1);
	while (t->slots[h]) {
		if (!strcmp(t->v[t->slots[h] - 1], name))
			return t->slots[h] - 1;
		h = (h + 1) & (t->nslots - 1);
	}
	if (bp_bigmem__grow((void **)&t->v, t->n, &t->cap, sizeof(*t->v), 1024))
		return -1;
	t->v[t->n] = name;
	t->slots[h] = t->n + 1;
	return t->n++;
}

/* --- the blob ----------------------------------------------------------------- */

/* An entry found, by the id of its name. */
struct found {
	uint32_t id;
	uint32_t i;		/* in s->subs or s->inls */
};

static int inline_cmp(const void *a, const void *b)
{
	const struct bp_index_inline *x = a, *y = b;

	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return x->die < y->die ? -1 : x->die > y->die;
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Where the parts of index.h's layout start: in the file (payload), in
 * the payload (the others). */
struct layout {
	size_t payload, names, slots, funcs, inls, types, units, cus, strings, payload_size, size;
	uint32_t nblocks;
};

/* The entries found, by the ids of their names. */
struct found_set {
	struct found *funcs, *inls, *types;
	uint32_t nfuncs, ninls, ntypes;
};

static struct layout lay_out(const struct names *names, const struct found_set *f,
			     size_t nunits, size_t ncus, size_t strings)
{
	struct layout o;

	o.names = 0;
	o.slots = align8(o.names + names->n * sizeof(struct bp_index_name));
	o.funcs = align8(o.slots + (size_t)names->nslots * sizeof(uint32_t));
	o.inls = align8(o.funcs + (size_t)f->nfuncs * sizeof(uint64_t));
	o.types = align8(o.inls + (size_t)f->ninls * sizeof(struct bp_index_inline));
	o.units = align8(o.types + (size_t)f->ntypes * sizeof(uint64_t));
	o.cus = align8(o.units + nunits * sizeof(uint64_t));
	o.strings = align8(o.cus + ncus * sizeof(uint64_t));
	o.payload_size = o.strings + strings;
	o.nblocks = (o.payload_size + BP_INDEX_BLOCK - 1) / BP_INDEX_BLOCK;
	o.payload = align8(sizeof(struct bp_index_header) + (size_t)o.nblocks * sizeof(uint64_t));
	o.size = o.payload + o.payload_size;
	return o;
}

/* Each name's string and where its entries start. */
static void place_names(const struct names *names, char *mem, const struct layout *o,
			const struct found_set *f)
{
	struct bp_index_name *nv = (struct bp_index_name *)(mem + o->payload + o->names);
	size_t strings = 0;
	uint32_t i;

	for (i = 0; i < f->nfuncs; i++)
		nv[f->funcs[i].id].nfuncs++;
	for (i = 0; i < f->ninls; i++)
		nv[f->inls[i].id].ninlines++;
	for (i = 0; i < f->ntypes; i++)
		nv[f->types[i].id].ntypes++;
	for (i = 0; i < names->n; i++) {
		size_t len = strlen(names->v[i]) + 1;

		nv[i].str = strings;
		memcpy(mem + o->payload + o->strings + strings, names->v[i], len);
		strings += len;
		if (i) {
			nv[i].func_first = nv[i - 1].func_first + nv[i - 1].nfuncs;
			nv[i].inline_first = nv[i - 1].inline_first + nv[i - 1].ninlines;
			nv[i].type_first = nv[i - 1].type_first + nv[i - 1].ntypes;
		}
	}
}

/*
 * The entries come in DIE order and are placed by name (a counting sort,
 * stable): a name's functions and types stay in DIE order; its inlined
 * copies are put in frame order, which differs only around nested
 * functions.
 */
static int place_entries(const struct scan *s, const struct names *names, char *mem,
			 const struct layout *o, const struct found_set *f)
{
	char *payload = mem + o->payload;
	const struct bp_index_name *nv = (const struct bp_index_name *)(payload + o->names);
	struct bp_index_inline *inl_v = (struct bp_index_inline *)(payload + o->inls);
	uint64_t *func_v = (uint64_t *)(payload + o->funcs);
	uint64_t *type_v = (uint64_t *)(payload + o->types);
	size_t fill_size = (names->n + 1) * sizeof(uint32_t);
	uint32_t i, *fill_f, *fill_i, *fill_t;

	fill_f = bp_bigmem__alloc(fill_size);
	fill_i = bp_bigmem__alloc(fill_size);
	fill_t = bp_bigmem__alloc(fill_size);
	if (!fill_f || !fill_i || !fill_t) {
		bp_bigmem__free(fill_f, fill_size);
		bp_bigmem__free(fill_i, fill_size);
		bp_bigmem__free(fill_t, fill_size);
		return -ENOMEM;
	}
	for (i = 0; i < f->nfuncs; i++) {
		uint32_t id = f->funcs[i].id;

		func_v[nv[id].func_first + fill_f[id]++] = s->subs[f->funcs[i].i].off;
	}
	for (i = 0; i < f->ninls; i++) {
		const struct inl *c = &s->inls[f->inls[i].i];
		uint32_t id = f->inls[i].id;

		inl_v[nv[id].inline_first + fill_i[id]++] =
			(struct bp_index_inline){ .die = c->off, .frame = c->frame, .unit = c->unit };
	}
	for (i = 0; i < f->ntypes; i++) {
		uint32_t id = f->types[i].id;

		type_v[nv[id].type_first + fill_t[id]++] = s->tdefs[f->types[i].i].off;
	}
	for (i = 0; i < names->n; i++) {
		if (nv[i].ninlines > 1)
			qsort(inl_v + nv[i].inline_first, nv[i].ninlines, sizeof(*inl_v), inline_cmp);
	}
	bp_bigmem__free(fill_f, fill_size);
	bp_bigmem__free(fill_i, fill_size);
	bp_bigmem__free(fill_t, fill_size);
	return 0;
}

static int build_blob(const struct scan *s, const struct names *names,
		      const struct found_set *f, struct bp_dwarf_index *out)
{
	struct bp_index_header *hdr;
	struct layout o;
	size_t strings = 0;
	char *mem;

	for (size_t i = 0; i < names->n; i++)
		strings += strlen(names->v[i]) + 1;
	if (strings > UINT32_MAX || names->n > UINT32_MAX)
		return bp_raw__refuse((struct bp_raw *)&s->raw, "too many names for an index");
	if (s->ncus > UINT32_MAX)
		return bp_raw__refuse((struct bp_raw *)&s->raw, "too many units for an index");
	o = lay_out(names, f, s->nunits, s->ncus, strings);
	mem = bp_bigmem__alloc(o.size);
	if (!mem)
		return -ENOMEM;
	place_names(names, mem, &o, f);
	if (place_entries(s, names, mem, &o, f)) {
		bp_bigmem__free(mem, o.size);
		return -ENOMEM;
	}
	memcpy(mem + o.payload + o.slots, names->slots, (size_t)names->nslots * sizeof(uint32_t));
	if (s->nunits)
		memcpy(mem + o.payload + o.units, s->units, s->nunits * sizeof(uint64_t));
	if (s->ncus)
		memcpy(mem + o.payload + o.cus, s->cus, s->ncus * sizeof(uint64_t));
	hdr = (struct bp_index_header *)mem;
	memcpy(hdr->magic, BP_INDEX_MAGIC, sizeof(hdr->magic));
	hdr->version = BP_INDEX_VERSION;
	hdr->byte_order = 0x01020304;
	hdr->payload_off = o.payload;
	hdr->payload_size = o.payload_size;
	hdr->block_size = BP_INDEX_BLOCK;
	hdr->nblocks = o.nblocks;
	hdr->names_off = o.names;
	hdr->slots_off = o.slots;
	hdr->funcs_off = o.funcs;
	hdr->inlines_off = o.inls;
	hdr->types_off = o.types;
	hdr->units_off = o.units;
	hdr->cus_off = o.cus;
	hdr->ncus = s->ncus;
	hdr->self_contained = s->self_contained;
	hdr->strings_off = o.strings;
	hdr->nnames = names->n;
	hdr->nslots = names->nslots;
	hdr->nfuncs = f->nfuncs;
	hdr->ninlines = f->ninls;
	hdr->ntypes = f->ntypes;
	hdr->nunits = s->nunits;
	hdr->strings_size = strings;
	out->mem = mem;
	out->size = o.size;
	out->bigmem = true;
	out->fd = -1;
	return 0;
}

/* Adds what a name found is to v; -ENOMEM. */
static int found_add(struct names *names, const char *name, struct found *v, uint32_t *n,
		     size_t i)
{
	int64_t id;

	if (!name)
		return 0;	/* sites.c skips a function without one */
	if ((id = names_id(names, name)) < 0)
		return -ENOMEM;
	v[(*n)++] = (struct found){ .id = id, .i = i };
	return 0;
}

/* The entries, their names resolved: subprograms reported, inlined
 * copies, type definitions. */
static int collect(struct scan *s, struct bp_dwarf_index *out)
{
	size_t all = s->nsubs + s->ninls + s->ntdefs, i;
	struct found_set f = {};
	struct names names = {};
	int err = -ENOMEM;

	if (all > UINT32_MAX)
		return bp_raw__refuse(&s->raw, "too many functions for an index");
	f.funcs = bp_bigmem__alloc((s->nsubs + 1) * sizeof(*f.funcs));
	f.inls = bp_bigmem__alloc((s->ninls + 1) * sizeof(*f.inls));
	f.types = bp_bigmem__alloc((s->ntdefs + 1) * sizeof(*f.types));
	/* an empty table still has slots; sized once for every name there
	 * may be (a table grown by doubling fills and drops the smaller ones) */
	if (!f.funcs || !f.inls || !f.types || names_grow(&names, all) ||
	    bp_bigmem__grow((void **)&names.v, 0, &names.cap, sizeof(*names.v), all + 1))
		goto out;
	for (i = 0; i < s->nsubs; i++) {
		if (s->subs[i].reported &&
		    found_add(&names, resolve_name(s, s->subs[i].off, &s->subs[i].n), f.funcs,
			      &f.nfuncs, i))
			goto out;
	}
	for (i = 0; i < s->ninls; i++) {
		if (found_add(&names, resolve_name(s, s->inls[i].off, &s->inls[i].n), f.inls,
			      &f.ninls, i))
			goto out;
	}
	for (i = 0; i < s->ntdefs; i++) {
		if (found_add(&names, resolve_name(s, s->tdefs[i].off, &s->tdefs[i].n), f.types,
			      &f.ntypes, i))
			goto out;
	}
	err = build_blob(s, &names, &f, out);
out:
	bp_bigmem__free(f.funcs, (s->nsubs + 1) * sizeof(*f.funcs));
	bp_bigmem__free(f.inls, (s->ninls + 1) * sizeof(*f.inls));
	bp_bigmem__free(f.types, (s->ntdefs + 1) * sizeof(*f.types));
	bp_bigmem__free(names.v, names.cap * sizeof(*names.v));
	bp_bigmem__free(names.slots, (size_t)names.nslots * sizeof(*names.slots));
	return err;
}

/*
 * The binary opened again, when its DWARF is in it and it is the file
 * libdwfl opened (same identity as di->st, taken before and after), for
 * dwarf_raw.c to read its large sections with pread; else -1. (A separate
 * debug file is read through libdw's mapping, as its identity before
 * libdwfl opened it is not known.)
 */
static int binary_fd(const struct bp_debuginfo *di)
{
	struct bp_index_file_id want;
	const char *debugfile = NULL;

	dwfl_module_info(di->mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	if (!di->st_ok || (debugfile && strcmp(debugfile, di->path)))
		return -1;
	bp_index_file__id(&di->st, &want);
	return bp_index_file__reopen(di->path, &want);
}

int bp_index_scan(const struct bp_debuginfo *di, struct bp_dwarf_index *out,
		  char *why, size_t len)
{
	struct scan s = { .di = di, .self_contained = true };
	int err, fd;

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	err = bp_raw__init(&s.raw, di->dwarf, wanted, NVALUES, classify, why, len);
	if (!err && (fd = binary_fd(di)) >= 0) {
		bp_raw__read_sections(&s.raw, fd);
		close(fd);
	}
	if (!err)
		err = scan_units(&s);
	if (!err)
		err = s.raw.err;
	if (!err)
		err = collect(&s, out);
	bp_raw__free(&s.raw);
	bp_bigmem__free(s.subs, s.cap_subs * sizeof(*s.subs));
	bp_bigmem__free(s.inls, s.cap_inls * sizeof(*s.inls));
	bp_bigmem__free(s.tdefs, s.cap_tdefs * sizeof(*s.tdefs));
	free(s.units);
	free(s.cus);
	if (err == -ENOMEM && why && len)
		snprintf(why, len, "out of memory");
	return err;
}
