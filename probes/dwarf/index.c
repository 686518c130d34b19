// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The function index of a binary (index.h): got once per opened binary,
 * from the user's cache when a valid one is stored for exactly this file,
 * else built by a scan and stored; and its look-ups by name.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probes/dwarf/debuginfo.h"
#include "probes/dwarf/index.h"
#include "util/grow.h"
#include "util/log.h"

uint32_t bp_index__hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

uint64_t bp_index__checksum(const void *payload, size_t size)
{
	const unsigned char *p = payload;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ size, w;
	size_t i;

	for (i = 0; i + 8 <= size; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (; i < size; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	h ^= h >> 29;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 32);
}

/* --- reading one, as untrusted input --------------------------------------- */

/* [off, off + n * elem) in a blob of size bytes, 8-byte aligned. */
static bool part(size_t size, size_t *off, uint64_t n, size_t elem, size_t *start)
{
	*start = (*off + 7) & ~(size_t)7;
	if (*start > size || n > (size - *start) / elem)
		return false;
	*off = *start + n * elem;
	return true;
}

int bp_index__validate(struct bp_dwarf_index *idx, char *why, size_t len)
{
	const struct bp_index_header *h = idx->mem;
	size_t off = sizeof(*h), o_names, o_slots, o_funcs, o_inls, o_units, o_strings;
	const struct bp_index_name *names;
	const uint64_t *units;
	const uint32_t *slots;
	uint32_t i;

	if (idx->size < sizeof(*h) || memcmp(h->magic, BP_INDEX_MAGIC, sizeof(h->magic))) {
		snprintf(why, len, "not an index of this version (truncated?)");
		return -EINVAL;
	}
	if (h->version != BP_INDEX_VERSION || h->byte_order != 0x01020304) {
		snprintf(why, len, "index version %u, byte order 0x%08x", h->version, h->byte_order);
		return -EINVAL;
	}
	if (h->payload_size != idx->size - sizeof(*h)) {
		snprintf(why, len, "%zu bytes instead of %" PRIu64 " (truncated?)", idx->size,
			 h->payload_size + sizeof(*h));
		return -EINVAL;
	}
	if (h->checksum != bp_index__checksum((const char *)idx->mem + sizeof(*h),
					      h->payload_size)) {
		snprintf(why, len, "its checksum does not match its contents (corrupt)");
		return -EINVAL;
	}
	if (h->build_id_len > BP_INDEX_BUILD_ID_MAX || !h->nslots ||
	    (h->nslots & (h->nslots - 1)) || h->nslots <= h->nnames) {
		snprintf(why, len, "a malformed header");
		return -EINVAL;
	}
	if (!part(idx->size, &off, h->nnames, sizeof(*names), &o_names) ||
	    !part(idx->size, &off, h->nslots, sizeof(*slots), &o_slots) ||
	    !part(idx->size, &off, h->nfuncs, sizeof(uint64_t), &o_funcs) ||
	    !part(idx->size, &off, h->ninlines, sizeof(struct bp_index_inline), &o_inls) ||
	    !part(idx->size, &off, h->nunits, sizeof(uint64_t), &o_units) ||
	    !part(idx->size, &off, h->strings_size, 1, &o_strings) || off != idx->size) {
		snprintf(why, len, "its parts do not fit its size");
		return -EINVAL;
	}
	names = (const void *)((const char *)idx->mem + o_names);
	slots = (const void *)((const char *)idx->mem + o_slots);
	idx->strings = (const char *)idx->mem + o_strings;
	if (h->strings_size && idx->strings[h->strings_size - 1]) {
		snprintf(why, len, "a name without its end");
		return -EINVAL;
	}
	for (i = 0; i < h->nnames; i++) {
		const struct bp_index_name *n = &names[i];

		if (n->str >= h->strings_size || n->func_first > h->nfuncs ||
		    n->nfuncs > h->nfuncs - n->func_first || n->inline_first > h->ninlines ||
		    n->ninlines > h->ninlines - n->inline_first) {
			snprintf(why, len, "name %u points out of the index", i);
			return -EINVAL;
		}
	}
	for (i = 0; i < h->nslots; i++) {
		if (slots[i] > h->nnames) {
			snprintf(why, len, "slot %u points out of the index", i);
			return -EINVAL;
		}
	}
	units = (const void *)((const char *)idx->mem + o_units);
	for (i = 1; i < h->nunits; i++) {
		if (units[i - 1] >= units[i]) {
			snprintf(why, len, "its units are not sorted");
			return -EINVAL;
		}
	}
	idx->hdr = h;
	idx->names = names;
	idx->slots = slots;
	idx->funcs = (const void *)((const char *)idx->mem + o_funcs);
	idx->inlines = (const void *)((const char *)idx->mem + o_inls);
	idx->units = units;
	return 0;
}

void bp_dwarf_index__free(struct bp_dwarf_index *idx)
{
	if (!idx)
		return;
	free(idx->mem);
	free(idx);
}

/* --- getting it -------------------------------------------------------------- */

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Built by a scan; stored when the binary's identity is known. */
static struct bp_dwarf_index *build(const struct bp_debuginfo *di,
				    const struct bp_index_header *want, const char *name)
{
	struct bp_dwarf_index *idx = calloc(1, sizeof(*idx));
	struct bp_index_header *h;
	char why[PATH_MAX + 256], path[PATH_MAX];
	double t0 = cpu_ms();
	int err;

	if (!idx)
		return NULL;
	err = bp_index_scan(di, idx, why, sizeof(why));
	if (err) {
		bp_info("%s: no DWARF index (%s): walking its DWARF\n", di->path, why);
		free(idx);
		return NULL;
	}
	h = idx->mem;
	h->build_id_len = want->build_id_len;
	memcpy(h->build_id, want->build_id, sizeof(h->build_id));
	h->has_debug_file = want->has_debug_file;
	h->binary = want->binary;
	h->debug = want->debug;
	h->checksum = bp_index__checksum((char *)idx->mem + sizeof(*h), h->payload_size);
	if (bp_index__validate(idx, why, sizeof(why))) {
		/* the scan's own output: a bug, said and not used */
		bp_err("%s: the DWARF index built is invalid (%s): walking its DWARF\n", di->path,
		       why);
		bp_dwarf_index__free(idx);
		return NULL;
	}
	bp_info("%s: indexed its DWARF: %u functions, %u inlined copies (%.1f ms)\n", di->path,
		h->nfuncs, h->ninlines, cpu_ms() - t0);
	if (!name)
		return idx;
	if (bp_index_file__write(idx, name, path, sizeof(path), why, sizeof(why)))
		bp_info("%s: DWARF index not stored: %s\n", di->path, why);
	else
		bp_info("%s: DWARF index stored in %s\n", di->path, path);
	return idx;
}

static void free_index(struct bp_dwarf_index *idx)
{
	bp_dwarf_index__free(idx);
}

const struct bp_dwarf_index *bp_dwarf_index__get(const struct bp_debuginfo *di)
{
	struct bp_debuginfo_lazy *lz = di->cache;
	struct bp_index_header want = {};
	struct bp_dwarf_index *idx = NULL;
	char why[PATH_MAX + 256], path[PATH_MAX], name[96];
	int err;

	if (lz->index_tried)
		return lz->index;
	lz->index_tried = true;
	if (!di->dwarf || di->no_index)
		return NULL;
	if (bp_index_file__identify(di, &want, name, sizeof(name), why, sizeof(why))) {
		bp_info("%s: DWARF index neither read nor stored: %s\n", di->path, why);
		name[0] = '\0';
	} else {
		idx = calloc(1, sizeof(*idx));
		if (!idx)
			return NULL;
		err = bp_index_file__read(&want, name, idx, path, sizeof(path), why, sizeof(why));
		if (!err) {
			idx->from_file = true;
			bp_info("%s: using the DWARF index %s\n", di->path, path);
		} else {
			if (err != -ENOENT)
				bp_info("%s: not using the DWARF index %s: %s\n", di->path, path, why);
			free(idx);
			idx = NULL;
		}
	}
	if (!idx)
		idx = build(di, &want, name[0] ? name : NULL);
	if (idx && name[0])
		snprintf(idx->name, sizeof(idx->name), "%s", name);
	lz->index = idx;
	lz->free_index = free_index;
	return idx;
}

void bp_dwarf_index__reject(const struct bp_debuginfo *di, const char *why)
{
	struct bp_debuginfo_lazy *lz = di->cache;

	if (!lz->index)
		return;
	bp_info("%s: the DWARF index %s does not match its DWARF (%s): walking its DWARF\n",
		di->path, lz->index->from_file ? "stored" : "built", why);
	if (lz->index->from_file)
		bp_index_file__remove(lz->index->name);
	/* what was looked up in it may still be in use: freed with di */
	lz->index_rejected = lz->index;
	lz->index = NULL;
}

/* --- look-ups ------------------------------------------------------------- */

static int name_of(const struct bp_dwarf_index *idx, const char *name)
{
	uint32_t mask = idx->hdr->nslots - 1, h = bp_index__hash(name) & mask, i;

	for (i = 0; i <= mask && idx->slots[h]; i++, h = (h + 1) & mask) {
		const struct bp_index_name *n = &idx->names[idx->slots[h] - 1];

		if (!strcmp(idx->strings + n->str, name))
			return idx->slots[h] - 1;
	}
	return -1;
}

/* A plain glob's characters before its first special one: names without
 * them are not looked at. */
static size_t literal_prefix(const struct bp_func_pattern *pat)
{
	if (!pat->glob || pat->qualified || pat->signature)
		return 0;
	return strcspn(pat->text, "*?[\\");
}

/* Calls add for each name pat may match; returns add's first error. */
static int for_names(const struct bp_dwarf_index *idx, const struct bp_func_pattern *pat,
		     int (*add)(const struct bp_dwarf_index *idx, const struct bp_index_name *n,
				void *ctx),
		     void *ctx)
{
	size_t prefix = literal_prefix(pat);
	uint32_t i;
	int err, k;

	if (!pat->glob && !pat->qualified && !pat->signature) {
		k = name_of(idx, pat->text);
		return k < 0 ? 0 : add(idx, &idx->names[k], ctx);
	}
	for (i = 0; i < idx->hdr->nnames; i++) {
		const struct bp_index_name *n = &idx->names[i];
		const char *name = idx->strings + n->str;

		if (prefix && strncmp(name, pat->text, prefix))
			continue;
		if (!bp_func_pattern__name_may_match(pat, name))
			continue;
		err = add(idx, n, ctx);
		if (err)
			return err;
	}
	return 0;
}

struct hits {
	struct bp_index_hit *v;
	size_t n, cap;
};

static int add_funcs(const struct bp_dwarf_index *idx, const struct bp_index_name *n, void *ctx)
{
	struct hits *h = ctx;

	for (uint32_t i = 0; i < n->nfuncs; i++) {
		if (bp_grow((void **)&h->v, h->n, &h->cap, sizeof(*h->v), 8))
			return -ENOMEM;
		h->v[h->n++] = (struct bp_index_hit){ .name = idx->strings + n->str,
						      .die = idx->funcs[n->func_first + i] };
	}
	return 0;
}

static int add_inlines(const struct bp_dwarf_index *idx, const struct bp_index_name *n, void *ctx)
{
	struct hits *h = ctx;

	for (uint32_t i = 0; i < n->ninlines; i++) {
		const struct bp_index_inline *c = &idx->inlines[n->inline_first + i];

		if (bp_grow((void **)&h->v, h->n, &h->cap, sizeof(*h->v), 8))
			return -ENOMEM;
		h->v[h->n++] = (struct bp_index_hit){ .name = idx->strings + n->str,
						      .die = c->die, .frame = c->frame,
						      .unit = c->unit };
	}
	return 0;
}

static int by_die(const void *a, const void *b)
{
	const struct bp_index_hit *x = a, *y = b;

	return x->die < y->die ? -1 : x->die > y->die;
}

static int by_frame(const void *a, const void *b)
{
	const struct bp_index_hit *x = a, *y = b;

	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return by_die(a, b);
}

static int lookup(const struct bp_dwarf_index *idx, const struct bp_func_pattern *pat,
		  bool inlines, struct bp_index_hit **out)
{
	struct hits h = {};
	int err;

	err = for_names(idx, pat, inlines ? add_inlines : add_funcs, &h);
	if (err || h.n > INT32_MAX) {
		free(h.v);
		return -ENOMEM;
	}
	/* several names: in the order the walks would meet them */
	if (h.n > 1)
		qsort(h.v, h.n, sizeof(*h.v), inlines ? by_frame : by_die);
	*out = h.v;
	return h.n;
}

int bp_dwarf_index__funcs(const struct bp_dwarf_index *idx, const struct bp_func_pattern *pat,
			  struct bp_index_hit **hits)
{
	return lookup(idx, pat, false, hits);
}

int bp_dwarf_index__inlines(const struct bp_dwarf_index *idx, const struct bp_func_pattern *pat,
			    struct bp_index_hit **hits)
{
	return lookup(idx, pat, true, hits);
}

bool bp_dwarf_index__unit_inlines_from_outside(const struct bp_dwarf_index *idx,
					       uint64_t unit_off)
{
	size_t lo = 0, hi = idx->hdr->nunits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (idx->units[mid] < unit_off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < idx->hdr->nunits && idx->units[lo] == unit_off;
}
