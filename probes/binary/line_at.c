// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One address's row of a unit's line program (line_at.h), DWARF 2 to 5.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/binary/dwarf_raw.h"
#include "probes/binary/line_at.h"

/* directories and files told apart, at most (more: libdw's) */
#define MAX_DIRS	1024
#define MAX_FILES	4096

struct header {
	const uint8_t *end;		/* of the unit's program */
	int offset_size, addr_size, version;
	uint8_t min_insn, max_ops, default_is_stmt, line_range, opcode_base;
	int8_t line_base;
	const uint8_t *opcode_lengths;	/* [opcode_base - 1] */
	const char *dirs[MAX_DIRS];
	size_t ndirs;
	/* names as read, and their directories; [0] is libdw's "???" before
	 * DWARF 5, the first entry from DWARF 5 on */
	const char *files[MAX_FILES];
	uint64_t file_dir[MAX_FILES];
	size_t nfiles;
};

/* A row, and where it stands in libdw's order of rows. */
struct row {
	bool set;
	uint64_t addr;
	bool end_sequence;
	uint64_t seq;
	uint64_t file;
	int line;
};

/* An entry's value of form at *pp: a string (*str) or a number (*num);
 * false for a form this reader leaves to libdw or bytes past end. */
static bool read_form(const struct bp_raw_sections *secs, const struct header *h, uint64_t form,
		      const uint8_t **pp, const char **str, uint64_t *num)
{
	const uint8_t *p = *pp, *nul;
	uint64_t v, len;

	*str = NULL;
	switch (form) {
	case DW_FORM_string:
		if (!(nul = memchr(p, 0, h->end - p)))
			return false;
		*str = (const char *)p;
		*pp = nul + 1;
		return true;
	case DW_FORM_line_strp:
	case DW_FORM_strp:
		if (!bp_raw__read_fixed(pp, h->end, h->offset_size, &v))
			return false;
		*str = bp_raw__section_string(form == DW_FORM_strp ? &secs->str : &secs->line_str, v);
		return *str != NULL;
	case DW_FORM_udata:
		return bp_raw__uleb(pp, h->end, num);
	case DW_FORM_data1:
		return bp_raw__read_fixed(pp, h->end, 1, num);
	case DW_FORM_data2:
		return bp_raw__read_fixed(pp, h->end, 2, num);
	case DW_FORM_data4:
		return bp_raw__read_fixed(pp, h->end, 4, num);
	case DW_FORM_data8:
		return bp_raw__read_fixed(pp, h->end, 8, num);
	case DW_FORM_data16:
		if (h->end - p < 16)
			return false;
		*pp = p + 16;
		return true;
	case DW_FORM_block:
		if (!bp_raw__uleb(&p, h->end, &len) || len > (uint64_t)(h->end - p))
			return false;
		*pp = p + len;
		return true;
	}
	return false;
}

/* A DWARF 5 list of entries (directories or files) with their formats. */
static int read_entries(const struct bp_raw_sections *secs, struct header *h, const uint8_t **pp,
			bool files)
{
	uint64_t kinds[256], forms[256], count, i;
	const uint8_t *p = *pp;
	unsigned int nformats, k;
	bool has_path = false, has_dir = false;

	if (p >= h->end)
		return -EOPNOTSUPP;
	nformats = *p++;
	for (k = 0; k < nformats; k++) {
		if (!bp_raw__uleb(&p, h->end, &kinds[k]) || !bp_raw__uleb(&p, h->end, &forms[k]))
			return -EOPNOTSUPP;
		has_path |= kinds[k] == DW_LNCT_path;
		has_dir |= kinds[k] == DW_LNCT_directory_index;
	}
	if (!bp_raw__uleb(&p, h->end, &count) || (nformats && !has_path) ||
	    (files && nformats && !has_dir) || (!nformats && count) ||
	    count > (files ? MAX_FILES : MAX_DIRS))
		return -EOPNOTSUPP;
	for (i = 0; i < count; i++) {
		const char *path = NULL;
		uint64_t dir = UINT64_MAX;

		for (k = 0; k < nformats; k++) {
			const char *str;
			uint64_t num = 0;

			if (!read_form(secs, h, forms[k], &p, &str, &num))
				return -EOPNOTSUPP;
			if (kinds[k] == DW_LNCT_path) {
				if (!str)
					return -EOPNOTSUPP;
				path = str;
			} else if (kinds[k] == DW_LNCT_directory_index) {
				if (str)
					return -EOPNOTSUPP;
				dir = num;
			}
		}
		if (!files) {
			h->dirs[h->ndirs++] = path;
			continue;
		}
		if (dir >= h->ndirs)
			return -EOPNOTSUPP;
		h->files[h->nfiles] = path;
		h->file_dir[h->nfiles++] = dir;
	}
	*pp = p;
	return 0;
}

