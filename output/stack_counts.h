/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Counted stacks: a map keyed by bpfprobe_stack_t whose values are
 * counts. A user stack id is unique to its hit, so equal stacks come as
 * many keys; at exit they are merged by what they print as (their folded
 * frames), the counts summed, and listed from the least counted to the
 * most (stack_counts.c).
 */
#ifndef BPFPROBE_OUTPUT_STACK_COUNTS_H
#define BPFPROBE_OUTPUT_STACK_COUNTS_H

#include <stddef.h>
#include <linux/types.h>

struct bp_stacks;

/* One distinct stack: an id that prints it, and the summed count. */
struct bp_stack_count {
	__u64 id;
	__s64 count;
	char *folded;		/* what the ids were merged by */
};

/*
 * Merges n (ids[i], counts[i]) pairs into *out (*nout of them, sorted by
 * count, then by folded text). 0 or -ENOMEM; free with
 * bp_stack_counts__free().
 */
int bp_stack_counts__merge(struct bp_stacks *stacks, const __u64 *ids, const __s64 *counts,
			   size_t n, struct bp_stack_count **out, size_t *nout);
void bp_stack_counts__free(struct bp_stack_count *c, size_t n);

#endif /* BPFPROBE_OUTPUT_STACK_COUNTS_H */
