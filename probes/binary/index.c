// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The function index of a binary (index.h): got once per opened binary,
 * from the user's cache when a valid one is stored for exactly this file
 * (index_file.c), else built by a scan (index_scan.c) and stored; and its
 * look-ups by name.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "probes/binary/debuginfo.h"
#include "probes/binary/index.h"
#include "util/bigmem.h"
#include "util/grow.h"
#include "util/log.h"

void bp_dwarf_index__release(struct bp_dwarf_index *idx)
{
	if (idx->mapped)
		munmap(idx->mem, idx->size ? idx->size : 1);
	else if (idx->bigmem)
		bp_bigmem__free(idx->mem, idx->size);
	else
		free(idx->mem);
	if (idx->fd >= 0)
		close(idx->fd);
	free(idx->loaded);
	idx->mem = NULL;
	idx->loaded = NULL;
	idx->fd = -1;
}

void bp_dwarf_index__free(struct bp_dwarf_index *idx)
{
	if (!idx)
		return;
	bp_dwarf_index__release(idx);
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
	bp_index__seal(idx);
	/*
	 * Its header and parts, not every block and offset again: the scan
	 * just wrote them, the accessors check each offset they follow as
	 * they read, and the unit tests check the scan's output whole.
	 */
	if (bp_index__validate(idx, idx->size, false, why, sizeof(why))) {
		/* the scan's own output: a bug, said and not used */
		bp_err("%s: the DWARF index built is invalid (%s): walking its DWARF\n", di->path,
		       why);
		di->cache->warnings++;
		bp_dwarf_index__free(idx);
		return NULL;
	}
	bp_info("%s: indexed its DWARF: %u functions, %u inlined copies, %u types (%.1f ms)\n",
		di->path, h->nfuncs, h->ninlines, h->ntypes, cpu_ms() - t0);
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

struct bp_dwarf_index *bp_dwarf_index__get(const struct bp_debuginfo *di)
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
	bp_info("%s: not using the DWARF index %s%s: %s: walking its DWARF\n", di->path,
		lz->index->from_file ? "stored as " : "built", lz->index->from_file ?
		lz->index->name : "", why);
	if (lz->index->from_file)
		bp_index_file__remove(lz->index->name);
	/* what was looked up in it may still be in use: freed with di */
	lz->index_rejected = lz->index;
	lz->index = NULL;
}

/* --- look-ups ------------------------------------------------------------- */

/* The name's index (-1: none), or -EBADMSG. */
static int64_t name_of(struct bp_dwarf_index *idx, const char *name)
{
	uint32_t mask = idx->hdr->nslots - 1, h = bp_index__hash(name) & mask, i;
	const struct bp_index_name *n;
	const char *str;
	int64_t k;

	for (i = 0; i <= mask; i++, h = (h + 1) & mask) {
		if (bp_index__slot(idx, h, &k))
			return -EBADMSG;
		if (k < 0)
			return -1;
		if (bp_index__name(idx, k, &n, &str))
			return -EBADMSG;
		if (!strcmp(str, name))
			return k;
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

struct hits {
	struct bp_index_hit *v;
	size_t n, cap;
	bool inlines;
};

static int add(struct bp_dwarf_index *idx, const struct bp_index_name *n, const char *name,
	       struct hits *h)
{
	const struct bp_index_inline *copies;
	const uint64_t *dies;
	uint32_t i, count = h->inlines ? n->ninlines : n->nfuncs;

	if (h->inlines ? bp_index__name_inlines(idx, n, &copies) :
	    bp_index__name_funcs(idx, n, &dies))
		return -EBADMSG;
	for (i = 0; i < count; i++) {
		struct bp_index_hit hit = { .name = name };

		if (h->inlines) {
			hit.die = copies[i].die;
			hit.frame = copies[i].frame;
			hit.unit = copies[i].unit;
		} else {
			hit.die = dies[i];
		}
		if (bp_grow((void **)&h->v, h->n, &h->cap, sizeof(*h->v), 8))
			return -ENOMEM;
		h->v[h->n++] = hit;
	}
	return 0;
}

/* The entries of every name pat may match into h. */
static int for_names(struct bp_dwarf_index *idx, const struct bp_func_pattern *pat,
		     struct hits *h)
{
	size_t prefix = literal_prefix(pat);
	const struct bp_index_name *n;
	const char *str;
	int64_t k;
	int err;

	if (!pat->glob && !pat->qualified && !pat->signature) {
		k = name_of(idx, pat->text);
		if (k < -1)
			return k;
		if (k < 0)
			return 0;
		return bp_index__name(idx, k, &n, &str) ?: add(idx, n, str, h);
	}
	for (uint32_t i = 0; i < idx->hdr->nnames; i++) {
		if (bp_index__name(idx, i, &n, &str))
			return -EBADMSG;
		if (prefix && strncmp(str, pat->text, prefix))
			continue;
		if (!bp_func_pattern__name_may_match(pat, str))
			continue;
		err = add(idx, n, str, h);
		if (err)
			return err;
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

static int lookup(struct bp_dwarf_index *idx, const struct bp_func_pattern *pat, bool inlines,
		  struct bp_index_hit **out)
{
	struct hits h = { .inlines = inlines };
	int err;

	err = for_names(idx, pat, &h);
	if (!err && h.n > INT32_MAX)
		err = -ENOMEM;
	if (err) {
		free(h.v);
		return err;
	}
	/* several names: in the order the walks would meet them */
	if (h.n > 1)
		qsort(h.v, h.n, sizeof(*h.v), inlines ? by_frame : by_die);
	*out = h.v;
	return h.n;
}

int bp_dwarf_index__funcs(struct bp_dwarf_index *idx, const struct bp_func_pattern *pat,
			  struct bp_index_hit **hits)
{
	return lookup(idx, pat, false, hits);
}

int bp_dwarf_index__inlines(struct bp_dwarf_index *idx, const struct bp_func_pattern *pat,
			    struct bp_index_hit **hits)
{
	return lookup(idx, pat, true, hits);
}

int bp_dwarf_index__types(struct bp_dwarf_index *idx, const char *name, const uint64_t **offs)
{
	const struct bp_index_name *n;
	const char *str;
	int64_t k = name_of(idx, name);

	if (k < -1)
		return k;
	if (k < 0)
		return 0;
	if (bp_index__name(idx, k, &n, &str) || bp_index__name_types(idx, n, offs))
		return -EBADMSG;
	return n->ntypes > INT32_MAX ? -EBADMSG : (int)n->ntypes;
}

int bp_dwarf_index__unit_inlines_from_outside(struct bp_dwarf_index *idx, uint64_t unit_off)
{
	size_t lo = 0, hi = idx->hdr->nunits;
	const uint64_t *units;

	if (bp_index__units(idx, &units))
		return -EBADMSG;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (units[mid] < unit_off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < idx->hdr->nunits && units[lo] == unit_off;
}

int bp_dwarf_index__unit_of(struct bp_dwarf_index *idx, uint64_t die_off, uint64_t *unit)
{
	size_t lo = 0, hi = idx->hdr->ncus;
	const uint64_t *cus;

	if (bp_index__cus(idx, &cus))
		return -EBADMSG;
	/* the last header at or before die_off */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cus[mid] <= die_off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;
	*unit = cus[lo - 1];
	return 0;
}
