/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Capturing the error messages (BPFPROBE_WARN) the library prints during a
 * call, to show them as data instead: `bpfprobe vars` reports why the
 * resolver would refuse a variable with the resolver's own words. Other
 * levels still reach the current print callback. Not reentrant.
 */
#ifndef BPFPROBE_LOG_CAPTURE_H
#define BPFPROBE_LOG_CAPTURE_H

#include <stddef.h>
#include <bpfprobe/bpfprobe.h>

#define BP_LOG_CAPTURE_SIZE	1024

struct bp_log_capture {
	char buf[BP_LOG_CAPTURE_SIZE];	/* messages, concatenated, truncated */
	size_t len;
	bpfprobe_print_fn_t prev;
};

void bp_log_capture__begin(struct bp_log_capture *c);
void bp_log_capture__end(struct bp_log_capture *c);

#endif /* BPFPROBE_LOG_CAPTURE_H */
