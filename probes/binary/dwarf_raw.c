// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * DWARF read from its bytes (dwarf_raw.h): sections, unit headers,
 * abbreviation tables, attribute forms. Little-endian DWARF 2 to 5, 32- or
 * 64-bit; every read is checked against the end of its section or unit.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <gelf.h>

#include "probes/binary/dwarf_raw.h"
#include "util/bigmem.h"
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

int bp_raw__refuse(struct bp_raw *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->err) {
		va_start(ap, fmt);
		vsnprintf(r->why, r->why_len, fmt, ap);
		va_end(ap);
		r->err = -EOPNOTSUPP;
	}
	return r->err;
}

/* --- bytes ------------------------------------------------------------------ */

bool bp_raw__sleb(const uint8_t **pp, const uint8_t *end, int64_t *v)
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

/* n bytes (1..8), little-endian: other byte orders are refused */
static uint64_t fixed(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

bool bp_raw__read_fixed(const uint8_t **pp, const uint8_t *end, int n, uint64_t *v)
{
	if (end - *pp < n)
		return false;
	*v = fixed(*pp, n);
	*pp += n;
	return true;
}

/* --- sections ------------------------------------------------------------- */

static struct bp_raw_section *section_of(struct bp_raw_sections *s, const char *name)
{
	if (!strcmp(name, "debug_info"))
		return &s->info;
	if (!strcmp(name, "debug_abbrev"))
		return &s->abbrev;
	if (!strcmp(name, "debug_str"))
		return &s->str;
	if (!strcmp(name, "debug_line_str"))
		return &s->line_str;
	if (!strcmp(name, "debug_str_offsets"))
		return &s->str_offsets;
	if (!strcmp(name, "debug_line"))
		return &s->line;
	return NULL;
}

static __attribute__((format(printf, 3, 4)))
int refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -EOPNOTSUPP;
}

