// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The function index's layout (index.h) as untrusted input: the hash of a
 * name, the sums, the header's checks, and the accessors through which
 * look-ups read the payload, each block read and its sum checked when
 * first needed, each offset and count checked when read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "probes/binary/index.h"

uint32_t bp_index__hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

static uint64_t mix(uint64_t h, const void *buf, size_t size)
{
	const unsigned char *p = buf;
	uint64_t w;
	size_t i;

	for (i = 0; i + 8 <= size; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (; i < size; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t finish(uint64_t h)
{
	h ^= h >> 29;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 32);
}

uint64_t bp_index__header_sum(const struct bp_index_header *h, const uint64_t *sums)
{
	struct bp_index_header copy = *h;

	copy.checksum = 0;
	return finish(mix(mix(0x9e3779b97f4a7c15ull, &copy, sizeof(copy)), sums,
			  (size_t)h->nblocks * sizeof(*sums)));
}

uint64_t bp_index__block_sum(const void *block, size_t size, uint32_t k)
{
	return finish(mix(0x243f6a8885a308d3ull ^ ((uint64_t)k << 32 | size), block, size));
}

void bp_index__seal(struct bp_dwarf_index *idx)
{
	struct bp_index_header *h = idx->mem;
	uint64_t *sums = (uint64_t *)((char *)idx->mem + sizeof(*h));
	const char *payload = (const char *)idx->mem + h->payload_off;

	for (uint32_t k = 0; k < h->nblocks; k++) {
		size_t off = (size_t)k * h->block_size;
		size_t n = h->payload_size - off < h->block_size ? h->payload_size - off :
								   h->block_size;

		sums[k] = bp_index__block_sum(payload + off, n, k);
	}
	h->checksum = bp_index__header_sum(h, sums);
}

/* --- the header ----------------------------------------------------------- */

/* A part of n elements of elem bytes at off in a payload of size bytes:
 * aligned, inside, and not before end (the previous part's end). */
static bool part_ok(uint64_t size, uint64_t off, uint64_t n, size_t elem, uint64_t *end)
{
	if (off % 8 || off < *end || off > size || n > (size - off) / elem)
		return false;
	*end = off + n * elem;
	return true;
}

static int check_header(const struct bp_index_header *h, size_t file_size, char *why,
			size_t len)
{
	uint64_t end = 0;

	if (file_size < sizeof(*h) || memcmp(h->magic, BP_INDEX_MAGIC, sizeof(h->magic))) {
		snprintf(why, len, "not an index of this version (truncated?)");
		return -EINVAL;
	}
	if (h->version != BP_INDEX_VERSION || h->byte_order != 0x01020304 ||
	    h->block_size != BP_INDEX_BLOCK) {
		snprintf(why, len, "index version %u, byte order 0x%08x, blocks of %u bytes",
			 h->version, h->byte_order, h->block_size);
		return -EINVAL;
	}
	if (h->payload_off < sizeof(*h) + (uint64_t)h->nblocks * sizeof(uint64_t) ||
	    h->payload_off > file_size || h->payload_size != file_size - h->payload_off) {
		snprintf(why, len, "%zu bytes, not what its header says (truncated?)", file_size);
		return -EINVAL;
	}
	if (h->nblocks != (h->payload_size + h->block_size - 1) / h->block_size ||
	    h->build_id_len > BP_INDEX_BUILD_ID_MAX || !h->nslots || h->self_contained > 1 ||
	    (h->nslots & (h->nslots - 1)) || h->nslots <= h->nnames) {
		snprintf(why, len, "a malformed header");
		return -EINVAL;
	}
	if (!part_ok(h->payload_size, h->names_off, h->nnames, sizeof(struct bp_index_name), &end) ||
	    !part_ok(h->payload_size, h->slots_off, h->nslots, sizeof(uint32_t), &end) ||
	    !part_ok(h->payload_size, h->funcs_off, h->nfuncs, sizeof(uint64_t), &end) ||
	    !part_ok(h->payload_size, h->inlines_off, h->ninlines,
		     sizeof(struct bp_index_inline), &end) ||
	    !part_ok(h->payload_size, h->types_off, h->ntypes, sizeof(uint64_t), &end) ||
	    !part_ok(h->payload_size, h->units_off, h->nunits, sizeof(uint64_t), &end) ||
	    !part_ok(h->payload_size, h->cus_off, h->ncus, sizeof(uint64_t), &end) ||
	    !part_ok(h->payload_size, h->strings_off, h->strings_size, 1, &end)) {
		snprintf(why, len, "its parts do not fit its size");
		return -EINVAL;
	}
	return 0;
}

int bp_index__validate(struct bp_dwarf_index *idx, size_t file_size, bool whole,
		       char *why, size_t len)
{
	const struct bp_index_header *h = idx->mem;
	const char *mem = idx->mem;
	int err;

	err = check_header(h, file_size, why, len);
	if (err)
		return err;
	idx->hdr = h;
	idx->sums = (const uint64_t *)(mem + sizeof(*h));
	if (h->checksum != bp_index__header_sum(h, idx->sums)) {
		snprintf(why, len, "its header's checksum does not match (corrupt)");
		return -EINVAL;
	}
	idx->payload = mem + h->payload_off;
	idx->names = (const void *)(idx->payload + h->names_off);
	idx->slots = (const void *)(idx->payload + h->slots_off);
	idx->funcs = (const void *)(idx->payload + h->funcs_off);
	idx->inlines = (const void *)(idx->payload + h->inlines_off);
	idx->types = (const void *)(idx->payload + h->types_off);
	idx->units = (const void *)(idx->payload + h->units_off);
	idx->cus = (const void *)(idx->payload + h->cus_off);
	idx->strings = idx->payload + h->strings_off;
	if (!whole)
		return 0;
	/* an index in memory: every block now, and every offset */
	idx->fd = -1;
	for (uint32_t k = 0; k < h->nblocks; k++) {
		size_t off = (size_t)k * h->block_size;
		size_t n = h->payload_size - off < h->block_size ? h->payload_size - off :
								   h->block_size;

		if (bp_index__block_sum(idx->payload + off, n, k) != idx->sums[k]) {
			snprintf(why, len, "its block %u's checksum does not match (corrupt)", k);
			return -EINVAL;
		}
	}
	for (uint32_t i = 0; i < h->nnames; i++) {
		const struct bp_index_name *n;
		const char *str;

		if (bp_index__name(idx, i, &n, &str)) {
			snprintf(why, len, "name %u points out of the index", i);
			return -EINVAL;
		}
	}
	for (uint32_t k = 0; k < h->nslots; k++) {
		int64_t name;

		if (bp_index__slot(idx, k, &name)) {
			snprintf(why, len, "slot %u points out of the index", k);
			return -EINVAL;
		}
	}
	if (bp_index__units(idx, &idx->units) || bp_index__cus(idx, &idx->cus)) {
		snprintf(why, len, "its units are not sorted");
		return -EINVAL;
	}
	return 0;
}

/* --- reading the payload ------------------------------------------------ */

static int read_block(struct bp_dwarf_index *idx, uint32_t k)
{
	const struct bp_index_header *h = idx->hdr;
	size_t off = (size_t)k * h->block_size, done = 0;
	size_t n = h->payload_size - off < h->block_size ? h->payload_size - off : h->block_size;
	char *dst = (char *)idx->payload + off;

	while (done < n) {
		ssize_t r = pread(idx->fd, dst + done, n - done, h->payload_off + off + done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -EBADMSG;
		done += r;
	}
	if (bp_index__block_sum(dst, n, k) != idx->sums[k])
		return -EBADMSG;
	idx->loaded[k] = 1;
	return 0;
}

int bp_index__load(struct bp_dwarf_index *idx, const void *p, size_t len)
{
	const struct bp_index_header *h = idx->hdr;
	size_t off = (const char *)p - idx->payload;
	uint32_t k, last;

	if (!len)
		return 0;
	if ((const char *)p < idx->payload || off > h->payload_size || len > h->payload_size - off)
		return -EBADMSG;
	if (idx->fd < 0)
		return 0;	/* all there */
	last = (off + len - 1) / h->block_size;
	for (k = off / h->block_size; k <= last; k++) {
		if (!idx->loaded[k] && read_block(idx, k))
			return -EBADMSG;
	}
	return 0;
}

/* The NUL-terminated string at off in the strings, read. */
static int load_string(struct bp_dwarf_index *idx, uint32_t off, const char **str)
{
	const struct bp_index_header *h = idx->hdr;
	uint32_t end = off;

	if (off >= h->strings_size)
		return -EBADMSG;
	/* a block at a time, until its end */
	do {
		size_t to = (idx->strings - idx->payload) + end;
		size_t chunk = h->block_size - to % h->block_size;

		if (chunk > h->strings_size - end)
			chunk = h->strings_size - end;
		if (bp_index__load(idx, idx->strings + end, chunk))
			return -EBADMSG;
		if (memchr(idx->strings + end, 0, chunk)) {
			*str = idx->strings + off;
			return 0;
		}
		end += chunk;
	} while (end < h->strings_size);
	return -EBADMSG;
}

int bp_index__name(struct bp_dwarf_index *idx, uint32_t i, const struct bp_index_name **n,
		   const char **str)
{
	const struct bp_index_header *h = idx->hdr;
	const struct bp_index_name *r;

	if (i >= h->nnames || bp_index__load(idx, &idx->names[i], sizeof(*r)))
		return -EBADMSG;
	r = &idx->names[i];
	if (r->func_first > h->nfuncs || r->nfuncs > h->nfuncs - r->func_first ||
	    r->inline_first > h->ninlines || r->ninlines > h->ninlines - r->inline_first ||
	    r->type_first > h->ntypes || r->ntypes > h->ntypes - r->type_first)
		return -EBADMSG;
	*n = r;
	return load_string(idx, r->str, str);
}

int bp_index__slot(struct bp_dwarf_index *idx, uint32_t k, int64_t *name)
{
	uint32_t v;

	if (k >= idx->hdr->nslots || bp_index__load(idx, &idx->slots[k], sizeof(v)))
		return -EBADMSG;
	v = idx->slots[k];
	if (v > idx->hdr->nnames)
		return -EBADMSG;
	*name = (int64_t)v - 1;
	return 0;
}

int bp_index__name_funcs(struct bp_dwarf_index *idx, const struct bp_index_name *n,
			 const uint64_t **dies)
{
	*dies = idx->funcs + n->func_first;
	return bp_index__load(idx, *dies, (size_t)n->nfuncs * sizeof(**dies));
}

int bp_index__name_inlines(struct bp_dwarf_index *idx, const struct bp_index_name *n,
			   const struct bp_index_inline **copies)
{
	*copies = idx->inlines + n->inline_first;
	return bp_index__load(idx, *copies, (size_t)n->ninlines * sizeof(**copies));
}

int bp_index__name_types(struct bp_dwarf_index *idx, const struct bp_index_name *n,
			 const uint64_t **dies)
{
	*dies = idx->types + n->type_first;
	return bp_index__load(idx, *dies, (size_t)n->ntypes * sizeof(**dies));
}

/* n offsets at v, read and checked strictly increasing, once (*checked). */
static int sorted_part(struct bp_dwarf_index *idx, const uint64_t *v, uint32_t n, bool *checked)
{
	if (*checked)
		return 0;
	if (bp_index__load(idx, v, (size_t)n * sizeof(*v)))
		return -EBADMSG;
	for (uint32_t i = 1; i < n; i++) {
		if (v[i - 1] >= v[i])
			return -EBADMSG;
	}
	*checked = true;
	return 0;
}

int bp_index__units(struct bp_dwarf_index *idx, const uint64_t **units)
{
	*units = idx->units;
	return sorted_part(idx, idx->units, idx->hdr->nunits, &idx->units_checked);
}

int bp_index__cus(struct bp_dwarf_index *idx, const uint64_t **cus)
{
	*cus = idx->cus;
	return sorted_part(idx, idx->cus, idx->hdr->ncus, &idx->cus_checked);
}
