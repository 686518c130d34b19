/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* One log callback for the whole library (bpfprobe_set_print). */
#ifndef BPFPROBE_LOG_H
#define BPFPROBE_LOG_H

#include <bpfprobe/bpfprobe.h>

void bp_log(enum bpfprobe_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * While libbpf's messages come through ours (bpfprobe_route_libbpf_print),
 * its warnings are kept in buf (their first size - 1 bytes) instead of
 * printed, until released: at level, after the message that says what
 * failed (their first line is often the reason). Callers hold
 * the section handler's lock (loader/object.h) across both.
 */
void bp_log__hold_libbpf(char *buf, size_t size);
void bp_log__release_libbpf(enum bpfprobe_print_level level);

/* Errors are the messages a user must see: they name the culprit. */
#define bp_err(...)	bp_log(BPFPROBE_WARN, __VA_ARGS__)
#define bp_info(...)	bp_log(BPFPROBE_INFO, __VA_ARGS__)
#define bp_debug(...)	bp_log(BPFPROBE_DEBUG, __VA_ARGS__)

#endif /* BPFPROBE_LOG_H */
