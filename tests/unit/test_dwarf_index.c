// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The DWARF function index (probes/binary/index.h):
 *  - what the byte-level scan lists is exactly what libdw's walks find
 *    (dwarf_getfuncs over every compile unit, inlined copies in those
 *    functions' bodies through blocks and inlined calls, the named type
 *    definitions of the units' outer scopes bp_type_defs_walk finds), on
 *    every test target and on Debian's -dbg binaries when installed;
 *  - resolving every function by name gives the same points with and
 *    without the index;
 *  - a damaged index (truncated, bytes flipped, counts that lie) is
 *    refused, or stays in bounds;
 *  - the source position line_at.c reads of an address is libdw's
 *    (dwarf_getsrc_die, dwarf_linesrc) wherever it gives one.
 * Binaries the scan does not read (DWZ's imported units) are said and
 * skipped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <bpfprobe/bpfprobe.h>

#include "probes/diag.h"
#include "probes/binary/debuginfo.h"
#include "probes/binary/index.h"
#include "probes/binary/line_at.h"
#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/types.h"
#include "probes/resolve.h"
#include "probes/spec.h"
#include "tests/unit/test.h"

/* the binaries of this run: the targets, then the -dbg ones */
static char *bins[256];
static int nbins;

static void add_bin(const char *path)
{
	if (nbins < (int)(sizeof(bins) / sizeof(bins[0])))
		bins[nbins++] = strdup(path);
}

static bool is_elf_exec(const char *path)
{
	unsigned char m[4] = {};
	FILE *f = fopen(path, "rb");
	bool ok;

	if (!f)
		return false;
	ok = fread(m, 1, 4, f) == 4 && !memcmp(m, "\177ELF", 4);
	fclose(f);
	return ok && strstr(path, ".o") != path + strlen(path) - 2;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_bins(void)
{
	static const char *const system[] = {
		"/usr/lib/x86_64-linux-gnu/libdb-5.3.so",
		"/usr/lib/x86_64-linux-gnu/liblua5.4.so.0",
		"/lib/x86_64-linux-gnu/libc.so.6",
		"/usr/lib/x86_64-linux-gnu/debug/libstdc++.so.6",
		"/usr/bin/python3.11",
	};
	DIR *d = opendir("build/targets");
	struct dirent *de;
	char path[512];
	int first = nbins;

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "build/targets/%s", de->d_name);
		if (is_elf_exec(path))
			add_bin(path);
	}
	if (d)
		closedir(d);
	qsort(bins + first, nbins - first, sizeof(*bins), by_str);
	for (size_t i = 0; i < sizeof(system) / sizeof(system[0]); i++) {
		if (!access(system[i], R_OK))
			add_bin(system[i]);
	}
}

/* --- what libdw's walks find ------------------------------------------------ */

struct entry {
	char *name;
	uint64_t die, frame;
};

struct entries {
	struct entry *v;
	size_t n, cap;
};

static void entries_add(struct entries *e, const char *name, uint64_t die, uint64_t frame)
{
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 256;
		e->v = realloc(e->v, e->cap * sizeof(*e->v));
	}
	e->v[e->n++] = (struct entry){ strdup(name), die, frame };
}

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r)
		return r;
	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return x->die < y->die ? -1 : x->die > y->die;
}

/* (qsort must not be given NULL, even for none) */
static void entries_sort(struct entries *e)
{
	if (e->n)
		qsort(e->v, e->n, sizeof(*e->v), entry_cmp);
}

static void entries_free(struct entries *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i].name);
	free(e->v);
	memset(e, 0, sizeof(*e));
}

struct walk {
	struct entries funcs, inlines, types;
};

static int type_cb(const char *name, uint64_t off, void *ctx)
{
	entries_add(ctx, name, off, 0);
	return 0;
}

/* inline.c's walk of one function's body (blocks, inlined calls). */
static void walk_body(struct walk *w, Dwarf_Die *parent, uint64_t frame, int depth)
{
	Dwarf_Die child;
	const char *name;
	int tag;

	if (depth > 64 || dwarf_child(parent, &child))
		return;
	do {
		tag = dwarf_tag(&child);
		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block)
			continue;
		if (tag == DW_TAG_inlined_subroutine && (name = bp_die_name(&child)))
			entries_add(&w->inlines, name, dwarf_dieoffset(&child), frame);
		walk_body(w, &child, frame, depth + 1);
	} while (!dwarf_siblingof(&child, &child));
}

