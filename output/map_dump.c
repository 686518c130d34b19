// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "output/btf_record.h"
#include "output/emitter.h"
#include "output/hist.h"
#include "output/stack_counts.h"
#include "output/map_dump.h"
#include "util/log.h"
#include "util/grow.h"

struct dump_ctx {
	const struct btf *btf;
	struct bpf_map *map;
	__u32 key_size, value_size;
	bool percpu, array;
	int ncpu;
	size_t stride;		/* one CPU's copy of a per-CPU value */
	size_t vbuf_size;	/* what a lookup returns */
	bool key_signed;
};

struct entry {
	void *key;
	void *value;
};

static const char *kind_name(enum bpf_map_type t)
{
	switch (t) {
	case BPF_MAP_TYPE_HASH:			return "hash";
	case BPF_MAP_TYPE_ARRAY:		return "array";
	case BPF_MAP_TYPE_PERCPU_HASH:		return "percpu_hash";
	case BPF_MAP_TYPE_PERCPU_ARRAY:		return "percpu_array";
	case BPF_MAP_TYPE_LRU_HASH:		return "lru_hash";
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:	return "lru_percpu_hash";
	default:				return NULL;
	}
}

static bool is_percpu(enum bpf_map_type t)
{
	return t == BPF_MAP_TYPE_PERCPU_HASH || t == BPF_MAP_TYPE_PERCPU_ARRAY ||
	       t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static bool signed_int_type(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf ? btf__type_by_id(btf, id) : NULL;

	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	return t && btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_SIGNED);
}

/* integer keys by value, others bytewise */
static int cmp_entry(const void *a, const void *b, void *arg)
{
	const struct dump_ctx *c = arg;
	const unsigned char *ka = ((const struct entry *)a)->key;
	const unsigned char *kb = ((const struct entry *)b)->key;
	__u32 sort_key_size = c->key_size;
	bool sort_key_signed = c->key_signed;

	if (sort_key_size <= 8) {
		unsigned long long ua = 0, ub = 0;

		for (__u32 i = sort_key_size; i-- > 0;) {
			ua = ua << 8 | ka[i];
			ub = ub << 8 | kb[i];
		}
		if (sort_key_signed && sort_key_size < 8) {
			unsigned int sh = 64 - 8 * sort_key_size;

			return ((long long)(ua << sh) > (long long)(ub << sh)) -
			       ((long long)(ua << sh) < (long long)(ub << sh));
		}
		if (sort_key_signed)
			return ((long long)ua > (long long)ub) - ((long long)ua < (long long)ub);
		return (ua > ub) - (ua < ub);
	}
	return memcmp(ka, kb, sort_key_size);
}

static void free_entries(struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].key);
		free(e[i].value);
	}
	free(e);
}

/* Every entry of the map, in key order. */
static int collect(struct dump_ctx *c, struct entry **out, size_t *cnt)
{
	int fd = bpf_map__fd(c->map);
	struct entry *e = NULL;
	size_t n = 0, cap = 0;
	void *prev = NULL, *key = malloc(c->key_size);
	int err = 0;

	if (!key)
		return -ENOMEM;
	while (!bpf_map_get_next_key(fd, prev, key)) {
		void *val = calloc(1, c->vbuf_size);

		if (!val) {
			err = -ENOMEM;
			break;
		}
		if (bpf_map_lookup_elem(fd, key, val) ||
		    (c->array && all_zero(val, c->vbuf_size))) {
			free(val);	/* deleted meanwhile, or an unused array slot */
		} else {
			if (bp_grow((void **)&e, n, &cap, sizeof(*e), 16)) {
				free(val);
				err = -ENOMEM;
				break;
			}
			e[n].key = malloc(c->key_size);
			e[n].value = val;
			if (!e[n].key) {
				free(val);
				err = -ENOMEM;
				break;
			}
			memcpy(e[n].key, key, c->key_size);
			n++;
		}
		free(prev);
		prev = key;
		key = malloc(c->key_size);
		if (!key) {
			err = -ENOMEM;
			break;
		}
	}
	free(prev);
	free(key);
	if (err) {
		free_entries(e, n);
		return err;
	}
	if (n)
		qsort_r(e, n, sizeof(*e), cmp_entry, c);
	*out = e;
	*cnt = n;
	return 0;
}

static void emit_entry(struct dump_ctx *c, const struct bp_map_head *h, struct bp_emitter *em,
		       const struct entry *en)
{
	struct bp_typed key = {
		.btf = c->btf, .type_id = bpf_map__btf_key_type_id(c->map),
		.data = en->key, .size = c->key_size,
	};
	__u32 vtype = bpf_map__btf_value_type_id(c->map);
	struct bp_typed one = { .btf = c->btf, .type_id = vtype, .data = en->value, .size = c->value_size };
	struct bp_typed *percpu;
	enum bp_hist_kind hk = bp_hist__kind(c->btf, vtype);
	void *sum;

	if (hk != BP_HIST_NONE) {
		struct bp_hist hist;

		if (!bp_hist__read(&hist, hk, en->value, c->ncpu, c->stride, c->value_size)) {
			bp_emit__map_hist(em, h, &key, &hist);
			bp_hist__fini(&hist);
			return;
		}
	}
	if (!c->percpu) {
		bp_emit__map_entry(em, h, &key, &one, 1);
		return;
	}
	sum = malloc(c->value_size);
	if (sum && !bp_btf_value__sum(c->btf, vtype, en->value, c->ncpu, c->stride, sum,
				      c->value_size)) {
		one.data = sum;
		bp_emit__map_entry(em, h, &key, &one, 1);
		free(sum);
		return;
	}
	free(sum);
	percpu = calloc(c->ncpu, sizeof(*percpu));
	if (!percpu)
		return;
	for (int i = 0; i < c->ncpu; i++) {
		percpu[i] = one;
		percpu[i].data = (const char *)en->value + i * c->stride;
	}
	bp_emit__map_entry(em, h, &key, percpu, c->ncpu);
	free(percpu);
}

