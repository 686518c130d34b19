// SPDX-License-Identifier: GPL-2.0
/*
 * An inlined copy's parameters at its entry, which gcc describes with
 * location views (the readable target). tests/e2e/readable.sh says which
 * builds load it.
 */
#include "argx_report.h"

SEC("exec=" TARGET ";rotl=rotl x n")
int rotl(void *ctx, int err, unsigned long x, long n)
{
	REPORT(err, "rotl", "%lu %ld", x, n);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
