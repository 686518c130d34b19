/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Thread names for printk lines: trace events carry only the pid. Read
 * from /proc while the thread lives; for one that has exited, the name we
 * saw last, else the kernel's saved_cmdlines (recorded at context switch
 * while events are enabled), else "<...>" as ftrace prints.
 */
#ifndef BPFPROBE_COMM_H
#define BPFPROBE_COMM_H

struct bp_comm_cache;

struct bp_comm_cache *bp_comm_cache__new(const char *tracefs_root);
void bp_comm_cache__free(struct bp_comm_cache *c);

/* Names looked up before this call are looked up again (a thread may exec). */
void bp_comm_cache__next_round(struct bp_comm_cache *c);

/* The name of thread pid; valid until the next call. */
const char *bp_comm_cache__get(struct bp_comm_cache *c, int pid);

#endif /* BPFPROBE_COMM_H */