/* An integer value of 1..8 bytes (a count), its signedness in *sign. */
static bool count_type(const struct btf *btf, __u32 id, bool *sign)
{
	const struct btf_type *t = btf && id ? btf__type_by_id(btf, id) : NULL;

	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_int(t) || t->size > 8 || btf_int_bits(t) != t->size * 8)
		return false;
	*sign = btf_int_encoding(t) & BTF_INT_SIGNED;
	return true;
}

static __s64 count_at(const unsigned char *p, size_t size, bool sign)
{
	__u64 v = 0;

	for (size_t i = size; i-- > 0;)
		v = v << 8 | p[i];
	if (sign && size < 8 && (v >> (8 * size - 1)) & 1)
		v |= ~0ULL << (8 * size);
	return (__s64)v;
}

/*
 * A map keyed by stack ids with counts for values: equal stacks merged
 * (stack_counts.h). False when the map is not one, or merging failed:
 * then its entries are printed one by one.
 */
static bool dump_stack_counts(struct dump_ctx *c, const struct bp_map_head *h,
			      struct bp_emitter *em, const struct entry *e, size_t n)
{
	__u32 ktype = bpf_map__btf_key_type_id(c->map), vtype = bpf_map__btf_value_type_id(c->map);
	struct bp_stack_count *m = NULL;
	size_t nm = 0;
	__u64 *ids;
	__s64 *counts;
	bool sign, ok = false;

	if (!em->stacks || c->key_size != 8 || !bp_btf__is_stack(c->btf, ktype) ||
	    !count_type(c->btf, vtype, &sign))
		return false;
	ids = calloc(n ? n : 1, sizeof(*ids));
	counts = calloc(n ? n : 1, sizeof(*counts));
	for (size_t i = 0; ids && counts && i < n; i++) {
		memcpy(&ids[i], e[i].key, 8);
		for (int cpu = 0; cpu < c->ncpu; cpu++)
			counts[i] += count_at((const unsigned char *)e[i].value + cpu * c->stride,
					      c->value_size, sign);
	}
	if (ids && counts && !bp_stack_counts__merge(em->stacks, ids, counts, n, &m, &nm)) {
		bp_emit__map_begin(em, h);
		for (size_t i = 0; i < nm; i++) {
			struct bp_typed key = { .btf = c->btf, .type_id = ktype, .data = &m[i].id,
						.size = 8 };
			__s64 v = m[i].count;
			struct bp_typed val = { .btf = c->btf, .type_id = vtype, .data = &v,
						.size = c->value_size };

			bp_emit__map_entry(em, h, &key, &val, 1);
		}
		bp_emit__map_end(em, h, nm);
		bp_stack_counts__free(m, nm);
		ok = true;
	}
	free(ids);
	free(counts);
	return ok;
}

static int dump_one(struct bpf_object *obj, struct bpf_map *map, struct bp_emitter *em)
{
	enum bpf_map_type type = bpf_map__type(map);
	struct dump_ctx c = {
		.btf = bpf_object__btf(obj), .map = map,
		.key_size = bpf_map__key_size(map), .value_size = bpf_map__value_size(map),
		.percpu = is_percpu(type),
		.array = type == BPF_MAP_TYPE_ARRAY || type == BPF_MAP_TYPE_PERCPU_ARRAY,
		.ncpu = 1,
	};
	struct bp_map_head h = { .name = bpf_map__name(map), .kind = kind_name(type),
				 .percpu = c.percpu };
	struct entry *e = NULL;
	size_t n = 0;
	int err;

	c.stride = c.value_size;
	if (c.percpu) {
		c.ncpu = libbpf_num_possible_cpus();
		if (c.ncpu <= 0)
			return c.ncpu ? c.ncpu : -EINVAL;
		c.stride = (c.value_size + 7) & ~7u;
	}
	c.vbuf_size = c.stride * c.ncpu;
	c.key_signed = signed_int_type(c.btf, bpf_map__btf_key_type_id(map));
	err = collect(&c, &e, &n);
	if (err) {
		bp_err("cannot dump map '%s': %s\n", h.name, strerror(-err));
		return err;
	}
	if (dump_stack_counts(&c, &h, em, e, n)) {
		free_entries(e, n);
		return 0;
	}
	bp_emit__map_begin(em, &h);
	for (size_t i = 0; i < n; i++)
		emit_entry(&c, &h, em, &e[i]);
	bp_emit__map_end(em, &h, n);
	free_entries(e, n);
	return 0;
}

int bp_map_dump(struct bpf_object *obj, struct bp_emitter *em)
{
	struct bpf_map *map;
	int dumped = 0;

	bpf_object__for_each_map(map, obj) {
		if (bpf_map__is_internal(map) || !kind_name(bpf_map__type(map)) ||
		    bpf_map__fd(map) < 0)
			continue;
		if (!dump_one(obj, map, em))
			dumped++;
	}
	return dumped;
}
