// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "util/grow.h"

int bp_grow__with(void **v, size_t n, size_t *cap, size_t elem, size_t first,
		  void *(*resize)(void *old, size_t old_size, size_t new_size))
{
	size_t want;
	void *tmp;

	if (n < *cap)
		return 0;
	want = *cap ? *cap * 2 : first;
	if (*cap > SIZE_MAX / 2 || !elem || want > SIZE_MAX / elem)
		return -ENOMEM;
	tmp = resize(*v, *cap * elem, want * elem);
	if (!tmp)
		return -ENOMEM;
	*v = tmp;
	*cap = want;
	return 0;
}

static void *resize_heap(void *old, size_t old_size, size_t new_size)
{
	return realloc(old, new_size);
}

int bp_grow(void **v, size_t n, size_t *cap, size_t elem, size_t first)
{
	return bp_grow__with(v, n, cap, elem, first, resize_heap);
}
