/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Ring buffer maps (BPF_MAP_TYPE_RINGBUF) of an object, read through one
 * libbpf ring_buffer. Each record is printed typed when the program names
 * its type (btf_record.h), else in hex. A full ring buffer makes the
 * program's bpf_ringbuf_reserve() fail: only the program can count those.
 */
#ifndef BPFPROBE_RINGBUF_H
#define BPFPROBE_RINGBUF_H

#include <stddef.h>

struct bpf_object;
struct bp_emitter;
struct bp_ringbufs;

/* Returns 0 with *out NULL when obj has no ring buffer map. */
int bp_ringbufs__open(struct bpf_object *obj, struct bp_emitter *em, struct bp_ringbufs **out);
int bp_ringbufs__epoll_fd(const struct bp_ringbufs *r);
/* Prints every waiting record. Returns how many, or a negative errno. */
int bp_ringbufs__consume(struct bp_ringbufs *r);
/* The size of the smallest ring, in bytes. */
size_t bp_ringbufs__capacity(const struct bp_ringbufs *r);
/* The bytes of ring the records read since the last call took. */
size_t bp_ringbufs__take_bytes(struct bp_ringbufs *r);
void bp_ringbufs__free(struct bp_ringbufs *r);

#endif /* BPFPROBE_RINGBUF_H */
