// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Building the function index (index.h) in one pass over .debug_info's
 * bytes: each DIE's attributes are decoded from its abbreviation here, and
 * the subtrees that hold no function (types, a function's parameters and
 * variables once its blocks are seen) are skipped by DW_AT_sibling. libdw
 * would build a Dwarf_Die and look every attribute up for each DIE, which
 * is what made walking every unit slow.
 *
 * It visits what the resolver's walks would (index.h): dwarf_getfuncs'
 * scopes (units, namespaces, classes and structures, functions, blocks;
 * in a C unit only functions, blocks and inlined calls) and, in each
 * function it reports, inline.c's walk (blocks and inlined calls, at most
 * 64 levels down). Anything it cannot read exactly as libdw would (split
 * or imported units, another byte order, an unknown form, a string in
 * another file) makes it give up: the walks are then used as before.
 * Names that go through a reference it did not see (another file, a DIE
 * in a subtree it skipped) are asked of libdw.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

#include "probes/dwarf/debuginfo.h"
#include "probes/dwarf/index.h"
#include "probes/dwarf/types.h"
#include "util/grow.h"

#ifndef DW_FORM_strx1
#define DW_FORM_strx1		0x25
#define DW_FORM_strx2		0x26
#define DW_FORM_strx3		0x27
#define DW_FORM_strx4		0x28
#define DW_FORM_addrx1		0x29
#define DW_FORM_addrx2		0x2a
#define DW_FORM_addrx3		0x2b
#define DW_FORM_addrx4		0x2c
#endif

/* deeper DIE trees than this are left to libdw */
#define MAX_LEVELS	256
/* inline.c's walk: children of a block or inlined call at this nesting
 * level or less are looked at */
#define INLINE_WALK_MAX	64
/* dwarf_attr_integrate follows this many origins/specifications */
#define NAME_HOPS	17

struct section {
	const uint8_t *p;
	size_t size;
};

/* What the walk asks of a tag, worked out once per abbreviation. */
enum {
	TAG_SUBPROGRAM	= 1 << 0,
	TAG_INLINED	= 1 << 1,	/* DW_TAG_inlined_subroutine */
	TAG_WALKED	= 1 << 2,	/* a lexical block or an inlined call:
					 * inline.c's walk goes into it */
	TAG_SCOPES	= 1 << 3,	/* dwarf_getfuncs goes into it */
	TAG_C_KEPT	= 1 << 4,	/* ... even in a C unit */
	TAG_IMPORTED	= 1 << 5,	/* DW_TAG_imported_unit */
};

struct abbrev {
	uint64_t code;
	uint32_t tag;
	uint8_t class;		/* TAG_* */
	bool children;
	bool has_decl;		/* DW_AT_declaration, any value: dwarf_hasattr */
	bool wanted;		/* an attribute below is of interest */
	int32_t sibling_at;	/* DW_AT_sibling's byte in the DIE when every
				 * attribute before it has a fixed size; -1 */
	uint16_t sibling_form;
	int32_t fixed;		/* bytes of all attributes when every form has a
				 * fixed size, else -1 */
	uint32_t first;		/* its attributes: attrs[first, first + nattrs) */
	uint32_t nattrs;
};

/* What the walk does with an attribute. */
enum attr_kind { ATTR_SKIP, ATTR_NAME, ATTR_ORIGIN, ATTR_SPEC, ATTR_SIBLING };

struct abbrev_attr {
	uint32_t name;
	uint16_t form;
	int8_t size;		/* fixed size in its unit, -1: variable */
	uint8_t kind;		/* enum attr_kind */
	int64_t implicit;
};

struct abbrevs {
	struct abbrev *v;
	size_t n, cap;
	struct abbrev_attr *attrs;
	size_t nattrs, cap_attrs;
	/* by code, when codes are small (they count from 1 in practice) */
	struct abbrev **by_code;
	size_t ncodes;
	bool inlines_from_outside;
};

/* One unit being read. */
struct unit {
	uint64_t off;		/* of its header */
	uint64_t die_off;	/* of its DIE */
	const uint8_t *end;
	int version;
	int offset_size;
	int addr_size;
	bool c_lang;
	int64_t str_offsets_base;	/* -1: none */
};

/* What a DIE says about its name. */
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

/* Unique names, by content. */
struct names {
	const char **v;		/* by id */
	uint32_t n, cap;
	uint32_t *slots;	/* id + 1, 0: empty */
	uint32_t nslots;
};

struct scan {
	const struct bp_debuginfo *di;
	struct section info, abbrev, str, line_str, str_offsets;
	struct abbrevs ab;
	struct sub *subs;
	size_t nsubs, cap_subs;
	struct inl *inls;
	size_t ninls, cap_inls;
	uint64_t *units;	/* inlining from outside */
	size_t nunits, cap_units;
	int asked;		/* names libdw was asked for */
	char *why;
	size_t why_len;
	int err;
};

__attribute__((format(printf, 2, 3)))
static int unsupported(struct scan *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->err) {
		va_start(ap, fmt);
		vsnprintf(s->why, s->why_len, fmt, ap);
		va_end(ap);
		s->err = -EOPNOTSUPP;
	}
	return s->err;
}

/* --- reading bytes -------------------------------------------------------- */

