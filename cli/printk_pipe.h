/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * bpf_trace_printk output through a tracefs instance of our own, so we do
 * not consume the global trace_pipe other tools read.
 */
#ifndef BPFPROBE_PRINTK_PIPE_H
#define BPFPROBE_PRINTK_PIPE_H

#include <stdio.h>

struct bp_printk_pipe;

struct bp_printk_pipe *bp_printk_pipe__open(void);
int bp_printk_pipe__fd(const struct bp_printk_pipe *pp);
/* Reads what is available and writes each message, one line, to out. */
int bp_printk_pipe__drain(struct bp_printk_pipe *pp, FILE *out);
void bp_printk_pipe__close(struct bp_printk_pipe *pp);

#endif /* BPFPROBE_PRINTK_PIPE_H */
