/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The stacks of one loaded object, by the ids its programs were given
 * (bpfprobe_stack_t): user stack samples read from the object's ring of
 * samples and unwound as they arrive (unwind/unwinder.h), kernel stacks
 * looked up in its stack map when first asked for. Equal stacks are kept
 * once; the ids of the last BP_STACKS_MAX_IDS samples are kept, older
 * ones are said to be gone.
 *
 * A user stack is unwound over its process's modules at the sample's
 * time, as the kernel reports them (output/mmap_feed.h: read before each
 * batch of samples), on top of a /proc snapshot for a process older than
 * the object's stacks; when the kernel refuses the reports, over the
 * snapshot of /proc/PID/maps taken when the pid's first sample is read
 * (said once at -v).
 *
 * The output reads the samples before the records that name them
 * (bp_stacks__consume() first): a program's sample is written before its
 * record.
 */
#ifndef BPFPROBE_OUTPUT_STACK_CACHE_H
#define BPFPROBE_OUTPUT_STACK_CACHE_H

#include <stddef.h>
#include <linux/types.h>

struct bp_stacks;
struct bp_frames;

#define BP_STACKS_MAX_IDS	(1 << 20)

/*
 * For the maps of bpfprobe_object__stack_fds() (-1: none). 0 with *out
 * set, or a negative errno after a message.
 */
int bp_stacks__new(int samples_fd, int kstacks_fd, struct bp_stacks **out);
void bp_stacks__free(struct bp_stacks *s);

/* Reads and unwinds the samples waiting. How many, or a negative errno. */
int bp_stacks__consume(struct bp_stacks *s);

/* The fds of the reports of mappings, for the output to poll (they wake
 * it before their rings fill); how many (0: none). */
int bp_stacks__fds(const struct bp_stacks *s, const int **fds);

/*
 * The frames of stack id, or NULL with *why saying why there are none
 * ("no stack: the fetch failed", "the sample of stack 0x.. was lost",
 * ...). The frames stay valid until the next call of consume or free.
 */
const struct bp_frames *bp_stacks__find(struct bp_stacks *s, __u64 id, const char **why);

#endif /* BPFPROBE_OUTPUT_STACK_CACHE_H */