static int func_cb(Dwarf_Die *die, void *arg)
{
	struct walk *w = arg;
	const char *name = bp_die_name(die);

	if (name)
		entries_add(&w->funcs, name, dwarf_dieoffset(die), 0);
	walk_body(w, die, dwarf_dieoffset(die), 0);
	return DWARF_CB_OK;
}

static void walk_all(Dwarf *dwarf, struct walk *w)
{
	Dwarf_Die cudie, subdie;
	Dwarf_CU *cu = NULL;
	uint8_t unit_type;

	while (!dwarf_get_units(dwarf, cu, &cu, NULL, &unit_type, &cudie, &subdie)) {
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		dwarf_getfuncs(&cudie, func_cb, w, 0);
	}
}

/* The index's entries, sorted as the walk's are. */
static void index_entries(const struct bp_dwarf_index *idx, struct walk *w)
{
	for (uint32_t i = 0; i < idx->hdr->nnames; i++) {
		const struct bp_index_name *n = &idx->names[i];
		const char *name = idx->strings + n->str;

		for (uint32_t k = 0; k < n->nfuncs; k++)
			entries_add(&w->funcs, name, idx->funcs[n->func_first + k], 0);
		for (uint32_t k = 0; k < n->ninlines; k++) {
			const struct bp_index_inline *c = &idx->inlines[n->inline_first + k];

			entries_add(&w->inlines, name, c->die, c->frame);
		}
		for (uint32_t k = 0; k < n->ntypes; k++)
			entries_add(&w->types, name, idx->types[n->type_first + k], 0);
	}
}

/* The first difference of two sorted lists, or NULL. */
static const char *differ(const struct entries *want, const struct entries *got, char *buf,
			  size_t len)
{
	size_t i;

	for (i = 0; i < want->n && i < got->n; i++) {
		if (entry_cmp(&want->v[i], &got->v[i])) {
			snprintf(buf, len, "#%zu: walk %s@0x%" PRIx64 " (frame 0x%" PRIx64
				 "), index %s@0x%" PRIx64 " (frame 0x%" PRIx64 ")", i,
				 want->v[i].name, want->v[i].die, want->v[i].frame, got->v[i].name,
				 got->v[i].die, got->v[i].frame);
			return buf;
		}
	}
	if (want->n != got->n) {
		snprintf(buf, len, "walk %zu entries, index %zu", want->n, got->n);
		return buf;
	}
	return NULL;
}

/* Whether an abbreviation of unit has an attribute for which has(tag,
 * name, form) holds; true also when the table cannot be read. (libdw
 * 0.188 counts one attribute too many of some: the failing last one is
 * skipped.) */
static bool any_abbrev_attr(Dwarf_Die *unit, bool (*has)(unsigned int tag, unsigned int name,
							   unsigned int form))
{
	Dwarf_Abbrev *abbrev;
	Dwarf_Off off = 0;
	size_t len, cnt;
	unsigned int name, form;

	while ((abbrev = dwarf_getabbrev(unit, off, &len)) != DWARF_END_ABBREV) {
		if (!abbrev || !len)
			return true;
		off += len;
		if (dwarf_getattrcnt(abbrev, &cnt))
			continue;
		for (size_t i = 0; i < cnt; i++) {
			if (!dwarf_getabbrevattr(abbrev, i, &name, &form, NULL) &&
			    has(dwarf_getabbrevtag(abbrev), name, form))
				return true;
		}
	}
	return false;
}

/* An inlined call whose origin may be in another unit */
static bool origin_outside(unsigned int tag, unsigned int name, unsigned int form)
{
	return tag == DW_TAG_inlined_subroutine && name == DW_AT_abstract_origin &&
	       form != DW_FORM_ref1 && form != DW_FORM_ref2 && form != DW_FORM_ref4 &&
	       form != DW_FORM_ref8 && form != DW_FORM_ref_udata;
}

/* A form that may refer outside its unit */
static bool ref_outside(unsigned int tag, unsigned int name, unsigned int form)
{
	return form == DW_FORM_ref_addr || form == DW_FORM_ref_sig8 ||
	       form == DW_FORM_GNU_ref_alt || form == DW_FORM_ref_sup4 ||
	       form == DW_FORM_ref_sup8 || form == DW_FORM_indirect;
}

