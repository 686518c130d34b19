/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Memory for large arrays and buffers (a DWARF index being built): an
 * anonymous mapping of its own, which the kernel may back with 2 MiB pages
 * (MADV_HUGEPAGE). Filling megabytes of 4 KiB pages costs a page fault
 * each, and a fault costs microseconds, more in some VMs: one huge page
 * takes the place of 512 of them. Small sizes get ordinary pages.
 */
#ifndef BPFPROBE_BIGMEM_H
#define BPFPROBE_BIGMEM_H

#include <stddef.h>

/* size zeroed bytes, or NULL; given back with bp_bigmem__free(p, size) */
void *bp_bigmem__alloc(size_t size);
void bp_bigmem__free(void *p, size_t size);

/*
 * bp_grow() (util/grow.h) on bigmem: makes room for element n of *v, an
 * array of *cap elements of elem bytes, doubling it when full (to first
 * elements at the start). Returns 0, or -ENOMEM with *v and *cap as they
 * were. The array is freed with bp_bigmem__free(*v, *cap * elem).
 */
int bp_bigmem__grow(void **v, size_t n, size_t *cap, size_t elem, size_t first);

/*
 * For a short-lived program (not a library: it changes how malloc works
 * for the whole process): malloc's heap grows at once by size and more,
 * the part of it used next may be backed by 2 MiB pages, requests of up to
 * size come from it, and it is never given back to the kernel before
 * exit. A command that fills a few hundred KiB of heap then takes a page
 * fault or two instead of one per 4 KiB.
 */
void bp_bigmem__heap(size_t size);

#endif /* BPFPROBE_BIGMEM_H */
