/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The output of a pinned session (load --pin NAME): its ring buffer and
 * perf event array maps, opened from their pins in the session's
 * directory, their records typed by the session's BTF (that of any of its
 * maps created with it: .bss holds the __bpfprobe_record_<map> variables).
 */
#ifndef BPFPROBE_PINNED_H
#define BPFPROBE_PINNED_H

#include <stddef.h>
#include <linux/types.h>

struct bp_emitter;
struct bp_pinned;

/* Opens dir's maps and adds their fds to epfd; -ENOENT when it has none
 * to read (after a message). */
int bp_pinned__open(const char *dir, struct bp_emitter *em, size_t pages, int epfd,
		    struct bp_pinned **out);
/* Emits what waits; returns the records or a negative errno. */
int bp_pinned__consume(struct bp_pinned *p);
__u64 bp_pinned__lost(const struct bp_pinned *p);
void bp_pinned__free(struct bp_pinned *p);

#endif /* BPFPROBE_PINNED_H */
