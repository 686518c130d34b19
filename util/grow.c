// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "util/grow.h"

int bp_grow(void **v, size_t n, size_t *cap, size_t elem, size_t first)
{
	size_t want;
	void *tmp;

	if (n < *cap)
		return 0;
	want = *cap ? *cap * 2 : first;
	if (want > SIZE_MAX / elem)
		return -ENOMEM;
	tmp = realloc(*v, want * elem);
	if (!tmp)
		return -ENOMEM;
	*v = tmp;
	*cap = want;
	return 0;
}
