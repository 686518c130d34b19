/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The benchmark application's shared declarations (bench/app_*.c). */
#ifndef BENCH_APP_H
#define BENCH_APP_H

#define NOINLINE __attribute__((noinline, used))

struct node {
	long v;
	struct node *next;
};

extern volatile long sink;

/* bench/app_cu.c is compiled once per CU number 00..77 (two octal digits,
 * 64 CUs); each defines fd_CU(p, n, v) and a static copy_fn(p, n, v). */

#endif /* BENCH_APP_H */
