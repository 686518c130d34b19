/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A bpfprobe_stack_t value as the output prints it (stack_print.c): in
 * text a frame per line between brackets,
 *
 *	[
 *	    0x55d0c4a1b2c3 weigh (inlined into compare) target.c:33 [/usr/bin/target]
 *	    ...
 *	    [unwind stopped: no CFI for 0x7f... in /usr/lib/...]
 *	]
 *
 * and "[no stack: WHY]" when there is none; in JSON an array of frame
 * objects (unwind/unwinder.h), [{"stopped": WHY}] when there is none.
 */
#ifndef BPFPROBE_OUTPUT_STACK_PRINT_H
#define BPFPROBE_OUTPUT_STACK_PRINT_H

#include <stdio.h>
#include <linux/types.h>

struct bp_json;
struct bp_stacks;

void bp_stack__text(FILE *f, struct bp_stacks *stacks, __u64 id, const char *indent);
void bp_stack__json(struct bp_json *j, struct bp_stacks *stacks, __u64 id);

#endif /* BPFPROBE_OUTPUT_STACK_PRINT_H */
