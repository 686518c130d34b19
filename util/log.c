// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The library's print callback, and libbpf's when the application asks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "util/log.h"
#include "util/utf8.h"

/* Messages name what came from outside (DWARF names, paths, SEC text): a
 * terminal is shown them with its control characters escaped (utf8.h). */
static int default_print(enum bpfprobe_print_level level, const char *fmt, va_list ap)
{
	char small[1024], *msg = small;
	va_list aq;
	int n;

	if (level != BPFPROBE_WARN)
		return 0;
	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n < 0)
		return n;
	if ((size_t)n >= sizeof(small)) {
		msg = malloc((size_t)n + 1);
		if (msg)
			vsnprintf(msg, (size_t)n + 1, fmt, ap);
		else
			msg = small;	/* cut, but still escaped */
	}
	bp_utf8__fput(stderr, msg, msg == small && (size_t)n >= sizeof(small) ?
		      sizeof(small) - 1 : (size_t)n, 0);
	if (msg != small)
		free(msg);
	return n;
}

static bpfprobe_print_fn_t print_fn = default_print;
/* libbpf's callback before bpfprobe_route_libbpf_print(true) replaced it */
static libbpf_print_fn_t libbpf_prev;
static bool routed;
/* bp_log__hold_libbpf(): libbpf's warnings are kept here until released */
static char *held;
static size_t held_len, held_size;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	enum bpfprobe_print_level l = BPFPROBE_WARN;

	/* libbpf warns about real failures (map creation, verifier logs of
	 * the prototype): those reach the user; its chatter needs -v/-vv. */
	if (level == LIBBPF_INFO)
		l = BPFPROBE_INFO;
	else if (level == LIBBPF_DEBUG)
		l = BPFPROBE_DEBUG;
	if (l == BPFPROBE_WARN && held) {
		int n = vsnprintf(held + held_len, held_size - held_len, fmt, ap);

		if (n > 0)
			held_len += (size_t)n < held_size - held_len ? (size_t)n :
				    held_size - held_len - 1;
		return n;
	}
	if (!print_fn)
		return 0;
	return print_fn(l, fmt, ap);
}

void bp_log__hold_libbpf(char *buf, size_t size)
{
	held = size ? buf : NULL;
	held_size = size;
	held_len = 0;
	if (held)
		held[0] = '\0';
}

void bp_log__release_libbpf(enum bpfprobe_print_level level)
{
	char *buf = held;

	held = NULL;
	if (buf && held_len)
		bp_log(level, "%s", buf);
}

bpfprobe_print_fn_t bpfprobe_set_print(bpfprobe_print_fn_t fn)
{
	bpfprobe_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

void bpfprobe_route_libbpf_print(bool route)
{
	if (route && !routed)
		libbpf_prev = libbpf_set_print(libbpf_print);
	else if (!route && routed)
		libbpf_set_print(libbpf_prev);
	routed = route;
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