static inline bool uleb(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t r = 0;
	int shift = 0;

	while (p < end) {
		uint8_t b = *p++;

		if (shift < 64)
			r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			*pp = p;
			*v = r;
			return true;
		}
	}
	return false;
}

static inline bool sleb(const uint8_t **pp, const uint8_t *end, int64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t r = 0;
	int shift = 0;
	uint8_t b = 0;

	do {
		if (p >= end)
			return false;
		b = *p++;
		if (shift < 64)
			r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		r |= ~(uint64_t)0 << shift;
	*pp = p;
	*v = (int64_t)r;
	return true;
}

/* n bytes (1..8) little-endian: the scan refuses other byte orders */
static inline uint64_t fixed(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static bool read_fixed(const uint8_t **pp, const uint8_t *end, int n, uint64_t *v)
{
	if (end - *pp < n)
		return false;
	*v = fixed(*pp, n);
	*pp += n;
	return true;
}

/* --- sections ------------------------------------------------------------- */

static int find_sections(struct scan *s)
{
	Elf *elf = dwarf_getelf(s->di->dwarf);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Ehdr eh;

	if (!elf || !gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return unsupported(s, "cannot read the debug file's ELF header");
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		return unsupported(s, "not little-endian DWARF");
	/* libdwfl relocates a relocatable file's DWARF in memory */
	if (eh.e_type == ET_REL)
		return unsupported(s, "a relocatable file");
	while ((scn = elf_nextscn(elf, scn))) {
		struct section *sec = NULL;
		const char *name;
		Elf_Data *data;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		/* .zdebug_ names: libdw inflated them in place */
		if (!strncmp(name, ".zdebug_", 8))
			name += 2;
		else if (!strncmp(name, ".debug_", 7))
			name += 1;
		else
			continue;
		if (!strcmp(name, "debug_info"))
			sec = &s->info;
		else if (!strcmp(name, "debug_abbrev"))
			sec = &s->abbrev;
		else if (!strcmp(name, "debug_str"))
			sec = &s->str;
		else if (!strcmp(name, "debug_line_str"))
			sec = &s->line_str;
		else if (!strcmp(name, "debug_str_offsets"))
			sec = &s->str_offsets;
		if (!sec)
			continue;
		if (sh.sh_type == SHT_NOBITS)
			return unsupported(s, "no .%s bytes in the debug file", name);
		if (sh.sh_flags & SHF_COMPRESSED)
			return unsupported(s, ".%s is compressed", name);
		data = elf_getdata(scn, NULL);
		if (!data || (!data->d_buf && data->d_size))
			return unsupported(s, "cannot read .%s", name);
		sec->p = data->d_buf;
		sec->size = data->d_size;
	}
	if (!s->info.p || !s->abbrev.p)
		return unsupported(s, "no .debug_info or .debug_abbrev");
	return 0;
}

/* --- abbreviations -------------------------------------------------------- */

static bool is_local_ref(uint32_t form)
{
	switch (form) {
	case DW_FORM_ref1:
	case DW_FORM_ref2:
	case DW_FORM_ref4:
	case DW_FORM_ref8:
	case DW_FORM_ref_udata:
		return true;
	}
	return false;
}

/* Bytes of a form with a fixed size in this unit; -1: variable. */
static int form_size(uint32_t form, const struct unit *u)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1:
	case DW_FORM_ref1:
	case DW_FORM_flag:
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2:
	case DW_FORM_ref2:
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4:
	case DW_FORM_ref4:
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8:
	case DW_FORM_ref8:
	case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return u->addr_size;
	case DW_FORM_ref_addr:
		return u->version == 2 ? u->addr_size : u->offset_size;
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_sec_offset:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		return u->offset_size;
	}
	return -1;
}

static bool form_known(uint32_t form)
{
	switch (form) {
	case DW_FORM_string:
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_exprloc:
	case DW_FORM_sdata:
	case DW_FORM_udata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
	case DW_FORM_indirect:
		return true;
	}
	return false;
}

static enum attr_kind attr_kind(uint32_t name)
{
	switch (name) {
	case DW_AT_name:
		return ATTR_NAME;
	case DW_AT_abstract_origin:
		return ATTR_ORIGIN;
	case DW_AT_specification:
		return ATTR_SPEC;
	case DW_AT_sibling:
		return ATTR_SIBLING;
	}
	return ATTR_SKIP;
}

/* libdw_visit_scopes: DIEs whose children dwarf_getfuncs visits */
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

/* dwarf_getfuncs prunes every other subtree of a C unit */
static bool c_keeps(uint32_t tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
	       tag == DW_TAG_inlined_subroutine;
}

static uint8_t tag_class(uint32_t tag)
{
	uint8_t c = 0;

	if (tag == DW_TAG_subprogram)
		c |= TAG_SUBPROGRAM;
	if (tag == DW_TAG_inlined_subroutine)
		c |= TAG_INLINED;
	if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block)
		c |= TAG_WALKED;
	if (may_have_scopes(tag))
		c |= TAG_SCOPES;
	if (c_keeps(tag))
		c |= TAG_C_KEPT;
	if (tag == DW_TAG_imported_unit)
		c |= TAG_IMPORTED;
	return c;
}

static void abbrevs_reset(struct abbrevs *t)
{
	t->n = 0;
	t->nattrs = 0;
	t->inlines_from_outside = false;
	if (t->by_code)
		memset(t->by_code, 0, t->ncodes * sizeof(*t->by_code));
}

