/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the kernel reports of processes' mappings, for the unwinder of an
 * object whose programs take user stacks: a dummy perf event per CPU
 * (util/perf_sideband.h) asking for executable mappings (MMAP2), execs
 * (COMM with COMM_EXEC), forks and exits (task), each record timed on
 * CLOCK_MONOTONIC as the samples are (bpf_ktime_get_ns()), handed to
 * the unwinder (bp_unwinder__proc_event) in time order.
 *
 * Read before the samples are: a sample taken before a read began
 * (bp_mmap_feed__read_ns) is unwound over everything its process mapped
 * before it; a newer one wants another read first.
 */
#ifndef BPFPROBE_OUTPUT_MMAP_FEED_H
#define BPFPROBE_OUTPUT_MMAP_FEED_H

#include <stddef.h>
#include <linux/types.h>

struct bp_mmap_feed;
struct bp_unwinder;
struct bp_proc_event;

/* Data pages of each CPU's ring: 128 KiB, a few hundred process starts */
#define BP_MMAP_FEED_PAGES	32

/*
 * Opens the events. 0, or a negative errno, nothing printed (-EACCES,
 * -EPERM: perf_event_paranoid or the capabilities refuse; -ENOMEM).
 */
int bp_mmap_feed__open(struct bp_mmap_feed **out);
void bp_mmap_feed__free(struct bp_mmap_feed *f);

/*
 * Hands every record waiting to u, in time order. How many events the
 * unwinder was given, or -ENOMEM. Records the rings had no room for are
 * counted (bp_mmap_feed__lost).
 */
int bp_mmap_feed__read(struct bp_mmap_feed *f, struct bp_unwinder *u);

/* CLOCK_MONOTONIC when the last read began: what happened before it was
 * read (0: never read). */
__u64 bp_mmap_feed__read_ns(const struct bp_mmap_feed *f);

/* Records lost so far: the rings were full. */
__u64 bp_mmap_feed__lost(const struct bp_mmap_feed *f);

/* The events' fds, to poll: each wakes when its ring is half full. */
int bp_mmap_feed__fds(const struct bp_mmap_feed *f, const int **fds);

/*
 * One record of these events (header included, size bytes) as an event:
 * 1 with *ev (its path pointing into rec), 0 for a record that is none
 * (a thread's fork or exit, a rename, a lost count: *lost grows), or
 * -EINVAL when it is too short for its type.
 */
int bp_mmap_feed__parse(const void *rec, size_t size, struct bp_proc_event *ev, __u64 *lost);

#endif /* BPFPROBE_OUTPUT_MMAP_FEED_H */
