// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The function index's layout (index.h): the hash of a name, the
 * checksum, and checking an index read from a file as untrusted input
 * before anything points into it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "probes/dwarf/index.h"

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

uint64_t bp_index__checksum(const void *mem, size_t size)
{
	struct bp_index_header h;
	uint64_t sum;

	if (size < sizeof(h))
		return 0;
	/* the header too, but for the checksum itself */
	memcpy(&h, mem, sizeof(h));
	h.checksum = 0;
	sum = mix(0x9e3779b97f4a7c15ull ^ size, &h, sizeof(h));
	sum = mix(sum, (const char *)mem + sizeof(h), size - sizeof(h));
	sum ^= sum >> 29;
	sum *= 0xc4ceb9fe1a85ec53ull;
	return sum ^ (sum >> 32);
}

/* The part of n elements of elem bytes at *off (8-byte aligned) in a
 * blob of size bytes: its start, and *off past it. */
static bool part(size_t size, size_t *off, uint64_t n, size_t elem, size_t *start)
{
	*start = (*off + 7) & ~(size_t)7;
	if (*start > size || n > (size - *start) / elem)
		return false;
	*off = *start + n * elem;
	return true;
}

static int check_header(const struct bp_dwarf_index *idx, char *why, size_t len)
{
	const struct bp_index_header *h = idx->mem;

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
	if (h->checksum != bp_index__checksum(idx->mem, idx->size)) {
		snprintf(why, len, "its checksum does not match its contents (corrupt)");
		return -EINVAL;
	}
	if (h->build_id_len > BP_INDEX_BUILD_ID_MAX || !h->nslots ||
	    (h->nslots & (h->nslots - 1)) || h->nslots <= h->nnames) {
		snprintf(why, len, "a malformed header");
		return -EINVAL;
	}
	return 0;
}

/* Every offset and count of the parts stays inside them. */
static int check_parts(const struct bp_dwarf_index *idx, const struct bp_index_name *names,
		       const uint32_t *slots, const uint64_t *units, char *why, size_t len)
{
	const struct bp_index_header *h = idx->mem;
	uint32_t i;

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
	for (i = 1; i < h->nunits; i++) {
		if (units[i - 1] >= units[i]) {
			snprintf(why, len, "its units are not sorted");
			return -EINVAL;
		}
	}
	return 0;
}

int bp_index__validate(struct bp_dwarf_index *idx, char *why, size_t len)
{
	size_t off = sizeof(struct bp_index_header), o_names, o_slots, o_funcs, o_inls, o_units,
	       o_strings;
	const struct bp_index_header *h = idx->mem;
	const char *mem = idx->mem;
	int err;

	err = check_header(idx, why, len);
	if (err)
		return err;
	if (!part(idx->size, &off, h->nnames, sizeof(struct bp_index_name), &o_names) ||
	    !part(idx->size, &off, h->nslots, sizeof(uint32_t), &o_slots) ||
	    !part(idx->size, &off, h->nfuncs, sizeof(uint64_t), &o_funcs) ||
	    !part(idx->size, &off, h->ninlines, sizeof(struct bp_index_inline), &o_inls) ||
	    !part(idx->size, &off, h->nunits, sizeof(uint64_t), &o_units) ||
	    !part(idx->size, &off, h->strings_size, 1, &o_strings) || off != idx->size) {
		snprintf(why, len, "its parts do not fit its size");
		return -EINVAL;
	}
	if (h->strings_size && mem[o_strings + h->strings_size - 1]) {
		snprintf(why, len, "a name without its end");
		return -EINVAL;
	}
	err = check_parts(idx, (const void *)(mem + o_names), (const void *)(mem + o_slots),
			  (const void *)(mem + o_units), why, len);
	if (err)
		return err;
	idx->hdr = h;
	idx->names = (const void *)(mem + o_names);
	idx->slots = (const void *)(mem + o_slots);
	idx->funcs = (const void *)(mem + o_funcs);
	idx->inlines = (const void *)(mem + o_inls);
	idx->units = (const void *)(mem + o_units);
	idx->strings = mem + o_strings;
	return 0;
}
