/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * bpf_trace_printk output through a tracefs instance of our own
 * (instances/bpfprobe.PID.RANDOM, locked while we live) with only the bpf_trace/bpf_trace_printk event
 * enabled, read from its raw per-CPU buffers (per_cpu/cpuN/trace_pipe_raw)
 * with libtraceevent's kbuffer, and merged across CPUs by timestamp. Other
 * tools' trace_pipe readers neither consume nor see our events.
 *
 * The event itself is global: every instance that enables it gets every
 * program's messages. bp_printk_raw__scope_pid() narrows ours in the
 * kernel to one process and what it forks (set_event_pid + event-fork);
 * output.c adds a format filter (printk_filter.h) on top.
 */
#ifndef BPFPROBE_PRINTK_RAW_H
#define BPFPROBE_PRINTK_RAW_H

#include <sys/types.h>
#include "output/record.h"

struct bp_printk_raw;

typedef void (*bp_printk_msg_fn)(void *ctx, const struct bp_printk_msg *m);
typedef void (*bp_printk_lost_fn)(void *ctx, int cpu, long long missed);

/* Creates the instance and enables the event. NULL on error (message printed). */
struct bp_printk_raw *bp_printk_raw__open(void);

/* Only events of process pid's threads (and of what they fork later). */
int bp_printk_raw__scope_pid(struct bp_printk_raw *pr, pid_t pid);

/* Adds the per-CPU buffer fds to epoll set epfd (readable when data waits). */
int bp_printk_raw__add_to_epoll(struct bp_printk_raw *pr, int epfd);

/*
 * Reads what the buffers hold and calls msg for each message in timestamp
 * order, lost when the kernel dropped events (missed -1: unknown count).
 * Returns the number of messages.
 */
int bp_printk_raw__drain(struct bp_printk_raw *pr, bp_printk_msg_fn msg,
			 bp_printk_lost_fn lost, void *ctx);

/*
 * The top-level instance's bpf_trace_printk event: the kernel turns it on
 * whenever it loads a program that calls bpf_trace_printk, so readers of
 * the global trace_pipe would see our lines. Returns 1, 0 or -errno.
 */
int bp_printk_raw__global_enabled(void);
/* Turns the top-level event off. Returns 0 or -errno. */
int bp_printk_raw__global_disable(void);

/* Disables the event and removes the instance. NULL is fine. */
void bp_printk_raw__close(struct bp_printk_raw *pr);

#endif /* BPFPROBE_PRINTK_RAW_H */
