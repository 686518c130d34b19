/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* One log callback for the whole library (bpfprobe_set_print). */
#ifndef BPFPROBE_LOG_H
#define BPFPROBE_LOG_H

#include <bpfprobe/bpfprobe.h>

void bp_log(enum bpfprobe_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Errors are the messages a user must see: they name the culprit. */
#define bp_err(...)	bp_log(BPFPROBE_WARN, __VA_ARGS__)
#define bp_info(...)	bp_log(BPFPROBE_INFO, __VA_ARGS__)
#define bp_debug(...)	bp_log(BPFPROBE_DEBUG, __VA_ARGS__)

#endif /* BPFPROBE_LOG_H */