/* The unit DIEs inline.c walks because their inlined calls may name
 * another unit's functions. */
static bool unit_from_outside(Dwarf_Die *unit)
{
	return any_abbrev_attr(unit, origin_outside);
}

/* The index's unit headers are libdw's, each DIE it lists is in the unit
 * it says, and it is self-contained exactly when libdw's units are. */
static void check_units(const char *bin, Dwarf *dwarf, struct bp_dwarf_index *idx,
			const struct entries *funcs)
{
	Dwarf_Off off = 0, next, die_off;
	bool self_contained = true;
	const uint64_t *cus;
	uint64_t unit;
	uint32_t n = 0;
	size_t hsize;
	uint8_t unit_type;
	Dwarf_Half version;

	CHECK(!bp_index__cus(idx, &cus), "%s: the unit headers cannot be read", bin);
	while (!dwarf_next_unit(dwarf, off, &next, &hsize, &version, NULL, NULL, NULL, NULL,
				NULL)) {
		Dwarf_Die cudie;

		CHECK(n < idx->hdr->ncus && cus[n] == off, "%s: unit %u at 0x%" PRIx64 ", index says 0x%" PRIx64,
		      bin, n, (uint64_t)off, n < idx->hdr->ncus ? cus[n] : 0);
		n++;
		if (!dwarf_offdie(dwarf, off + hsize, &cudie) ||
		    dwarf_cu_info(cudie.cu, NULL, &unit_type, NULL, NULL, NULL, NULL, NULL) ||
		    unit_type != DW_UT_compile || dwarf_tag(&cudie) != DW_TAG_compile_unit ||
		    any_abbrev_attr(&cudie, ref_outside))
			self_contained = false;
		off = next;
	}
	CHECK(n == idx->hdr->ncus, "%s: %u units, the index has %u", bin, n, idx->hdr->ncus);
	CHECK(idx->hdr->self_contained == self_contained, "%s: self-contained %u, libdw's units %d",
	      bin, idx->hdr->self_contained, self_contained);
	for (size_t i = 0; i < funcs->n; i++) {
		Dwarf_Die die, cudie;

		die_off = funcs->v[i].die;
		if (!dwarf_offdie(dwarf, die_off, &die) || !dwarf_diecu(&die, &cudie, NULL, NULL))
			continue;
		CHECK(!bp_dwarf_index__unit_of(idx, die_off, &unit) &&
		      unit < dwarf_dieoffset(&cudie) && dwarf_dieoffset(&cudie) - unit <= 24,
		      "%s: DIE 0x%" PRIx64 " in the unit at 0x%" PRIx64 ", its unit DIE at 0x%" PRIx64,
		      bin, die_off, unit, (uint64_t)dwarf_dieoffset(&cudie));
	}
}

static int scan(struct bp_debuginfo *di, struct bp_dwarf_index *idx, char *why, size_t len)
{
	int err = bp_index_scan(di, idx, why, len);

	if (err)
		return err;
	bp_index__seal(idx);
	return bp_index__validate(idx, idx->size, true, why, len);
}

