// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One compilation unit of the benchmark application, compiled 64 times with
 * -DCU=00..77 (two octal digits): each copy defines a distinct function fd_CU (the "64 distinct
 * functions" case) and its own static copy_fn (the "one function with 64
 * static copies" case).
 */
#include "bench/app.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

static NOINLINE long copy_fn(struct node *p, int n, long v)
{
	sink += p->v + n + CU;
	return v;
}

NOINLINE long CAT(fd_, CU)(struct node *p, int n, long v)
{
	sink += p->v * n + v;
	return copy_fn(p, n, v);
}
