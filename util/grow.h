/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Growing arrays that are filled one element at a time. */
#ifndef BPFPROBE_GROW_H
#define BPFPROBE_GROW_H

#include <stddef.h>
#include <stdlib.h>

/*
 * Makes room for element n of *v, an array of *cap elements of elem bytes:
 * when it is full, doubles it (to first elements at the start). Returns 0,
 * or -ENOMEM with *v and *cap as they were.
 */
int bp_grow(void **v, size_t n, size_t *cap, size_t elem, size_t first);

/*
 * bp_grow() with another allocator: resize(old, old_size, new_size) gives
 * the array's new memory, its first old_size bytes those of old (freed),
 * or NULL (old kept).
 */
int bp_grow__with(void **v, size_t n, size_t *cap, size_t elem, size_t first,
		  void *(*resize)(void *old, size_t old_size, size_t new_size));

/*
 * qsort() of an array that may be empty: qsort(NULL, 0, ...) is undefined
 * behaviour, and an array nothing was added to is NULL.
 */
static inline void bp_sort(void *v, size_t n, size_t elem,
			   int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(v, n, elem, cmp);
}

#endif /* BPFPROBE_GROW_H */
