// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The single print callback shared by the library and libbpf. */
#include <stdio.h>
#include <bpf/libbpf.h>
#include "util/log.h"

static int default_print(enum bpfprobe_print_level level, const char *fmt, va_list ap)
{
	if (level != BPFPROBE_WARN)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static bpfprobe_print_fn_t print_fn = default_print;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* libbpf's warnings repeat what we report ourselves with more context:
	 * show them only with -v (INFO), its debug chatter only with -vv. */
	if (!print_fn)
		return 0;
	return print_fn(level == LIBBPF_DEBUG ? BPFPROBE_DEBUG : BPFPROBE_INFO, fmt, ap);
}

bpfprobe_print_fn_t bpfprobe_set_print(bpfprobe_print_fn_t fn)
{
	bpfprobe_print_fn_t old = print_fn;

	print_fn = fn;
	libbpf_set_print(libbpf_print);
	return old;
}

void bp_log(enum bpfprobe_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}