/* DWARF 2-4: NUL-terminated directories, then files. */
static int read_lists(struct header *h, const uint8_t **pp)
{
	const uint8_t *p = *pp, *nul;
	uint64_t dir, skip;

	while (p < h->end && *p) {
		if (h->ndirs == MAX_DIRS || !(nul = memchr(p, 0, h->end - p)))
			return -EOPNOTSUPP;
		h->dirs[h->ndirs++] = (const char *)p;
		p = nul + 1;
	}
	if (p++ >= h->end)
		return -EOPNOTSUPP;
	while (p < h->end && *p) {
		if (h->nfiles == MAX_FILES || !(nul = memchr(p, 0, h->end - p)))
			return -EOPNOTSUPP;
		h->files[h->nfiles] = (const char *)p;
		p = nul + 1;
		if (!bp_raw__uleb(&p, h->end, &dir) || dir >= h->ndirs ||
		    !bp_raw__uleb(&p, h->end, &skip) || !bp_raw__uleb(&p, h->end, &skip))
			return -EOPNOTSUPP;
		h->file_dir[h->nfiles++] = dir;
	}
	if (p++ >= h->end)
		return -EOPNOTSUPP;
	*pp = p;
	return 0;
}

static int read_header(const struct bp_raw_sections *secs, uint64_t off, const char *comp_dir,
		       int addr_size, struct header *h, const uint8_t **prog)
{
	const uint8_t *p, *end = secs->line.p + secs->line.size, *hdr_end;
	uint64_t len, v;
	int err;

	if (off >= secs->line.size)
		return -EOPNOTSUPP;
	p = secs->line.p + off;
	if (!bp_raw__read_fixed(&p, end, 4, &len))
		return -EOPNOTSUPP;
	h->offset_size = 4;
	if (len == 0xffffffff) {
		if (!bp_raw__read_fixed(&p, end, 8, &len))
			return -EOPNOTSUPP;
		h->offset_size = 8;
	} else if (len >= 0xfffffff0) {
		return -EOPNOTSUPP;
	}
	if (len > (uint64_t)(end - p))
		return -EOPNOTSUPP;
	h->end = p + len;
	if (!bp_raw__read_fixed(&p, h->end, 2, &v) || v < 2 || v > 5)
		return -EOPNOTSUPP;
	h->version = v;
	h->addr_size = addr_size;
	if (h->version >= 5) {
		if (h->end - p < 2 || p[0] != addr_size || p[1] != 0)
			return -EOPNOTSUPP;
		p += 2;
	}
	if (!bp_raw__read_fixed(&p, h->end, h->offset_size, &len) || len > (uint64_t)(h->end - p))
		return -EOPNOTSUPP;
	hdr_end = p + len;
	if (hdr_end - p < (h->version >= 4 ? 6 : 5))
		return -EOPNOTSUPP;
	h->min_insn = *p++;
	h->max_ops = h->version >= 4 ? *p++ : 1;
	h->default_is_stmt = *p++;
	h->line_base = (int8_t)*p++;
	h->line_range = *p++;
	h->opcode_base = *p++;
	/* VLIW (op_index) is left to libdw */
	if (h->max_ops != 1 || !h->line_range || !h->opcode_base ||
	    hdr_end - p < h->opcode_base - 1)
		return -EOPNOTSUPP;
	h->opcode_lengths = p;
	p += h->opcode_base - 1;
	if (h->version < 5) {
		h->dirs[h->ndirs++] = comp_dir;	/* NULL: none, names stay relative */
		h->files[h->nfiles++] = "???";
		h->file_dir[0] = UINT64_MAX;
		err = read_lists(h, &p);
	} else {
		err = read_entries(secs, h, &p, false);
		if (!err)
			err = read_entries(secs, h, &p, true);
		/* libdw's "???" stays file 0 when there is no entry */
		if (!err && !h->nfiles) {
			h->files[h->nfiles] = "???";
			h->file_dir[h->nfiles++] = UINT64_MAX;
		}
	}
	if (err)
		return err;
	/* (libdw reads a CUBIN's 4 more bytes; anything else is invalid) */
	if (p != hdr_end)
		return -EOPNOTSUPP;
	*prog = p;
	return 0;
}

