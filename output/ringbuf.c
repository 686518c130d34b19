// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "output/btf_record.h"
#include "output/emitter.h"
#include "output/ringbuf.h"
#include "util/log.h"

struct rb_map {
	const char *name;
	const struct btf *btf;
	__u32 type_id;
	struct bp_emitter *em;
	struct bp_ringbufs *owner;
};

struct bp_ringbufs {
	struct ring_buffer *rb;
	struct rb_map *maps;
	int nmaps;
	size_t capacity;	/* of the smallest ring */
	size_t bytes;		/* read since bp_ringbufs__take_bytes() */
};

/* what a record takes in its ring: an 8-byte header, 8-byte aligned */
#define RECORD_HDR	8

static int on_record(void *ctx, void *data, size_t size)
{
	const struct rb_map *m = ctx;
	struct bp_record r = {
		.map = m->name, .cpu = -1,
		.val = { .btf = m->btf, .type_id = m->type_id, .data = data, .size = size },
	};

	bp_emit__record(m->em, &r);
	m->owner->bytes += RECORD_HDR + ((size + 7) & ~(size_t)7);
	return 0;
}

static int count_maps(struct bpf_object *obj)
{
	struct bpf_map *map;
	int n = 0;

	bpf_object__for_each_map(map, obj)
		n += bpf_map__type(map) == BPF_MAP_TYPE_RINGBUF;
	return n;
}

int bp_ringbufs__open(struct bpf_object *obj, struct bp_emitter *em, struct bp_ringbufs **out)
{
	const struct btf *btf = bpf_object__btf(obj);
	struct bp_ringbufs *r;
	struct bpf_map *map;
	int n = count_maps(obj), err = 0;
	__u32 abi;

	*out = NULL;
	if (!n)
		return 0;
	r = calloc(1, sizeof(*r));
	if (!r || !(r->maps = calloc(n, sizeof(*r->maps)))) {
		free(r);
		return -ENOMEM;
	}
	bpf_object__for_each_map(map, obj) {
		struct rb_map *m = &r->maps[r->nmaps];

		if (bpf_map__type(map) != BPF_MAP_TYPE_RINGBUF)
			continue;
		m->name = bpf_map__name(map);
		m->btf = btf;
		m->type_id = bp_btf_record__type(btf, m->name);
		abi = m->type_id ? 0 : bp_btf_record__abi_type(obj);
		if (abi)
			m->type_id = abi;
		m->em = em;
		m->owner = r;
		r->nmaps++;
		if (!r->capacity || bpf_map__max_entries(map) < r->capacity)
			r->capacity = bpf_map__max_entries(map);
		bp_info("ring buffer '%s': records %s\n", m->name,
			abi ? "typed by the record its programs receive" :
			m->type_id ? "typed by " BP_RECORD_VAR_PREFIX "<map>" : "in hex");
		if (!r->rb) {
			r->rb = ring_buffer__new(bpf_map__fd(map), on_record, m, NULL);
			err = r->rb ? 0 : -errno;
		} else {
			err = ring_buffer__add(r->rb, bpf_map__fd(map), on_record, m);
		}
		if (err) {
			bp_err("cannot read ring buffer map '%s': %s\n", m->name, strerror(-err));
			bp_ringbufs__free(r);
			return err;
		}
	}
	*out = r;
	return 0;
}

int bp_ringbufs__epoll_fd(const struct bp_ringbufs *r)
{
	return ring_buffer__epoll_fd(r->rb);
}

int bp_ringbufs__consume(struct bp_ringbufs *r)
{
	return ring_buffer__consume(r->rb);
}

size_t bp_ringbufs__capacity(const struct bp_ringbufs *r)
{
	return r->capacity;
}

size_t bp_ringbufs__take_bytes(struct bp_ringbufs *r)
{
	size_t n = r->bytes;

	r->bytes = 0;
	return n;
}

void bp_ringbufs__free(struct bp_ringbufs *r)
{
	if (!r)
		return;
	ring_buffer__free(r->rb);
	free(r->maps);
	free(r);
}