static int add_code(struct scan *s, struct abbrev *a)
{
	struct abbrevs *t = &s->ab;

	if (a->code > 65536)
		return 0;	/* looked for in v */
	if (a->code >= t->ncodes) {
		size_t n = t->ncodes ? t->ncodes : 256;
		struct abbrev **v;

		while (n <= a->code)
			n *= 2;
		v = realloc(t->by_code, n * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memset(v + t->ncodes, 0, (n - t->ncodes) * sizeof(*v));
		t->by_code = v;
		t->ncodes = n;
	}
	t->by_code[a->code] = a;
	return 0;
}

/* The abbreviation table of unit u, at off in .debug_abbrev. */
static int read_abbrevs(struct scan *s, uint64_t off, const struct unit *u)
{
	struct abbrevs *t = &s->ab;
	const uint8_t *p, *end = s->abbrev.p + s->abbrev.size;
	size_t i;

	abbrevs_reset(t);
	if (off >= s->abbrev.size)
		return unsupported(s, "abbreviation offset 0x%llx out of .debug_abbrev",
				   (unsigned long long)off);
	p = s->abbrev.p + off;
	for (;;) {
		struct abbrev a = { .fixed = 0, .sibling_at = -1 };
		uint64_t code, tag, name, form;

		if (!uleb(&p, end, &code))
			return unsupported(s, "truncated abbreviation table");
		if (!code)
			break;
		if (!uleb(&p, end, &tag) || p >= end)
			return unsupported(s, "truncated abbreviation table");
		a.code = code;
		a.tag = tag;
		a.class = tag_class(tag);
		a.children = *p++ != 0;
		a.first = t->nattrs;
		for (;;) {
			struct abbrev_attr at = {};
			int size;

			if (!uleb(&p, end, &name) || !uleb(&p, end, &form))
				return unsupported(s, "truncated abbreviation table");
			if (!name && !form)
				break;
			if (form == DW_FORM_implicit_const && !sleb(&p, end, &at.implicit))
				return unsupported(s, "truncated abbreviation table");
			size = form_size(form, u);
			if (size < 0 && !form_known(form))
				return unsupported(s, "attribute form 0x%llx", (unsigned long long)form);
			if (form > UINT16_MAX)
				return unsupported(s, "attribute form 0x%llx", (unsigned long long)form);
			at.name = name;
			at.form = form;
			at.size = form == DW_FORM_indirect ? -1 : size;
			at.kind = attr_kind(name);
			if (name == DW_AT_declaration)
				a.has_decl = true;
			if (at.kind != ATTR_SKIP)
				a.wanted = true;
			if (at.kind == ATTR_SIBLING && a.fixed >= 0 && at.size > 0) {
				a.sibling_at = a.fixed;
				a.sibling_form = form;
			}
			if (a.fixed >= 0)
				a.fixed = at.size < 0 ? -1 : a.fixed + at.size;
			/* inline.c: a unit whose inlined calls may name another's */
			if (a.tag == DW_TAG_inlined_subroutine && name == DW_AT_abstract_origin &&
			    !is_local_ref(form))
				t->inlines_from_outside = true;
			if (bp_grow((void **)&t->attrs, t->nattrs, &t->cap_attrs, sizeof(at), 64))
				return -ENOMEM;
			t->attrs[t->nattrs++] = at;
			a.nattrs++;
		}
		if (bp_grow((void **)&t->v, t->n, &t->cap, sizeof(a), 64))
			return -ENOMEM;
		t->v[t->n++] = a;
	}
	/* pointers only now: v may have moved while it grew */
	for (i = 0; i < t->n; i++) {
		int err = add_code(s, &t->v[i]);

		if (err)
			return err;
	}
	return 0;
}

static const struct abbrev *find_abbrev(const struct abbrevs *t, uint64_t code)
{
	size_t i;

	if (code < t->ncodes)
		return t->by_code[code];
	for (i = 0; i < t->n; i++) {
		if (t->v[i].code == code)
			return &t->v[i];
	}
	return NULL;
}

/* --- attributes ----------------------------------------------------------- */

/* Skips one attribute of form at *pp. */
static bool skip_form(const struct unit *u, uint32_t form, const uint8_t **pp)
{
	const uint8_t *p = *pp, *end = u->end;
	uint64_t v;
	int size;

	size = form_size(form, u);
	if (size >= 0) {
		if (end - p < size)
			return false;
		*pp = p + size;
		return true;
	}
	switch (form) {
	case DW_FORM_string: {
		const uint8_t *nul = memchr(p, 0, end - p);

		if (!nul)
			return false;
		*pp = nul + 1;
		return true;
	}
	case DW_FORM_block1:
		if (!read_fixed(&p, end, 1, &v))
			return false;
		break;
	case DW_FORM_block2:
		if (!read_fixed(&p, end, 2, &v))
			return false;
		break;
	case DW_FORM_block4:
		if (!read_fixed(&p, end, 4, &v))
			return false;
		break;
	case DW_FORM_block:
	case DW_FORM_exprloc:
		if (!uleb(&p, end, &v))
			return false;
		break;
	case DW_FORM_indirect:
		if (!uleb(&p, end, &v) || v == DW_FORM_indirect || v == DW_FORM_implicit_const ||
		    (form_size(v, u) < 0 && !form_known(v)))
			return false;
		*pp = p;
		return skip_form(u, v, pp);
	default:	/* the LEB128 forms */
		if (!uleb(&p, end, &v))
			return false;
		*pp = p;
		return true;
	}
	if ((uint64_t)(end - p) < v)
		return false;
	*pp = p + v;
	return true;
}

/* The value of a constant, reference or string-offset form. */
static bool read_value(const struct unit *u, uint32_t form, const struct abbrev_attr *at,
		       const uint8_t **pp, uint64_t *v)
{
	int size;

	switch (form) {
	case DW_FORM_udata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_GNU_str_index:
		return uleb(pp, u->end, v);
	case DW_FORM_sdata:
		return sleb(pp, u->end, (int64_t *)v);
	case DW_FORM_implicit_const:
		*v = (uint64_t)at->implicit;
		return true;
	}
	size = form_size(form, u);
	if (size <= 0 || size > 8)
		return false;
	return read_fixed(pp, u->end, size, v);
}

static const char *section_string(const struct section *sec, uint64_t off)
{
	if (!sec->p || off >= sec->size || !memchr(sec->p + off, 0, sec->size - off))
		return NULL;
	return (const char *)sec->p + off;
}

/* DW_AT_name's string, or NULL when it is in a form read elsewhere. */
static const char *read_name(struct scan *s, const struct unit *u, uint32_t form,
			     const uint8_t *p)
{
	const uint8_t *q = p;
	uint64_t v, off;

	switch (form) {
	case DW_FORM_string:
		return memchr(p, 0, u->end - p) ? (const char *)p : NULL;
	case DW_FORM_strp:
		return read_fixed(&q, u->end, u->offset_size, &v) ? section_string(&s->str, v) : NULL;
	case DW_FORM_line_strp:
		return read_fixed(&q, u->end, u->offset_size, &v) ? section_string(&s->line_str, v) :
		       NULL;
	case DW_FORM_strx:
	case DW_FORM_GNU_str_index:
	case DW_FORM_strx1:
	case DW_FORM_strx2:
	case DW_FORM_strx3:
	case DW_FORM_strx4:
		if (form == DW_FORM_strx || form == DW_FORM_GNU_str_index) {
			if (!uleb(&q, u->end, &v))
				return NULL;
		} else if (!read_fixed(&q, u->end, form_size(form, u), &v)) {
			return NULL;
		}
		if (u->str_offsets_base < 0 || !s->str_offsets.p)
			return NULL;
		off = (uint64_t)u->str_offsets_base + v * u->offset_size;
		if (off >= s->str_offsets.size || s->str_offsets.size - off < (uint64_t)u->offset_size)
			return NULL;
		return section_string(&s->str, fixed(s->str_offsets.p + off, u->offset_size));
	}
	return NULL;
}

/* What the DIE's attributes say: its name and its sibling. */
struct die_attrs {
	struct die_name n;
	uint64_t sibling;	/* 0: none */
};

/* A reference attribute: absent, where it points, or in a form read
 * elsewhere (another file, a type signature). */
enum ref_state { REF_NONE, REF_AT, REF_OTHER };

static enum ref_state read_ref(const struct unit *u, uint32_t form,
			       const struct abbrev_attr *at, const uint8_t *p,
			       uint64_t *ref)
{
	uint64_t v;

	if (is_local_ref(form)) {
		if (!read_value(u, form, at, &p, &v))
			return REF_OTHER;
		*ref = u->off + v;
		return REF_AT;
	}
	if (form == DW_FORM_ref_addr) {
		if (!read_fixed(&p, u->end, form_size(form, u), &v))
			return REF_OTHER;
		*ref = v;
		return REF_AT;
	}
	return REF_OTHER;
}

/*
 * dwarf_attr_integrate(DW_AT_name): the DIE's own name, else where its
 * abstract origin, else its specification points (followed later).
 */
static void integrate_name(struct die_name *n, bool has_name, const char *name,
			   enum ref_state origin, uint64_t origin_at,
			   enum ref_state spec, uint64_t spec_at)
{
	enum ref_state ref = origin != REF_NONE ? origin : spec;

	if (has_name) {
		n->kind = name ? NAME_KNOWN : NAME_ASK_LIBDW;
		n->name = name;
	} else if (ref == REF_AT) {
		n->kind = NAME_REF;
		n->ref = origin != REF_NONE ? origin_at : spec_at;
	} else {
		n->kind = ref == REF_NONE ? NAME_NONE : NAME_ASK_LIBDW;
	}
}

static bool read_attrs(struct scan *s, const struct unit *u, const struct abbrev *ab,
		       const uint8_t **pp, struct die_attrs *out)
{
	const struct abbrev_attr *at = s->ab.attrs + ab->first;
	enum ref_state origin = REF_NONE, spec = REF_NONE;
	uint64_t origin_at = 0, spec_at = 0;
	const uint8_t *p = *pp;
	const char *name = NULL;
	bool has_name = false;
	uint32_t i;

	out->sibling = 0;
	for (i = 0; i < ab->nattrs; i++, at++) {
		uint32_t form = at->form;

		if (at->kind == ATTR_SKIP && at->size >= 0) {
			p += at->size;
			continue;
		}
		if (p > u->end)
			return false;
		if (form == DW_FORM_indirect) {
			uint64_t f;

			if (!uleb(&p, u->end, &f) || f == DW_FORM_indirect ||
			    f == DW_FORM_implicit_const)
				return false;
			form = f;
		}
		switch (at->kind) {
		case ATTR_NAME:
			has_name = true;
			name = read_name(s, u, form, p);
			break;
		case ATTR_ORIGIN:
			origin = read_ref(u, form, at, p, &origin_at);
			break;
		case ATTR_SPEC:
			spec = read_ref(u, form, at, p, &spec_at);
			break;
		case ATTR_SIBLING:
			if (read_ref(u, form, at, p, &out->sibling) != REF_AT)
				out->sibling = 0;
			break;
		}
		if (at->size >= 0)
			p += at->size;
		else if (!skip_form(u, form, &p))
			return false;
	}
	if (p > u->end)
		return false;
	integrate_name(&out->n, has_name, name, origin, origin_at, spec, spec_at);
	*pp = p;
	return true;
}

static bool skip_attrs(struct scan *s, const struct unit *u, const struct abbrev *ab,
		       const uint8_t **pp)
{
	const struct abbrev_attr *at;
	const uint8_t *p = *pp;
	uint32_t i;

	if (ab->fixed >= 0) {
		if (u->end - p < ab->fixed)
			return false;
		*pp = p + ab->fixed;
		return true;
	}
	/* fixed sizes are at most 16 bytes: checking before each variable
	 * one and at the end keeps every read in the unit */
	at = s->ab.attrs + ab->first;
	for (i = 0; i < ab->nattrs; i++, at++) {
		if (at->size >= 0) {
			p += at->size;
		} else if (p > u->end || !skip_form(u, at->form, &p)) {
			return false;
		}
	}
	if (p > u->end)
		return false;
	*pp = p;
	return true;
}

/* Where the DIE whose attributes start at p says its sibling is, when
 * its abbreviation puts DW_AT_sibling at a fixed place; else 0. */
static uint64_t quick_sibling(const struct unit *u, const struct abbrev *ab, const uint8_t *p)
{
	int size;

	if (ab->sibling_at < 0 || !is_local_ref(ab->sibling_form) ||
	    ab->sibling_form == DW_FORM_ref_udata)
		return 0;
	size = form_size(ab->sibling_form, u);
	if (u->end - p < ab->sibling_at + size)
		return 0;
	return u->off + fixed(p + ab->sibling_at, size);
}

/* Past the children of a DIE whose attributes have been read. */
static bool skip_children(struct scan *s, const struct unit *u, const uint8_t **pp)
{
	const uint8_t *p = *pp;
	size_t depth = 1;

	while (depth) {
		const struct abbrev *ab;
		struct die_attrs a;
		uint64_t code;

		if (!uleb(&p, u->end, &code))
			return false;
		if (!code) {
			depth--;
			continue;
		}
		ab = find_abbrev(&s->ab, code);
		if (!ab)
			return false;
		if (ab->children && ab->wanted) {
			if (!read_attrs(s, u, ab, &p, &a))
				return false;
			if (a.sibling > (uint64_t)(p - s->info.p) &&
			    a.sibling <= (uint64_t)(u->end - s->info.p)) {
				p = s->info.p + a.sibling;
				continue;
			}
		} else if (!skip_attrs(s, u, ab, &p)) {
			return false;
		}
		if (ab->children)
			depth++;
	}
	*pp = p;
	return true;
}

/* --- the walk ------------------------------------------------------------- */

struct level {
	uint64_t frame;		/* children are in this function's inline walk */
	bool funcs;		/* children are visited by dwarf_getfuncs */
	uint8_t walk_level;	/* the children's level in that walk */
};

static int add_sub(struct scan *s, uint64_t off, const struct die_attrs *a, bool reported)
{
	if (bp_grow((void **)&s->subs, s->nsubs, &s->cap_subs, sizeof(*s->subs), 1024))
		return -ENOMEM;
	s->subs[s->nsubs++] = (struct sub){ .off = off, .n = a->n, .reported = reported };
	return 0;
}

static int add_inline(struct scan *s, const struct unit *u, uint64_t off, uint64_t frame,
		      const struct die_attrs *a)
{
	if (bp_grow((void **)&s->inls, s->ninls, &s->cap_inls, sizeof(*s->inls), 256))
		return -ENOMEM;
	s->inls[s->ninls++] = (struct inl){ .off = off, .frame = frame, .unit = u->die_off,
					    .n = a->n };
	return 0;
}

static int walk_unit(struct scan *s, const struct unit *u, const uint8_t *p)
{
	struct level levels[MAX_LEVELS];
	size_t depth = 1;
	const uint8_t *base = s->info.p;

	levels[0] = (struct level){ .funcs = true };
	while (depth) {
		const struct level *l = &levels[depth - 1];
		uint64_t off = p - base, code;
		const struct abbrev *ab;
		struct die_attrs a;
		struct level child = {};
		bool reported, in_walk, descend, read;
		uint8_t cls;

		if (!uleb(&p, u->end, &code))
			return unsupported(s, "a DIE past its unit's end at 0x%llx",
					   (unsigned long long)off);
		if (!code) {
			depth--;
			continue;
		}
		ab = find_abbrev(&s->ab, code);
		if (!ab)
			return unsupported(s, "unknown abbreviation %llu at 0x%llx",
					   (unsigned long long)code, (unsigned long long)off);
		cls = ab->class;
		if (l->funcs && (cls & TAG_IMPORTED))
			return unsupported(s, "an imported unit (DWZ) at 0x%llx",
					   (unsigned long long)off);
		reported = l->funcs && (cls & TAG_SUBPROGRAM) && !ab->has_decl;
		in_walk = l->frame && (cls & TAG_INLINED);
		child.funcs = l->funcs && (cls & TAG_SCOPES) && (!u->c_lang || (cls & TAG_C_KEPT));
		if (reported) {
			child.frame = off;
			child.walk_level = 1;
		} else if (l->frame && (cls & TAG_WALKED) && l->walk_level <= INLINE_WALK_MAX) {
			child.frame = l->frame;
			child.walk_level = l->walk_level + 1;
		}
		descend = ab->children && (child.funcs || child.frame);
		read = (l->funcs && (cls & TAG_SUBPROGRAM)) || in_walk;
		if (!read && ab->children && !descend) {
			/* a type: past its members at once */
			uint64_t sib = quick_sibling(u, ab, p);

			if (sib > off && sib <= (uint64_t)(u->end - base)) {
				p = base + sib;
				continue;
			}
			read = ab->wanted;
		}
		if (read ? !read_attrs(s, u, ab, &p, &a) : !skip_attrs(s, u, ab, &p))
			return unsupported(s, "a DIE past its unit's end at 0x%llx",
					   (unsigned long long)off);
		if (l->funcs && (cls & TAG_SUBPROGRAM) && add_sub(s, off, &a, reported))
			return -ENOMEM;
		if (in_walk && add_inline(s, u, off, l->frame, &a))
			return -ENOMEM;
		if (!ab->children)
			continue;
		if (descend) {
			if (depth == MAX_LEVELS)
				return unsupported(s, "DIEs nested deeper than %d levels", MAX_LEVELS);
			levels[depth++] = child;
			continue;
		}
		if (read && a.sibling > off && a.sibling <= (uint64_t)(u->end - base)) {
			p = base + a.sibling;
			continue;
		}
		if (!skip_children(s, u, &p))
			return unsupported(s, "a DIE past its unit's end at 0x%llx",
					   (unsigned long long)off);
	}
	return 0;
}

/* The unit DIE's attributes the walk needs: its language, its string
 * offsets; split DWARF is refused. */
static int read_unit_die(struct scan *s, struct unit *u, const struct abbrev *ab,
			 const uint8_t **pp)
{
	const struct abbrev_attr *at = s->ab.attrs + ab->first;
	const uint8_t *p = *pp;
	uint32_t i;

	for (i = 0; i < ab->nattrs; i++, at++) {
		uint32_t form = at->form;
		uint64_t v;

		if (form == DW_FORM_indirect)
			return unsupported(s, "an indirect form in a unit DIE");
		if (at->name == DW_AT_dwo_name || at->name == DW_AT_GNU_dwo_name)
			return unsupported(s, "split DWARF");
		if (at->name == DW_AT_language || at->name == DW_AT_str_offsets_base) {
			const uint8_t *q = p;

			if (!read_value(u, form, at, &q, &v))
				return unsupported(s, "a unit DIE's attribute in form 0x%x", form);
			if (at->name == DW_AT_language)
				u->c_lang = v == DW_LANG_C89 || v == DW_LANG_C || v == DW_LANG_C99 ||
					    v == DW_LANG_C11;
			else
				u->str_offsets_base = (int64_t)v;
		}
		if (!skip_form(u, form, &p))
			return unsupported(s, "a unit DIE past its unit's end");
	}
	*pp = p;
	return 0;
}

/* One unit at u->off; *next is where the next one starts. */
static int scan_unit(struct scan *s, struct unit *u, uint64_t *next)
{
	const uint8_t *p = s->info.p + u->off, *end = s->info.p + s->info.size;
	uint64_t len, v = 0, abbrev_off = 0, code;
	const struct abbrev *ab;
	int unit_type = DW_UT_compile, err;

	if (!read_fixed(&p, end, 4, &len))
		return unsupported(s, "a truncated unit header");
	u->offset_size = 4;
	if (len == 0xffffffff) {
		if (!read_fixed(&p, end, 8, &len))
			return unsupported(s, "a truncated unit header");
		u->offset_size = 8;
	} else if (len >= 0xfffffff0) {
		return unsupported(s, "a unit length 0x%llx", (unsigned long long)len);
	}
	if ((uint64_t)(end - p) < len)
		return unsupported(s, "a unit past .debug_info's end");
	u->end = p + len;
	*next = u->end - s->info.p;
	if (!read_fixed(&p, u->end, 2, &v) || v < 2 || v > 5)
		return unsupported(s, "DWARF version %llu", (unsigned long long)v);
	u->version = v;
	if (u->version == 5) {
		if (!read_fixed(&p, u->end, 1, &v))
			return unsupported(s, "a truncated unit header");
		unit_type = v;
		if (!read_fixed(&p, u->end, 1, &v) ||
		    !read_fixed(&p, u->end, u->offset_size, &abbrev_off))
			return unsupported(s, "a truncated unit header");
		u->addr_size = v;
		if (unit_type == DW_UT_type)
			return 0;	/* type units hold no code */
		if (unit_type != DW_UT_compile && unit_type != DW_UT_partial)
			return unsupported(s, "unit type %d (split DWARF)", unit_type);
	} else {
		if (!read_fixed(&p, u->end, u->offset_size, &abbrev_off) ||
		    !read_fixed(&p, u->end, 1, &v))
			return unsupported(s, "a truncated unit header");
		u->addr_size = v;
	}
	if (u->addr_size != 4 && u->addr_size != 8)
		return unsupported(s, "address size %d", u->addr_size);
	err = read_abbrevs(s, abbrev_off, u);
	if (err)
		return err;
	u->die_off = p - s->info.p;
	u->str_offsets_base = -1;
	if (!uleb(&p, u->end, &code) || !code || !(ab = find_abbrev(&s->ab, code)))
		return unsupported(s, "a unit without its DIE at 0x%llx", (unsigned long long)u->off);
	/* dwarf_getfuncs walks compile units only: a partial unit is reached
	 * through an imported unit, which the walk refuses */
	if (ab->tag != DW_TAG_compile_unit)
		return 0;
	err = read_unit_die(s, u, ab, &p);
	if (err)
		return err;
	if (s->ab.inlines_from_outside &&
	    bp_grow((void **)&s->units, s->nunits, &s->cap_units, sizeof(*s->units), 16) == 0)
		s->units[s->nunits++] = u->die_off;
	else if (s->ab.inlines_from_outside)
		return -ENOMEM;
	if (!ab->children)
		return 0;
	return walk_unit(s, u, p);
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

/* The name bp_die_name() gives the DIE at off whose own attributes say n,
 * or NULL (it has none, or libdw cannot read it). */
static const char *resolve_name(struct scan *s, uint64_t off, const struct die_name *n,
				int *asked)
{
	const struct die_name *cur = n;
	const struct sub *t;
	Dwarf_Die die;
	int hop;

	for (hop = 0; hop < NAME_HOPS; hop++) {
		if (cur->kind == NAME_KNOWN)
			return cur->name;
		if (cur->kind == NAME_NONE)
			return NULL;
		if (cur->kind != NAME_REF || !(t = find_sub(s, cur->ref)))
			break;
		cur = &t->n;
	}
	(*asked)++;
	if (!dwarf_offdie(s->di->dwarf, off, &die))
		return NULL;
	return bp_die_name(&die);
}

static int names_grow(struct names *t)
{
	uint32_t nslots = t->nslots ? t->nslots * 2 : 4096, i;
	uint32_t *slots = calloc(nslots, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		uint32_t h = bp_index__hash(t->v[i]) & (nslots - 1);

		while (slots[h])
			h = (h + 1) & (nslots - 1);
		slots[h] = i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

/* The id of name, added if new; -1 when out of memory. */
static int64_t names_id(struct names *t, const char *name)
{
	uint32_t h;
	size_t cap;

	if ((t->n + 1) * 2 > t->nslots && names_grow(t))
		return -1;
	h = bp_index__hash(name) & (t->nslots - 1);
	while (t->slots[h]) {
		if (!strcmp(t->v[t->slots[h] - 1], name))
			return t->slots[h] - 1;
		h = (h + 1) & (t->nslots - 1);
	}
	cap = t->cap;
	if (bp_grow((void **)&t->v, t->n, &cap, sizeof(*t->v), 1024))
		return -1;
	t->cap = cap;
	t->v[t->n] = name;
	t->slots[h] = t->n + 1;
	return t->n++;
}

/* --- the index ------------------------------------------------------------- */

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

/*
 * The blob of index.h. Entries come in DIE order and are placed by name
 * (a counting sort, stable): a name's functions stay in DIE order; its
 * inlined copies are put in frame order, which differs only around
 * nested functions.
 */
static int build_blob(struct scan *s, const struct names *names,
		      const struct found *funcs, uint32_t nfuncs,
		      const struct found *inls, uint32_t ninls, struct bp_dwarf_index *out)
{
	size_t strings = 0, size, o_names, o_slots, o_funcs, o_inls, o_units, o_strings;
	struct bp_index_inline *inl_v;
	struct bp_index_header *hdr;
	struct bp_index_name *nv;
	uint32_t i, *fill_f = NULL, *fill_i = NULL, *slots;
	uint64_t *func_v;
	char *mem;

	for (i = 0; i < names->n; i++)
		strings += strlen(names->v[i]) + 1;
	if (strings > UINT32_MAX || names->nslots > UINT32_MAX / 2)
		return unsupported(s, "too many names for an index");
	o_names = align8(sizeof(*hdr));
	o_slots = align8(o_names + (size_t)names->n * sizeof(*nv));
	o_funcs = align8(o_slots + (size_t)names->nslots * sizeof(*slots));
	o_inls = align8(o_funcs + (size_t)nfuncs * sizeof(*func_v));
	o_units = align8(o_inls + (size_t)ninls * sizeof(*inl_v));
	o_strings = align8(o_units + s->nunits * sizeof(uint64_t));
	size = o_strings + strings;
	mem = calloc(1, size);
	fill_f = calloc(names->n + 1, sizeof(*fill_f));
	fill_i = calloc(names->n + 1, sizeof(*fill_i));
	if (!mem || !fill_f || !fill_i) {
		free(mem);
		free(fill_f);
		free(fill_i);
		return -ENOMEM;
	}
	hdr = (struct bp_index_header *)mem;
	nv = (struct bp_index_name *)(mem + o_names);
	slots = (uint32_t *)(mem + o_slots);
	func_v = (uint64_t *)(mem + o_funcs);
	inl_v = (struct bp_index_inline *)(mem + o_inls);

	/* where each name's entries start */
	for (i = 0; i < nfuncs; i++)
		nv[funcs[i].id].nfuncs++;
	for (i = 0; i < ninls; i++)
		nv[inls[i].id].ninlines++;
	for (i = 0, strings = 0; i < names->n; i++) {
		size_t len = strlen(names->v[i]) + 1;

		nv[i].str = strings;
		memcpy(mem + o_strings + strings, names->v[i], len);
		strings += len;
		if (i) {
			nv[i].func_first = nv[i - 1].func_first + nv[i - 1].nfuncs;
			nv[i].inline_first = nv[i - 1].inline_first + nv[i - 1].ninlines;
		}
	}
	for (i = 0; i < nfuncs; i++) {
		const struct bp_index_name *n = &nv[funcs[i].id];

		func_v[n->func_first + fill_f[funcs[i].id]++] = s->subs[funcs[i].i].off;
	}
	for (i = 0; i < ninls; i++) {
		const struct bp_index_name *n = &nv[inls[i].id];
		const struct inl *c = &s->inls[inls[i].i];

		inl_v[n->inline_first + fill_i[inls[i].id]++] =
			(struct bp_index_inline){ .die = c->off, .frame = c->frame, .unit = c->unit };
	}
	for (i = 0; i < names->n; i++) {
		if (nv[i].ninlines > 1)
			qsort(inl_v + nv[i].inline_first, nv[i].ninlines, sizeof(*inl_v), inline_cmp);
	}
	memcpy(slots, names->slots, (size_t)names->nslots * sizeof(*slots));
	memcpy(mem + o_units, s->units, s->nunits * sizeof(uint64_t));
	free(fill_f);
	free(fill_i);

	memcpy(hdr->magic, BP_INDEX_MAGIC, sizeof(hdr->magic));
	hdr->version = BP_INDEX_VERSION;
	hdr->byte_order = 0x01020304;
	hdr->payload_size = size - sizeof(*hdr);
	hdr->nnames = names->n;
	hdr->nslots = names->nslots;
	hdr->nfuncs = nfuncs;
	hdr->ninlines = ninls;
	hdr->nunits = s->nunits;
	hdr->strings_size = strings;
	out->mem = mem;
	out->size = size;
	return 0;
}

/* The entries, their names resolved: subprograms reported, inlined copies. */
static int collect(struct scan *s, struct bp_dwarf_index *out)
{
	struct found *funcs = NULL, *inls = NULL;
	struct names names = {};
	uint32_t nfuncs = 0, ninls = 0;
	int asked = 0, err = -ENOMEM;
	int64_t id;
	size_t i;

	if (s->nsubs > UINT32_MAX || s->ninls > UINT32_MAX)
		return unsupported(s, "too many functions for an index");
	funcs = malloc((s->nsubs + 1) * sizeof(*funcs));
	inls = malloc((s->ninls + 1) * sizeof(*inls));
	/* an empty table still has slots */
	if (!funcs || !inls || names_grow(&names))
		goto out;
	for (i = 0; i < s->nsubs; i++) {
		const struct sub *f = &s->subs[i];
		const char *name;

		if (!f->reported)
			continue;
		name = resolve_name(s, f->off, &f->n, &asked);
		if (!name)
			continue;	/* sites.c skips a function without one */
		if ((id = names_id(&names, name)) < 0)
			goto out;
		funcs[nfuncs++] = (struct found){ .id = id, .i = i };
	}
	for (i = 0; i < s->ninls; i++) {
		const struct inl *c = &s->inls[i];
		const char *name = resolve_name(s, c->off, &c->n, &asked);

		if (!name)
			continue;
		if ((id = names_id(&names, name)) < 0)
			goto out;
		inls[ninls++] = (struct found){ .id = id, .i = i };
	}
	s->asked = asked;
	err = build_blob(s, &names, funcs, nfuncs, inls, ninls, out);
out:
	free(funcs);
	free(inls);
	free(names.v);
	free(names.slots);
	return err;
}

int bp_index_scan(const struct bp_debuginfo *di, struct bp_dwarf_index *out,
		  char *why, size_t len)
{
	struct scan s = { .di = di, .why = why, .why_len = len };
	uint64_t off = 0, next = 0;
	int err;

	memset(out, 0, sizeof(*out));
	err = find_sections(&s);
	while (!err && off < s.info.size) {
		struct unit u = { .off = off };

		err = scan_unit(&s, &u, &next);
		off = next;
	}
	if (!err && !s.err)
		err = collect(&s, out);
	if (!err && s.err)
		err = s.err;
	free(s.ab.v);
	free(s.ab.attrs);
	free(s.ab.by_code);
	free(s.subs);
	free(s.inls);
	free(s.units);
	if (err == -ENOMEM && why && len)
		snprintf(why, len, "out of memory");
	return err;
}