static void test_scan_is_the_walk(void)
{
	int checked = 0, skipped = 0;

	for (int b = 0; b < nbins; b++) {
		struct walk want = {}, got = {};
		struct bp_dwarf_index idx = {};
		struct bp_debuginfo *di = NULL;
		struct bp_diag d = {};
		char why[512], diff[512];
		Dwarf_Die cudie, subdie;
		Dwarf_CU *cu = NULL;
		uint8_t unit_type;
		int err;

		if (bp_debuginfo__open(bins[b], &di, &d) || !di->dwarf) {
			bp_debuginfo__free(di);
			continue;
		}
		err = scan(di, &idx, why, sizeof(why));
		if (err == -EOPNOTSUPP && !strncmp(bins[b], "/", 1)) {
			printf("  (%s: not indexed: %s)\n", bins[b], why);
			skipped++;
			bp_debuginfo__free(di);
			continue;
		}
		CHECK(!err, "%s: %d %s", bins[b], err, why);
		if (!err) {
			walk_all(di->dwarf, &want);
			bp_type_defs_walk(di->dwarf, type_cb, &want.types);
			index_entries(&idx, &got);
			entries_sort(&want.funcs);
			entries_sort(&want.inlines);
			entries_sort(&want.types);
			entries_sort(&got.funcs);
			entries_sort(&got.inlines);
			entries_sort(&got.types);
			CHECK(!differ(&want.funcs, &got.funcs, diff, sizeof(diff)),
			      "%s: functions: %s", bins[b], diff);
			CHECK(!differ(&want.inlines, &got.inlines, diff, sizeof(diff)),
			      "%s: inlined copies: %s", bins[b], diff);
			CHECK(!differ(&want.types, &got.types, diff, sizeof(diff)),
			      "%s: types: %s", bins[b], diff);
			while (!dwarf_get_units(di->dwarf, cu, &cu, NULL, &unit_type, &cudie,
						&subdie)) {
				if (unit_type != DW_UT_compile || dwarf_tag(&cudie) != DW_TAG_compile_unit)
					continue;
				CHECK(unit_from_outside(&cudie) ==
				      bp_dwarf_index__unit_inlines_from_outside(&idx,
					      dwarf_dieoffset(&cudie)),
				      "%s: unit 0x%" PRIx64 " inlining from outside", bins[b],
				      (uint64_t)dwarf_dieoffset(&cudie));
			}
			check_units(bins[b], di->dwarf, &idx, &want.funcs);
			checked++;
		}
		entries_free(&want.funcs);
		entries_free(&want.inlines);
		entries_free(&want.types);
		entries_free(&got.funcs);
		entries_free(&got.inlines);
		entries_free(&got.types);
		bp_dwarf_index__release(&idx);
		bp_debuginfo__free(di);
	}
	CHECK(checked >= 40, "only %d binaries checked (build/targets missing?)", checked);
	printf("  (%d binaries checked, %d not indexed)\n", checked, skipped);
}

/* --- resolving by name, with and without it ----------------------------- */