/* Row r comes after best in libdw's order: by address, an end of a
 * sequence before other rows at its address, then in program order. */
static bool after(const struct row *r, const struct row *best)
{
	if (!best->set || r->addr != best->addr)
		return !best->set || r->addr > best->addr;
	return r->end_sequence <= best->end_sequence;
}

/*
 * Runs the program, keeping the last row at or before addr (*best) and the
 * last row of all (*last: libdw marks it an end of sequence).
 */
static int run(const struct header *h, const uint8_t *p, uint64_t addr, struct row *best,
	       struct row *last)
{
	uint64_t a = 0, file = 1, column = 0, isa = 0, disc = 0, seq = 0, u;
	int64_t line = 1, s;

#define EMIT(end_seq)								\
	do {									\
		struct row r = { .set = true, .addr = a, .end_sequence = (end_seq), \
				 .seq = seq++, .file = file, .line = (int)line };	\
										\
		/* what libdw's rows cannot hold makes its table invalid */	\
		if (line != (int)line || file > UINT32_MAX || column > 0xffff ||	\
		    isa > 0xff || disc > 0xffffff)				\
			return -EOPNOTSUPP;					\
		if (r.addr <= addr && after(&r, best))				\
			*best = r;						\
		if (after(&r, last))						\
			*last = r;						\
	} while (0)

	while (p < h->end) {
		uint8_t op = *p++;

		if (op >= h->opcode_base) {
			uint8_t adj = op - h->opcode_base;

			line += h->line_base + adj % h->line_range;
			if (line != (int)line)
				return -EOPNOTSUPP;
			a += (uint64_t)h->min_insn * (adj / h->line_range);
			EMIT(false);
			disc = 0;
		} else if (op == 0) {
			const uint8_t *next;
			uint8_t len;

			/* libdw reads the length as one byte and each operation's
			 * operands, not the length, so a table on which the two
			 * ways differ, or another operation, is libdw's */
			if (h->end - p < 2 || (*p & 0x80) || !*p || *p > h->end - p - 1)
				return -EOPNOTSUPP;
			len = *p++;
			next = p + len;
			switch (*p++) {
			case DW_LNE_end_sequence:
				EMIT(true);
				a = 0, file = 1, line = 1, column = 0, isa = 0, disc = 0;
				break;
			case DW_LNE_set_address:
				if (!bp_raw__read_fixed(&p, next, h->addr_size, &a))
					return -EOPNOTSUPP;
				break;
			case DW_LNE_set_discriminator:
				if (!bp_raw__uleb(&p, next, &disc))
					return -EOPNOTSUPP;
				break;
			default:
				return -EOPNOTSUPP;
			}
			if (p != next)
				return -EOPNOTSUPP;
		} else {
			/* a standard opcode whose operand count is not the one
			 * libdw knows is an invalid table there */
			static const uint8_t nargs[] = { 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };

			if (op <= DW_LNS_set_isa && h->opcode_lengths[op - 1] != nargs[op])
				return -EOPNOTSUPP;
			switch (op) {
			case DW_LNS_copy:
				EMIT(false);
				disc = 0;
				break;
			case DW_LNS_advance_pc:
				if (!bp_raw__uleb(&p, h->end, &u))
					return -EOPNOTSUPP;
				a += h->min_insn * u;
				break;
			case DW_LNS_advance_line:
				/* (a line past an int is libdw's to read its way) */
				if (!bp_raw__sleb(&p, h->end, &s) || s > INT32_MAX || s < INT32_MIN ||
				    line + s != (int)(line + s))
					return -EOPNOTSUPP;
				line += s;
				break;
			case DW_LNS_set_file:
				if (!bp_raw__uleb(&p, h->end, &file))
					return -EOPNOTSUPP;
				break;
			case DW_LNS_set_column:
				if (!bp_raw__uleb(&p, h->end, &column))
					return -EOPNOTSUPP;
				break;
			case DW_LNS_const_add_pc:
				a += (uint64_t)h->min_insn * ((255 - h->opcode_base) / h->line_range);
				break;
			case DW_LNS_fixed_advance_pc:
				if (!bp_raw__read_fixed(&p, h->end, 2, &u))
					return -EOPNOTSUPP;
				a += u;
				break;
			case DW_LNS_set_isa:
				if (!bp_raw__uleb(&p, h->end, &isa))
					return -EOPNOTSUPP;
				break;
			case DW_LNS_negate_stmt:
			case DW_LNS_set_basic_block:
			case DW_LNS_set_prologue_end:
			case DW_LNS_set_epilogue_begin:
				break;
			default:
				for (int n = h->opcode_lengths[op - 1]; n > 0; n--)
					if (!bp_raw__uleb(&p, h->end, &u))
						return -EOPNOTSUPP;
				break;
			}
		}
	}
#undef EMIT
	return 0;
}

