/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Reading DWARF from its bytes (dwarf_raw.c), for a pass over a whole
 * .debug_info: unit headers, abbreviation tables and attribute forms,
 * decoded here without building a Dwarf_Die per DIE and looking each
 * attribute up, which is what makes such a pass slow through libdw. The
 * caller walks the DIEs; the reader says where the attributes it asked
 * for are and what they hold.
 *
 * What it does not read exactly as libdw would (split units, another
 * byte order, a relocatable file whose DWARF libdwfl relocates, a form it
 * does not know, bytes past a section's end) is refused: -EOPNOTSUPP,
 * with why in the reader.
 */
#ifndef BPFPROBE_DWARF_RAW_H
#define BPFPROBE_DWARF_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

struct bp_raw_section {
	const uint8_t *p;
	size_t size;
	uint64_t file_off;	/* where its bytes are in the file */
	bool in_file;		/* p is libdw's view of the file's bytes */
	size_t copied;		/* p is a copy of that many bytes (bigmem) */
};

/* An attribute of an abbreviation. */
struct bp_raw_attr {
	uint32_t name;
	uint16_t form;
	int8_t size;		/* fixed size in its unit, -1: variable */
	uint8_t want;		/* 0, or 1 + its index in the names asked for */
	/* a fixed size: how many attributes from this one on have one in a
	 * row, and their bytes (skipped at once) */
	uint16_t run_attrs;
	uint32_t run_bytes;
	int64_t implicit;	/* DW_FORM_implicit_const's value */
};

struct bp_raw_abbrev {
	uint64_t code;
	uint32_t tag;
	uint8_t class;		/* the caller's, from its classify callback */
	bool children;
	bool has_decl;		/* DW_AT_declaration, of any value (dwarf_hasattr) */
	bool wanted;		/* an attribute asked for is there */
	int32_t sibling_at;	/* DW_AT_sibling's byte in the DIE, when every
				 * attribute before it has a fixed size; -1 */
	uint16_t sibling_form;
	int32_t fixed;		/* bytes of all attributes when every form has a
				 * fixed size, else -1 */
	uint32_t first;		/* its attributes: attrs[first, first + nattrs) */
	uint32_t nattrs;
};

/* One unit being read. */
struct bp_raw_unit {
	uint64_t off;		/* of its header */
	uint64_t die_off;	/* of its DIE */
	const uint8_t *end;
	int version;
	int offset_size;
	int addr_size;
	int64_t lang;		/* DW_AT_language; -1: none */
	int64_t str_offsets_base;	/* -1: none */
	/* an abbreviation of DW_TAG_inlined_subroutine may refer to its
	 * abstract origin outside the unit (DW_FORM_ref_addr, DWZ's forms):
	 * as inline.c reads the abbreviation table */
	bool inlines_from_outside;
	/* an abbreviation of any tag has a reference that may leave the
	 * unit: DW_FORM_ref_addr, a type signature, another file's
	 * (DW_FORM_GNU_ref_alt, DW_FORM_ref_sup*), or DW_FORM_indirect */
	bool refs_outside;
};

/* Where an attribute asked for is in a DIE, and its form. */
struct bp_raw_value {
	const uint8_t *at;	/* NULL: the DIE has none */
	uint16_t form;
	const struct bp_raw_attr *attr;
};

#define BP_RAW_MAX_WANTED	8

/* The sections the readers take (p NULL: the file has none). */
struct bp_raw_sections {
	struct bp_raw_section info, abbrev, str, line_str, str_offsets, line;
};

struct bp_raw {
	struct bp_raw_sections sec;
	/* the attributes whose values the caller reads */
	uint32_t wanted[BP_RAW_MAX_WANTED];
	int nwanted;
	uint8_t (*classify)(uint32_t tag);
	/* the current unit's abbreviations */
	struct bp_raw_abbrev *v;
	size_t n, cap;
	struct bp_raw_attr *attrs;
	size_t nattrs, cap_attrs;
	struct bp_raw_abbrev **by_code;	/* when codes are small, as usual */
	size_t ncodes;
	char *why;
	size_t why_len;
	int err;		/* the first refusal (-EOPNOTSUPP) or -ENOMEM */
};

/*
 * Finds dwarf's sections (libdw has inflated the compressed ones) and
 * notes the attribute names (at most BP_RAW_MAX_WANTED) whose values the
 * caller reads and how it classifies tags (stored in each abbreviation).
 * Returns 0 or -EOPNOTSUPP with why.
 */
int bp_raw__init(struct bp_raw *r, Dwarf *dwarf, const uint32_t *wanted, int nwanted,
		 uint8_t (*classify)(uint32_t tag), char *why, size_t len);
void bp_raw__free(struct bp_raw *r);

/*
 * dwarf's sections as libdw has them (compressed .zdebug_ ones inflated),
 * little-endian and of a file libdwfl does not relocate. 0, or
 * -EOPNOTSUPP with why (may be NULL).
 */
int bp_raw__sections(Dwarf *dwarf, struct bp_raw_sections *s, char *why, size_t len);

/* The NUL-terminated string at off in sec, or NULL (none there, or it
 * runs past the section's end). */
const char *bp_raw__section_string(const struct bp_raw_section *sec, uint64_t off);

/*
 * Reads .debug_info and .debug_str, when they are large (256 KiB to 256
 * MiB), from fd (the file
 * dwarf was read from, opened again by the caller, who made sure it is the
 * same) into memory of their own, and reads them there: a pass over a
 * mapping takes a page fault per 64 KiB or so, which on some machines
 * costs several times what reading the bytes costs (util/bigmem.h). What
 * cannot be read stays libdw's mapping.
 */
void bp_raw__read_sections(struct bp_raw *r, int fd);

/* Records a refusal (the first one is kept); returns r->err. */
int bp_raw__refuse(struct bp_raw *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The unit whose header is at u->off: reads its header, its abbreviations
 * and its DIE's language and string offsets. Returns 1 when the unit holds
 * no code to walk (a type unit, a unit that is no compile unit: a partial
 * unit is reached through an imported unit), 0 with *p at the first child
 * of its DIE (*children false: it has none), or a negative errno. *next is
 * where the next unit's header is.
 */
int bp_raw__unit(struct bp_raw *r, struct bp_raw_unit *u, uint64_t *next, const uint8_t **p,
		 bool *children);

/* Past the attributes of a DIE of abbreviation ab at *p. False when they
 * run past the unit. */
bool bp_raw__skip_attrs(const struct bp_raw *r, const struct bp_raw_unit *u,
			const struct bp_raw_abbrev *ab, const uint8_t **p);

/* The same, noting in values (nwanted of them) where the attributes
 * asked for are. */
bool bp_raw__read_attrs(const struct bp_raw *r, const struct bp_raw_unit *u,
			const struct bp_raw_abbrev *ab, const uint8_t **p,
			struct bp_raw_value *values);

/* Past the children of a DIE whose attributes have been read. */
bool bp_raw__skip_children(const struct bp_raw *r, const struct bp_raw_unit *u,
			   const uint8_t **p);

/* A string attribute's value, or NULL (another form, a string in another
 * file, out of bounds). */
const char *bp_raw__string(const struct bp_raw *r, const struct bp_raw_unit *u,
			   const struct bp_raw_value *v);

/* A reference's target as a .debug_info offset: true, or false for a
 * reference the reader cannot follow (another file, a type signature). */
bool bp_raw__ref(const struct bp_raw_unit *u, const struct bp_raw_value *v, uint64_t *off);

/* A reference form that stays inside its unit (ref1..8, ref_udata). */
bool bp_raw__local_ref(unsigned int form);

/* A signed LEB128; n bytes (1..8) little-endian. False past end. */
bool bp_raw__sleb(const uint8_t **pp, const uint8_t *end, int64_t *v);
bool bp_raw__read_fixed(const uint8_t **pp, const uint8_t *end, int n, uint64_t *v);

/* LEB128, as DIEs start with their abbreviation code. */
static inline bool bp_raw__uleb(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t r = 0;
	int shift = 0;

	/* one byte, most of the time */
	if (p < end && !(*p & 0x80)) {
		*v = *p;
		*pp = p + 1;
		return true;
	}
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

static inline const struct bp_raw_abbrev *bp_raw__abbrev(const struct bp_raw *r, uint64_t code)
{
	if (code < r->ncodes)
		return r->by_code[code];
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].code == code)
			return &r->v[i];
	}
	return NULL;
}

/* Where the DIE whose attributes start at p says its sibling is, when
 * its abbreviation puts DW_AT_sibling at a fixed place in a fixed form;
 * else 0. */
static inline uint64_t bp_raw__quick_sibling(const struct bp_raw_unit *u,
					     const struct bp_raw_abbrev *ab, const uint8_t *p)
{
	int size;
	uint64_t v = 0;

	switch (ab->sibling_form) {
	case DW_FORM_ref1:
		size = 1;
		break;
	case DW_FORM_ref2:
		size = 2;
		break;
	case DW_FORM_ref4:
		size = 4;
		break;
	case DW_FORM_ref8:
		size = 8;
		break;
	default:
		return 0;
	}
	if (ab->sibling_at < 0 || u->end - p < ab->sibling_at + size)
		return 0;
	p += ab->sibling_at;
	for (int i = size - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return u->off + v;
}

#endif /* BPFPROBE_DWARF_RAW_H */