static int print_none(enum bpfprobe_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static bool same_points(const struct bp_point *a, int na, const struct bp_point *b, int nb,
			char *why, size_t len)
{
	if (na != nb) {
		snprintf(why, len, "%d points without the index, %d with", na, nb);
		return false;
	}
	for (int i = 0; i < na; i++) {
		if (a[i].addr != b[i].addr || a[i].offset != b[i].offset ||
		    a[i].die_off != b[i].die_off || a[i].is_inline != b[i].is_inline ||
		    a[i].src_line != b[i].src_line || strcmp(a[i].func, b[i].func) ||
		    strcmp(a[i].cu ?: "", b[i].cu ?: "") ||
		    strcmp(a[i].symbol ?: "", b[i].symbol ?: "") ||
		    strcmp(a[i].caller ?: "", b[i].caller ?: "")) {
			snprintf(why, len, "point %d: 0x%" PRIx64 " %s (%s) vs 0x%" PRIx64 " %s (%s)",
				 i, a[i].addr, a[i].func, a[i].cu ?: "?", b[i].addr, b[i].func,
				 b[i].cu ?: "?");
			return false;
		}
	}
	return true;
}

static int resolve(const char *bin, const char *func, bool no_cache, struct bp_point **pts,
		   int *n)
{
	struct bp_resolver *r = bp_resolver__new();
	struct bp_spec spec;
	char text[1024], msg[256];
	int err;

	*pts = NULL;
	*n = 0;
	snprintf(text, sizeof(text), "exec=%s;func=%s", bin, func);
	err = bp_spec__parse(text, &spec, msg, sizeof(msg));
	if (err) {
		bp_resolver__free(r);
		return -EINVAL;
	}
	bp_resolver__set_no_cache(r, no_cache);
	err = bp_resolver__resolve(r, &spec, pts, n);
	bp_spec__free(&spec);
	bp_resolver__free(r);
	return err;
}

/* A name usable as FUNC text (no glob characters, no C++ parameters). */
static bool plain_name(const char *name)
{
	return !strpbrk(name, "*?[]\\(); =<>,&") && *name;
}

static void test_resolve_same(void)
{
	int compared = 0;

	bpfprobe_set_print(print_none);
	for (int b = 0; b < nbins; b++) {
		struct bp_dwarf_index idx = {};
		struct bp_debuginfo *di = NULL;
		struct bp_diag d = {};
		char why[512];
		uint32_t step;

		/* the -dbg binaries are large: a sample of their names */
		if (bp_debuginfo__open(bins[b], &di, &d) || !di->dwarf ||
		    scan(di, &idx, why, sizeof(why))) {
			bp_debuginfo__free(di);
			continue;
		}
		step = bins[b][0] == '/' ? idx.hdr->nnames / 12 + 1 : 1;
		for (uint32_t i = 0; i < idx.hdr->nnames; i += step) {
			const char *name = idx.strings + idx.names[i].str;
			struct bp_point *a, *c;
			int na, nc, ea, ec;

			if (!plain_name(name))
				continue;
			ea = resolve(bins[b], name, true, &a, &na);
			ec = resolve(bins[b], name, false, &c, &nc);
			CHECK(ea == ec && (ea || same_points(a, na, c, nc, why, sizeof(why))),
			      "%s: func=%s: %d/%d: %s", bins[b], name, ea, ec, ea == ec ? why : "");
			bp_points__free(a, na);
			bp_points__free(c, nc);
			compared++;
		}
		bp_dwarf_index__release(&idx);
		bp_debuginfo__free(di);
	}
	bpfprobe_set_print(NULL);
	printf("  (%d functions resolved both ways)\n", compared);
}

/* --- damaged ones ----------------------------------------------------------- */

/* The sums of a damaged blob made right again, when its header still
 * says where they go: a file damaged by someone who knew the format. */
static void reseal(struct bp_dwarf_index *idx)
{
	const struct bp_index_header *h = idx->mem;

	if (idx->size < sizeof(*h) || h->block_size != BP_INDEX_BLOCK ||
	    h->payload_off > idx->size || h->payload_size != idx->size - h->payload_off ||
	    h->nblocks != (h->payload_size + BP_INDEX_BLOCK - 1) / BP_INDEX_BLOCK ||
	    sizeof(*h) + (uint64_t)h->nblocks * 8 > h->payload_off)
		return;
	bp_index__seal(idx);
}

static bool validates(const void *mem, size_t size, bool fix_checksum)
{
	struct bp_dwarf_index idx = { .size = size, .fd = -1 };
	char why[256];
	bool ok;

	idx.mem = malloc(size ? size : 1);
	memcpy(idx.mem, mem, size);
	if (fix_checksum)
		reseal(&idx);
	ok = !bp_index__validate(&idx, size, true, why, sizeof(why));
	if (ok) {
		/* what lookups read stays inside: ASan would say otherwise */
		struct bp_func_pattern pat;
		struct bp_index_hit *hits = NULL;
		int n;

		bp_func_pattern__init(&pat, "main", false);
		n = bp_dwarf_index__funcs(&idx, &pat, &hits);
		free(hits);
		bp_func_pattern__init(&pat, "*", true);
		n = bp_dwarf_index__inlines(&idx, &pat, &hits);
		free(hits);
		(void)n;
		(void)bp_dwarf_index__unit_inlines_from_outside(&idx, 0x1234);
		{
			uint64_t unit;

			(void)bp_dwarf_index__unit_of(&idx, 0x1234, &unit);
		}
	}
	free(idx.mem);
	return ok;
}

static void test_damaged_refused(void)
{
	struct bp_dwarf_index idx = {};
	struct bp_debuginfo *di = NULL;
	struct bp_diag d = {};
	char why[512];
	unsigned seed = 1;
	size_t cut;
	int i;

	if (bp_debuginfo__open("build/targets/points-gcc-O2", &di, &d) ||
	    scan(di, &idx, why, sizeof(why))) {
		CHECK(0, "cannot index build/targets/points-gcc-O2: %s", why);
		bp_debuginfo__free(di);
		return;
	}
	CHECK(validates(idx.mem, idx.size, false), "the index as built is refused");
	for (cut = 0; cut < idx.size; cut += idx.size / 23 + 1)
		CHECK(!validates(idx.mem, cut, false), "truncated to %zu of %zu bytes: accepted",
		      cut, idx.size);
	CHECK(!validates(idx.mem, idx.size - 1, true), "one byte short: accepted");
	/* bytes flipped are caught by a sum wherever they are ... */
	for (i = 0; i < 2000; i++) {
		unsigned char *copy = malloc(idx.size);
		size_t at;

		memcpy(copy, idx.mem, idx.size);
		seed = seed * 1103515245 + 12345;
		at = (seed >> 8) % idx.size;
		copy[at] ^= 1 << (seed & 7);
		CHECK(!validates(copy, idx.size, false), "byte %zu flipped: accepted", at);
		/* ... and one that also fixes the checksum stays in bounds */
		validates(copy, idx.size, true);
		free(copy);
	}
	bp_dwarf_index__release(&idx);
	bp_debuginfo__free(di);
}

/* --- one address's source position ------------------------------------- */

struct line_check {
	const char *bin;
	Dwarf_Die *cudie;
	int funcs, checked, left;
};

static void check_line_at(struct line_check *c, uint64_t addr)
{
	Dwarf_Line *want = dwarf_getsrc_die(c->cudie, addr);
	const char *want_file = want ? dwarf_linesrc(want, NULL, NULL) : NULL;
	int want_line = 0, line = 0;
	char *file = NULL;
	int err;

	if (want)
		dwarf_lineno(want, &want_line);
	err = bp_line_at(c->cudie, addr, &file, &line);
	if (err == -EOPNOTSUPP) {
		c->left++;
		return;
	}
	c->checked++;
	if (err)
		CHECK(!want, "%s: 0x%" PRIx64 ": %d, libdw says %s:%d", c->bin, addr, err,
		      want_file, want_line);
	else
		CHECK(want && line == want_line &&
		      (file && want_file ? !strcmp(file, want_file) : file == want_file),
		      "%s: 0x%" PRIx64 ": %s:%d, libdw says %s:%d", c->bin, addr, file, line,
		      want ? want_file : "(none)", want_line);
	free(file);
}

static int line_func_cb(Dwarf_Die *die, void *arg)
{
	struct line_check *c = arg;
	Dwarf_Addr lo, hi;

	/* a few functions of each unit, at points in and around them */
	if (c->funcs++ >= 12 || dwarf_lowpc(die, &lo) || dwarf_highpc(die, &hi) || hi <= lo)
		return DWARF_CB_OK;
	check_line_at(c, lo);
	check_line_at(c, lo + 1);
	check_line_at(c, lo + (hi - lo) / 2);
	check_line_at(c, hi - 1);
	check_line_at(c, hi);
	return DWARF_CB_OK;
}

static void test_line_at_is_libdw(void)
{
	int checked = 0, left = 0;

	for (int b = 0; b < nbins; b++) {
		struct bp_debuginfo *di = NULL;
		struct bp_diag d = {};
		Dwarf_Die cudie, subdie;
		Dwarf_CU *cu = NULL;
		uint8_t unit_type;

		if (bp_debuginfo__open(bins[b], &di, &d) || !di->dwarf) {
			bp_debuginfo__free(di);
			continue;
		}
		while (!dwarf_get_units(di->dwarf, cu, &cu, NULL, &unit_type, &cudie, &subdie)) {
			struct line_check c = { .bin = bins[b], .cudie = &cudie };

			if (unit_type != DW_UT_compile)
				continue;
			dwarf_getfuncs(&cudie, line_func_cb, &c, 0);
			/* and past the unit's code, before it */
			check_line_at(&c, 0);
			check_line_at(&c, UINT64_MAX);
			checked += c.checked;
			left += c.left;
		}
		bp_debuginfo__free(di);
	}
	CHECK(checked > 1000 && left < checked / 20, "%d addresses checked, %d left to libdw",
	      checked, left);
	printf("  (%d addresses checked, %d left to libdw)\n", checked, left);
}

int main(void)
{
	char cache[] = "/tmp/bpfprobe-test-index-XXXXXX", cmd[128];

	/* indexes stored by the resolves go to a cache of our own */
	if (!mkdtemp(cache))
		return 1;
	setenv("XDG_CACHE_HOME", cache, 1);
	find_bins();
	RUN(test_scan_is_the_walk);
	RUN(test_resolve_same);
	RUN(test_damaged_refused);
	RUN(test_line_at_is_libdw);
	for (int i = 0; i < nbins; i++)
		free(bins[i]);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cache);
	if (system(cmd))
		printf("  (cannot remove %s)\n", cache);
	return TEST_EXIT();
}
