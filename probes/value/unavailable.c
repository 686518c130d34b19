// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * An argument with no value at the probe address (optimized out there, in
 * a floating-point register, known only to its callers): the diagnosis
 * that says so, with the address as an offset into the function that has
 * the frame. Where else it can be read is added by probes/dwarf/arg.c.
 */
#include <inttypes.h>
#include <stdio.h>

#include "probes/value/value.h"

const char *bp_arg__frame_name(const struct bp_arg_ctx *c)
{
	return c->frame_name ? c->frame_name : "the function";
}

/*
 * The argument has no value at c->addr: "WHAT at ADDR (FUNC+OFF)[:
 * DETAIL]", offsets counted from the entry of the function that has the
 * frame. Where else it can be read is the caller's to add.
 */
int bp_arg__unavailable(const struct bp_arg_ctx *c, int err, const char *what,
			const char *detail)
{
	char here[64] = "";

	if (c->func_entry && c->addr >= c->func_entry)
		snprintf(here, sizeof(here), " (%s+0x%" PRIx64 ")", bp_arg__frame_name(c),
			 c->addr - c->func_entry);
	bp_diag__unavailable(c->diag, c->arg, "%s at 0x%" PRIx64 "%s%s%s", what, c->addr,
			     here, detail && *detail ? ": " : "", detail ? detail : "");
	return err;
}
