/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The stacks of `bpfprobe trace --stack` and `--folded` (trace_stacks.c):
 * each hit's stack ids (its BP_TRACE_STACK members) as frames printed
 * under its line, or, folded, counted by distinct stack and printed at
 * exit in the folded form flamegraph.pl, speedscope and inferno read,
 *
 *	outer;...;inner COUNT
 *
 * a line per distinct stack, the user frames first then the kernel's
 * (outermost first), sorted by count then text.
 */
#ifndef BPFPROBE_TRACE_STACKS_H
#define BPFPROBE_TRACE_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct bpfprobe_object;
struct bp_trace_stacks;

/* For obj's stack maps. 0 or a negative errno after a message. */
int bp_trace_stacks__new(struct bpfprobe_object *obj, struct bp_trace_stacks **out);
void bp_trace_stacks__free(struct bp_trace_stacks *ts);

/* Reads the samples waiting (before the hits that name them). */
int bp_trace_stacks__consume(struct bp_trace_stacks *ts);

/*
 * Stack id as text (a frame per line, each after indent, ending in a
 * newline) or as a JSON array (no newline), in a buffer *text of *len
 * bytes the caller frees. 0 or -ENOMEM.
 */
int bp_trace_stacks__format(struct bp_trace_stacks *ts, __u64 id, bool json, const char *indent,
			    char **text, size_t *len);

/* Counts one hit's stack: user id, kernel id (0: none asked). 0 or -ENOMEM. */
int bp_trace_stacks__count(struct bp_trace_stacks *ts, __u64 user, bool has_user, __u64 kernel,
			   bool has_kernel);

/* The counted stacks, folded, in a buffer the caller frees. 0 or -ENOMEM. */
int bp_trace_stacks__folded(struct bp_trace_stacks *ts, char **text, size_t *len);

#endif /* BPFPROBE_TRACE_STACKS_H */