int bp_raw__sections(Dwarf *dwarf, struct bp_raw_sections *s, char *why, size_t len)
{
	Elf *elf = dwarf_getelf(dwarf);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Ehdr eh;

	memset(s, 0, sizeof(*s));
	if (!elf || !gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return refuse(why, len, "cannot read the debug file's ELF header");
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		return refuse(why, len, "not little-endian DWARF");
	/* libdwfl relocates a relocatable file's DWARF in memory */
	if (eh.e_type == ET_REL)
		return refuse(why, len, "a relocatable file");
	while ((scn = elf_nextscn(elf, scn))) {
		struct bp_raw_section *sec;
		const char *name;
		Elf_Data *data;
		GElf_Shdr sh;
		bool zdebug;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		/* .zdebug_ names: libdw inflated them in place */
		zdebug = !strncmp(name, ".zdebug_", 8);
		if (zdebug)
			name += 2;
		else if (!strncmp(name, ".debug_", 7))
			name += 1;
		else
			continue;
		sec = section_of(s, name);
		if (!sec)
			continue;
		if (sh.sh_type == SHT_NOBITS)
			return refuse(why, len, "no .%s bytes in the debug file", name);
		if (sh.sh_flags & SHF_COMPRESSED)
			return refuse(why, len, ".%s is compressed", name);
		data = elf_getdata(scn, NULL);
		if (!data || (!data->d_buf && data->d_size))
			return refuse(why, len, "cannot read .%s", name);
		sec->p = data->d_buf;
		sec->size = data->d_size;
		sec->file_off = sh.sh_offset;
		sec->in_file = !zdebug && data->d_size == sh.sh_size;
	}
	return 0;
}

int bp_raw__init(struct bp_raw *r, Dwarf *dwarf, const uint32_t *wanted, int nwanted,
		 uint8_t (*classify)(uint32_t tag), char *why, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->why = why;
	r->why_len = len;
	r->classify = classify;
	if (nwanted > BP_RAW_MAX_WANTED)
		return bp_raw__refuse(r, "too many attributes asked for");
	memcpy(r->wanted, wanted, nwanted * sizeof(*wanted));
	r->nwanted = nwanted;
	r->err = bp_raw__sections(dwarf, &r->sec, why, len);
	if (r->err)
		return r->err;
	if (!r->sec.info.p || !r->sec.abbrev.p)
		return bp_raw__refuse(r, "no .debug_info or .debug_abbrev");
	return 0;
}

/* below this, a copy saves too few page faults to be worth its read;
 * above, it would hold that much memory of its own for the scan (the
 * mapping's pages are the page cache's) */
#define COPY_MIN	(256u << 10)
#define COPY_MAX	((size_t)256 << 20)

static void read_section(struct bp_raw_section *sec, int fd)
{
	uint8_t *copy;
	size_t done = 0;

	if (!sec->in_file || sec->copied || sec->size < COPY_MIN || sec->size > COPY_MAX)
		return;
	copy = bp_bigmem__alloc(sec->size);
	if (!copy)
		return;
	while (done < sec->size) {
		ssize_t n = pread(fd, copy + done, sec->size - done, sec->file_off + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			bp_bigmem__free(copy, sec->size);
			return;
		}
		done += n;
	}
	sec->p = copy;
	sec->copied = sec->size;
}

void bp_raw__read_sections(struct bp_raw *r, int fd)
{
	read_section(&r->sec.info, fd);
	read_section(&r->sec.str, fd);
}

void bp_raw__free(struct bp_raw *r)
{
	struct bp_raw_section *copies[] = { &r->sec.info, &r->sec.str };

	for (size_t i = 0; i < sizeof(copies) / sizeof(copies[0]); i++) {
		if (copies[i]->copied)
			bp_bigmem__free((void *)copies[i]->p, copies[i]->copied);
		copies[i]->copied = 0;
	}
	free(r->v);
	free(r->attrs);
	free(r->by_code);
	r->v = NULL;
	r->attrs = NULL;
	r->by_code = NULL;
}

/* --- forms ------------------------------------------------------------------ */

bool bp_raw__local_ref(unsigned int form)
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

/* Bytes of a form with a fixed size in unit u; -1: variable. */
static int form_size(uint32_t form, const struct bp_raw_unit *u)
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

/* The variable-size forms the reader knows. */
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

static bool skip_form(const struct bp_raw_unit *u, uint32_t form, const uint8_t **pp);

/* Past one attribute of a form without a fixed size at *pp. */
static bool skip_variable(const struct bp_raw_unit *u, uint32_t form, const uint8_t **pp)
{
	const uint8_t *p = *pp, *end = u->end;
	uint64_t v;

	switch (form) {
	case DW_FORM_string: {
		const uint8_t *nul = memchr(p, 0, end - p);

		if (!nul)
			return false;
		*pp = nul + 1;
		return true;
	}
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
		if (!bp_raw__read_fixed(&p, end, form == DW_FORM_block1 ? 1 : form == DW_FORM_block2 ? 2 : 4,
				&v))
			return false;
		break;
	case DW_FORM_block:
	case DW_FORM_exprloc:
		if (!bp_raw__uleb(&p, end, &v))
			return false;
		break;
	case DW_FORM_indirect:
		if (!bp_raw__uleb(&p, end, &v) || v == DW_FORM_indirect ||
		    v == DW_FORM_implicit_const || (form_size(v, u) < 0 && !form_known(v)))
			return false;
		*pp = p;
		return skip_form(u, v, pp);
	default:	/* the LEB128 forms */
		if (!bp_raw__uleb(&p, end, &v))
			return false;
		*pp = p;
		return true;
	}
	if ((uint64_t)(end - p) < v)
		return false;
	*pp = p + v;
	return true;
}

/* Past one attribute of form at *pp (a variable-size one, usually). */
static bool skip_form(const struct bp_raw_unit *u, uint32_t form, const uint8_t **pp)
{
	int size = form_size(form, u);

	if (size < 0)
		return skip_variable(u, form, pp);
	if (u->end - *pp < size)
		return false;
	*pp += size;
	return true;
}

/* A constant, reference or string-offset form's value. */
static bool read_value(const struct bp_raw_unit *u, uint32_t form, const struct bp_raw_attr *at,
		       const uint8_t *p, uint64_t *v)
{
	int size;

	switch (form) {
	case DW_FORM_udata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_GNU_str_index:
		return bp_raw__uleb(&p, u->end, v);
	case DW_FORM_sdata:
		return bp_raw__sleb(&p, u->end, (int64_t *)v);
	case DW_FORM_implicit_const:
		*v = at ? (uint64_t)at->implicit : 0;
		return at != NULL;
	}
	size = form_size(form, u);
	if (size <= 0 || size > 8)
		return false;
	return bp_raw__read_fixed(&p, u->end, size, v);
}

/* --- abbreviations -------------------------------------------------------- */

static uint8_t want_of(const struct bp_raw *r, uint32_t name)
{
	for (int i = 0; i < r->nwanted; i++) {
		if (r->wanted[i] == name)
			return i + 1;
	}
	return 0;
}

static int index_codes(struct bp_raw *r)
{
	size_t i, need = 0;

	for (i = 0; i < r->n; i++) {
		if (r->v[i].code < 65536 && r->v[i].code >= need)
			need = r->v[i].code + 1;
	}
	if (need > r->ncodes) {
		struct bp_raw_abbrev **v = realloc(r->by_code, need * sizeof(*v));

		if (!v)
			return -ENOMEM;
		r->by_code = v;
		r->ncodes = need;
	}
	if (r->ncodes)
		memset(r->by_code, 0, r->ncodes * sizeof(*r->by_code));
	/* pointers only now: v may have moved while it grew */
	for (i = 0; i < r->n; i++) {
		if (r->v[i].code < r->ncodes)
			r->by_code[r->v[i].code] = &r->v[i];
	}
	return 0;
}

static int read_attr_specs(struct bp_raw *r, const struct bp_raw_unit *u, const uint8_t **pp,
			   const uint8_t *end, struct bp_raw_abbrev *a, bool *outside)
{
	for (;;) {
		struct bp_raw_attr at = {};
		uint64_t name, form;
		int size;

		if (!bp_raw__uleb(pp, end, &name) || !bp_raw__uleb(pp, end, &form))
			return bp_raw__refuse(r, "a truncated abbreviation table");
		if (!name && !form)
			return 0;
		if (form == DW_FORM_implicit_const && !bp_raw__sleb(pp, end, &at.implicit))
			return bp_raw__refuse(r, "a truncated abbreviation table");
		size = form_size(form, u);
		if (form > UINT16_MAX || (size < 0 && !form_known(form)))
			return bp_raw__refuse(r, "attribute form 0x%llx", (unsigned long long)form);
		at.name = name;
		at.form = form;
		at.size = form == DW_FORM_indirect ? -1 : size;
		at.want = want_of(r, name);
		if (name == DW_AT_declaration)
			a->has_decl = true;
		if (at.want)
			a->wanted = true;
		if (name == DW_AT_sibling && a->fixed >= 0 && at.size > 0) {
			a->sibling_at = a->fixed;
			a->sibling_form = form;
		}
		if (a->fixed >= 0)
			a->fixed = at.size < 0 ? -1 : a->fixed + at.size;
		if (a->tag == DW_TAG_inlined_subroutine && name == DW_AT_abstract_origin &&
		    !bp_raw__local_ref(form))
			*outside = true;
		if (bp_grow((void **)&r->attrs, r->nattrs, &r->cap_attrs, sizeof(at), 64))
			return -ENOMEM;
		r->attrs[r->nattrs++] = at;
		a->nattrs++;
	}
}

/* The runs of attributes of a fixed size, from the last attribute back. */
static void mark_runs(struct bp_raw_attr *at, uint32_t n)
{
	for (uint32_t i = n; i-- > 0;) {
		bool next = i + 1 < n && at[i + 1].size >= 0 && at[i + 1].run_attrs < UINT16_MAX;

		if (at[i].size < 0)
			continue;
		at[i].run_attrs = next ? at[i + 1].run_attrs + 1 : 1;
		at[i].run_bytes = at[i].size + (next ? at[i + 1].run_bytes : 0);
	}
}

/* The abbreviation table at off in .debug_abbrev, for unit u. */
/* A form whose value may refer outside its unit. */
static bool may_leave_unit(uint32_t form)
{
	switch (form) {
	case DW_FORM_ref_addr:
	case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup4:
	case DW_FORM_ref_sup8:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_indirect:
		return true;
	}
	return false;
}

static int read_abbrevs(struct bp_raw *r, uint64_t off, struct bp_raw_unit *u)
{
	const uint8_t *p, *end = r->sec.abbrev.p + r->sec.abbrev.size;
	int err;

	r->n = 0;
	r->nattrs = 0;
	if (off >= r->sec.abbrev.size)
		return bp_raw__refuse(r, "abbreviation offset 0x%llx out of .debug_abbrev",
				      (unsigned long long)off);
	p = r->sec.abbrev.p + off;
	for (;;) {
		struct bp_raw_abbrev a = { .sibling_at = -1 };
		uint64_t code, tag;

		if (!bp_raw__uleb(&p, end, &code))
			return bp_raw__refuse(r, "a truncated abbreviation table");
		if (!code)
			break;
		if (!bp_raw__uleb(&p, end, &tag) || p >= end)
			return bp_raw__refuse(r, "a truncated abbreviation table");
		a.code = code;
		a.tag = tag;
		a.class = r->classify ? r->classify(tag) : 0;
		a.children = *p++ != 0;
		a.first = r->nattrs;
		err = read_attr_specs(r, u, &p, end, &a, &u->inlines_from_outside);
		if (err)
			return err;
		for (uint32_t i = a.first; i < a.first + a.nattrs; i++)
			u->refs_outside |= may_leave_unit(r->attrs[i].form);
		if (a.nattrs)
			mark_runs(r->attrs + a.first, a.nattrs);
		if (bp_grow((void **)&r->v, r->n, &r->cap, sizeof(a), 64))
			return -ENOMEM;
		r->v[r->n++] = a;
	}
	return index_codes(r);
}

/* --- attributes ------------------------------------------------------------ */

/* ab's attributes (none: NULL, so that no offset is added to a NULL
 * array) */
static const struct bp_raw_attr *attrs_of(const struct bp_raw *r, const struct bp_raw_abbrev *ab)
{
	return ab->nattrs ? r->attrs + ab->first : NULL;
}

bool bp_raw__skip_attrs(const struct bp_raw *r, const struct bp_raw_unit *u,
			const struct bp_raw_abbrev *ab, const uint8_t **pp)
{
	const struct bp_raw_attr *at;
	const uint8_t *p = *pp;
	uint32_t i;

	if (ab->fixed >= 0) {
		if (u->end - p < ab->fixed)
			return false;
		*pp = p + ab->fixed;
		return true;
	}
	/* runs of fixed sizes are skipped without reading them: checking
	 * before each variable one and at the end keeps every read inside
	 * the unit */
	at = attrs_of(r, ab);
	for (i = 0; i < ab->nattrs;) {
		if (at->size >= 0) {
			if ((uint64_t)(u->end - p) < at->run_bytes)
				return false;
			p += at->run_bytes;
			i += at->run_attrs;
			at += at->run_attrs;
			continue;
		}
		if (p > u->end || !skip_variable(u, at->form, &p))
			return false;
		i++;
		at++;
	}
	if (p > u->end)
		return false;
	*pp = p;
	return true;
}

bool bp_raw__read_attrs(const struct bp_raw *r, const struct bp_raw_unit *u,
			const struct bp_raw_abbrev *ab, const uint8_t **pp,
			struct bp_raw_value *values)
{
	const struct bp_raw_attr *at = attrs_of(r, ab);
	const uint8_t *p = *pp;
	uint32_t i;

	memset(values, 0, r->nwanted * sizeof(*values));
	for (i = 0; i < ab->nattrs; i++, at++) {
		uint32_t form = at->form;

		if (!at->want && at->size >= 0) {
			p += at->size;
			continue;
		}
		if (p > u->end)
			return false;
		if (form == DW_FORM_indirect) {
			uint64_t f;

			if (!bp_raw__uleb(&p, u->end, &f) || f == DW_FORM_indirect ||
			    f == DW_FORM_implicit_const || f > UINT16_MAX)
				return false;
			form = f;
		}
		if (at->want)
			values[at->want - 1] = (struct bp_raw_value){ .at = p, .form = form,
								      .attr = at };
		if (at->size >= 0)
			p += at->size;
		else if (!skip_form(u, form, &p))
			return false;
	}
	if (p > u->end)
		return false;
	*pp = p;
	return true;
}

bool bp_raw__skip_children(const struct bp_raw *r, const struct bp_raw_unit *u,
			   const uint8_t **pp)
{
	const uint8_t *p = *pp;
	size_t depth = 1;

	while (depth) {
		const struct bp_raw_abbrev *ab;
		uint64_t code, sib;

		if (!bp_raw__uleb(&p, u->end, &code))
			return false;
		if (!code) {
			depth--;
			continue;
		}
		ab = bp_raw__abbrev(r, code);
		if (!ab)
			return false;
		sib = ab->children ? bp_raw__quick_sibling(u, ab, p) : 0;
		if (sib > (uint64_t)(p - r->sec.info.p) && sib <= (uint64_t)(u->end - r->sec.info.p)) {
			p = r->sec.info.p + sib;
			continue;
		}
		if (!bp_raw__skip_attrs(r, u, ab, &p))
			return false;
		if (ab->children)
			depth++;
	}
	*pp = p;
	return true;
}

const char *bp_raw__section_string(const struct bp_raw_section *sec, uint64_t off)
{
	if (!sec->p || off >= sec->size || !memchr(sec->p + off, 0, sec->size - off))
		return NULL;
	return (const char *)sec->p + off;
}

const char *bp_raw__string(const struct bp_raw *r, const struct bp_raw_unit *u,
			   const struct bp_raw_value *v)
{
	uint64_t val, off;

	if (!v->at)
		return NULL;
	switch (v->form) {
	case DW_FORM_string:
		return memchr(v->at, 0, u->end - v->at) ? (const char *)v->at : NULL;
	case DW_FORM_strp:
		return read_value(u, v->form, v->attr, v->at, &val) ?
		       bp_raw__section_string(&r->sec.str, val) : NULL;
	case DW_FORM_line_strp:
		return read_value(u, v->form, v->attr, v->at, &val) ?
		       bp_raw__section_string(&r->sec.line_str, val) : NULL;
	case DW_FORM_strx:
	case DW_FORM_GNU_str_index:
	case DW_FORM_strx1:
	case DW_FORM_strx2:
	case DW_FORM_strx3:
	case DW_FORM_strx4:
		if (!read_value(u, v->form, v->attr, v->at, &val) || u->str_offsets_base < 0 ||
		    !r->sec.str_offsets.p)
			return NULL;
		off = (uint64_t)u->str_offsets_base + val * u->offset_size;
		if (off >= r->sec.str_offsets.size ||
		    r->sec.str_offsets.size - off < (uint64_t)u->offset_size)
			return NULL;
		return bp_raw__section_string(&r->sec.str, fixed(r->sec.str_offsets.p + off, u->offset_size));
	}
	return NULL;
}

bool bp_raw__ref(const struct bp_raw_unit *u, const struct bp_raw_value *v, uint64_t *off)
{
	uint64_t val;

	if (!v->at || !read_value(u, v->form, v->attr, v->at, &val))
		return false;
	if (bp_raw__local_ref(v->form)) {
		*off = u->off + val;
		return true;
	}
	if (v->form == DW_FORM_ref_addr) {
		*off = val;
		return true;
	}
	return false;
}

/* --- units ------------------------------------------------------------------ */

/* The unit DIE's language and string offsets; split DWARF is refused. */
static int read_unit_die(struct bp_raw *r, struct bp_raw_unit *u,
			 const struct bp_raw_abbrev *ab, const uint8_t **pp)
{
	const struct bp_raw_attr *at = attrs_of(r, ab);
	const uint8_t *p = *pp;
	uint32_t i;
	uint64_t v;

	for (i = 0; i < ab->nattrs; i++, at++) {
		if (at->form == DW_FORM_indirect)
			return bp_raw__refuse(r, "an indirect form in a unit DIE");
		if (at->name == DW_AT_dwo_name || at->name == DW_AT_GNU_dwo_name)
			return bp_raw__refuse(r, "split DWARF");
		if (at->name == DW_AT_language || at->name == DW_AT_str_offsets_base) {
			if (!read_value(u, at->form, at, p, &v))
				return bp_raw__refuse(r, "a unit DIE's attribute in form 0x%x",
						      at->form);
			if (at->name == DW_AT_language)
				u->lang = v;
			else
				u->str_offsets_base = v;
		}
		if (!skip_form(u, at->form, &p))
			return bp_raw__refuse(r, "a unit DIE past its unit's end");
	}
	*pp = p;
	return 0;
}

/* The header; *abbrev_off its abbreviations. 1: a type unit. */
static int read_header(struct bp_raw *r, struct bp_raw_unit *u, uint64_t *next,
		       const uint8_t **pp, uint64_t *abbrev_off)
{
	const uint8_t *p = r->sec.info.p + u->off, *end = r->sec.info.p + r->sec.info.size;
	uint64_t len, v = 0;

	if (!bp_raw__read_fixed(&p, end, 4, &len))
		return bp_raw__refuse(r, "a truncated unit header");
	u->offset_size = 4;
	if (len == 0xffffffff) {
		if (!bp_raw__read_fixed(&p, end, 8, &len))
			return bp_raw__refuse(r, "a truncated unit header");
		u->offset_size = 8;
	} else if (len >= 0xfffffff0) {
		return bp_raw__refuse(r, "a unit length 0x%llx", (unsigned long long)len);
	}
	if ((uint64_t)(end - p) < len)
		return bp_raw__refuse(r, "a unit past .debug_info's end");
	u->end = p + len;
	*next = u->end - r->sec.info.p;
	if (!bp_raw__read_fixed(&p, u->end, 2, &v) || v < 2 || v > 5)
		return bp_raw__refuse(r, "DWARF version %llu", (unsigned long long)v);
	u->version = v;
	if (u->version < 5) {
		if (!bp_raw__read_fixed(&p, u->end, u->offset_size, abbrev_off) ||
		    !bp_raw__read_fixed(&p, u->end, 1, &v))
			return bp_raw__refuse(r, "a truncated unit header");
		u->addr_size = v;
	} else {
		uint64_t type;

		if (!bp_raw__read_fixed(&p, u->end, 1, &type) || !bp_raw__read_fixed(&p, u->end, 1, &v) ||
		    !bp_raw__read_fixed(&p, u->end, u->offset_size, abbrev_off))
			return bp_raw__refuse(r, "a truncated unit header");
		u->addr_size = v;
		if (type == DW_UT_type)
			return 1;	/* type units hold no code */
		if (type != DW_UT_compile && type != DW_UT_partial)
			return bp_raw__refuse(r, "unit type %d (split DWARF)", (int)type);
	}
	if (u->addr_size != 4 && u->addr_size != 8)
		return bp_raw__refuse(r, "address size %d", u->addr_size);
	*pp = p;
	return 0;
}

int bp_raw__unit(struct bp_raw *r, struct bp_raw_unit *u, uint64_t *next, const uint8_t **pp,
		 bool *children)
{
	const struct bp_raw_abbrev *ab;
	uint64_t abbrev_off = 0, code;
	const uint8_t *p = NULL;
	int err;

	u->lang = -1;
	u->str_offsets_base = -1;
	u->inlines_from_outside = false;
	u->refs_outside = false;
	err = read_header(r, u, next, &p, &abbrev_off);
	if (err)
		return err;
	err = read_abbrevs(r, abbrev_off, u);
	if (err)
		return err;
	u->die_off = p - r->sec.info.p;
	if (!bp_raw__uleb(&p, u->end, &code) || !code || !(ab = bp_raw__abbrev(r, code)))
		return bp_raw__refuse(r, "a unit without its DIE at 0x%llx",
				      (unsigned long long)u->off);
	/* libdw's dwarf_getfuncs reads compile units only */
	if (ab->tag != DW_TAG_compile_unit)
		return 1;
	err = read_unit_die(r, u, ab, &p);
	if (err)
		return err;
	*children = ab->children;
	*pp = p;
	return 0;
}
