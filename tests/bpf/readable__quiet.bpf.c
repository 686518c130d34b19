// SPDX-License-Identifier: GPL-2.0
/*
 * A parameter at its function's entry whose location list says "views
 * 0..3: rdi", then "view 3 on: constant 0" at the same address (the
 * readable target's quiet_entry): at the entry it is the pointer passed.
 * tests/e2e/readable.sh says which builds describe it so.
 */
#include "argx_report.h"

SEC("exec=" TARGET ";quiet=quiet_entry st->other")
int quiet(void *ctx, int err, long other)
{
	REPORT(err, "quiet", "%ld", other);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
