// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Stack ids printed as their frames (stack_print.h). */
#include "output/stack_cache.h"
#include "output/stack_print.h"
#include "unwind/unwinder.h"
#include "util/json.h"

void bp_stack__text(FILE *f, struct bp_stacks *stacks, __u64 id, const char *indent)
{
	const struct bp_frames *fr;
	const char *why = NULL;

	fr = bp_stacks__find(stacks, id, &why);
	if (!fr) {
		fprintf(f, "[%s]", why);
		return;
	}
	fputs("[\n", f);
	bp_frames__fprint(fr, f, indent);
	fputs("]", f);
}

void bp_stack__json(struct bp_json *j, struct bp_stacks *stacks, __u64 id)
{
	const struct bp_frames *fr;
	const char *why = NULL;

	fr = bp_stacks__find(stacks, id, &why);
	if (fr) {
		bp_frames__write_json(fr, j);
		return;
	}
	bp_json__begin_array(j);
	bp_json__begin_object(j);
	bp_json__kv_string(j, "stopped", why);
	bp_json__end_object(j);
	bp_json__end_array(j);
}
