// SPDX-License-Identifier: GPL-2.0
/*
 * What only some builds of the readable target keep: arithmetic on an
 * entry value (gcc; clang drops s, t, u at the marker), implicit pointers
 * (LTO and clang -O1 and up drop p's location), a clone's dropped
 * parameter (clang's own argument promotion at -O3 leaves no location),
 * location views (gcc's LTO drops x there). tests/e2e/readable.sh says
 * which builds load it.
 */
#include "argx_report.h"

SEC("exec=" TARGET ";ar=ar;sink2=3;* s t u")
int ar(void *ctx, int err, long s, long t, long u)
{
	REPORT(err, "ar", "%ld %ld %ld", s, t, u);
	return 0;
}

SEC("exec=" TARGET ";ip=ip_sum p->x p->y")
int ip(void *ctx, int err, long x, long y)
{
	REPORT(err, "ip", "%ld %ld", x, y);
	return 0;
}

/* gcc's IPA-SRA clone getv.isra.0: fs is what the callers pass */
SEC("exec=" TARGET ";isra=getv fs->other")
int isra(void *ctx, int err, long o)
{
	REPORT(err, "isra", "%ld", o);
	return 0;
}

SEC("exec=" TARGET ";rotl=rotl x n")
int rotl(void *ctx, int err, unsigned long x, long n)
{
	REPORT(err, "rotl", "%lu %ld", x, n);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
