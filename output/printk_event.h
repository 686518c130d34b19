/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Decodes bpf_trace_printk events from raw ring buffer data with
 * libtraceevent: the event's format file, as the running kernel describes
 * it, is parsed with tep_parse_event(); fields are then read by name.
 * Pure: no tracefs access, so unit tests feed it formats and pages.
 */
#ifndef BPFPROBE_PRINTK_EVENT_H
#define BPFPROBE_PRINTK_EVENT_H

#include <stddef.h>
#include <linux/types.h>

struct bp_printk_decoder;

/* format: the text of events/bpf_trace/bpf_trace_printk/format. NULL on error. */
struct bp_printk_decoder *bp_printk_decoder__new(const char *format, size_t len);
void bp_printk_decoder__free(struct bp_printk_decoder *d);

/*
 * Decodes one event (data, size: as kbuffer_read_event() gives them).
 * Returns 1 and sets *pid, *msg, *len (trailing newlines dropped, not
 * NUL-terminated) for a bpf_trace_printk event, 0 for any other event.
 */
int bp_printk_decoder__decode(struct bp_printk_decoder *d, void *data, int size,
			      int *pid, const char **msg, size_t *len);

#endif /* BPFPROBE_PRINTK_EVENT_H */
