/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Which bpf_trace_printk lines are ours. The kernel records no program id
 * with a bpf_trace_printk event, so every tracefs instance that enables it
 * sees every program's lines. Besides the pid scope (printk_raw.h), a line
 * is kept only when one of our programs' format strings could have printed
 * it: the formats are read from the loaded instructions (the R1 argument
 * of each bpf_trace_printk/bpf_trace_vprintk call points into a read-only
 * .rodata map), each becomes a glob ("%ld" -> "*"), and lines are matched
 * with fnmatch(). When a call's format cannot be found (built on the stack,
 * say), the filter lets everything through rather than drop our own lines.
 */
#ifndef BPFPROBE_PRINTK_FILTER_H
#define BPFPROBE_PRINTK_FILTER_H

#include <stdbool.h>
#include <stddef.h>

struct bpf_object;
struct bp_printk_filter;

struct bp_printk_filter *bp_printk_filter__new(void);
void bp_printk_filter__free(struct bp_printk_filter *f);

/* The glob matching what format fmt (len bytes) prints; malloc'ed. */
char *bp_printk_format__glob(const char *fmt, size_t len);

int bp_printk_filter__add_format(struct bp_printk_filter *f, const char *fmt, size_t len);
void bp_printk_filter__allow_all(struct bp_printk_filter *f);
bool bp_printk_filter__allows_all(const struct bp_printk_filter *f);
bool bp_printk_filter__match(const struct bp_printk_filter *f, const char *msg, size_t len);

/*
 * Adds the formats of every loaded program of obj. Returns the number of
 * bpf_trace_printk call sites (0: the object never prints), or a negative
 * errno.
 */
int bp_printk_filter__from_object(struct bp_printk_filter *f, struct bpf_object *obj);

#endif /* BPFPROBE_PRINTK_FILTER_H */