/* dwarf_linesrc's name of file i: DIR/NAME, or NAME when absolute or
 * (before DWARF 5) when the directory is the missing DW_AT_comp_dir. */
static int file_name(const struct header *h, uint64_t i, char **out)
{
	const char *name, *dir;
	uint64_t d;

	*out = NULL;
	if (i >= h->nfiles)
		return 0;	/* dwarf_linesrc: none */
	name = h->files[i];
	d = h->file_dir[i];
	dir = d < h->ndirs ? h->dirs[d] : NULL;
	if (name[0] == '/' || !dir)
		*out = strdup(name);
	else if (asprintf(out, "%s/%s", dir, name) < 0)
		*out = NULL;
	return *out ? 0 : -ENOMEM;
}

int bp_line_at(Dwarf_Die *cudie, uint64_t addr, char **file, int *line)
{
	struct row best = {}, last = {};
	struct bp_raw_sections secs;
	Dwarf_Attribute attr;
	const uint8_t *prog;
	Dwarf_Word off;
	uint8_t unit_type, addr_size;
	struct header *h;
	int err;

	*file = NULL;
	if (dwarf_cu_info(cudie->cu, NULL, &unit_type, NULL, NULL, NULL, &addr_size, NULL) ||
	    unit_type != DW_UT_compile)
		return -EOPNOTSUPP;	/* split units and such: libdw's */
	if (!dwarf_attr(cudie, DW_AT_stmt_list, &attr) || dwarf_formudata(&attr, &off))
		return -ENOENT;
	if (bp_raw__sections(dwarf_cu_getdwarf(cudie->cu), &secs, NULL, 0))
		return -EOPNOTSUPP;
	if (!secs.line.p)
		return -ENOENT;
	/* the tables are read only below ndirs and nfiles: not zeroed (the
	 * header is tens of KiB, mostly tables no unit fills) */
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	memset(h, 0, offsetof(struct header, dirs));
	h->ndirs = h->nfiles = 0;
	err = read_header(&secs, off,
			  dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &attr)),
			  addr_size, h, &prog);
	if (!err)
		err = run(h, prog, addr, &best, &last);
	if (!err && (!best.set || best.end_sequence || best.seq == last.seq))
		err = -ENOENT;
	if (!err) {
		*line = best.line;
		err = file_name(h, best.file, file);
	}
	free(h);
	return err;
}
