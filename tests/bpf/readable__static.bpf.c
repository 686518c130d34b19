// SPDX-License-Identifier: GPL-2.0
/*
 * A static local of an inlined function, whose DIE only the abstract
 * instance has (the readable target's bump): read at each inlined copy's
 * entry, before the copy adds to it. tests/e2e/readable.sh says which
 * builds load it.
 */
#include "argx_report.h"

SEC("exec=" TARGET ";bump=bump total")
int bump(void *ctx, int err, long total)
{
	REPORT(err, "bump", "%ld", total);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
