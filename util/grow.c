// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include "util/grow.h"

int bp_grow(void **v, int n, int *cap, size_t elem, int first)
{
	void *tmp;
	int want;

	if (n < *cap)
		return 0;
	if (*cap > INT_MAX / 2)
		return -ENOMEM;
	want = *cap ? *cap * 2 : first;
	tmp = realloc(*v, (size_t)want * elem);
	if (!tmp)
		return -ENOMEM;
	*v = tmp;
	*cap = want;
	return 0;
}
