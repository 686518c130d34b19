// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Capturing the library's error messages during a call (see log_capture.h). */
#include <stdio.h>
#include <string.h>

#include "util/log_capture.h"

static struct bp_log_capture *active;

static int capture_print(enum bpfprobe_print_level level, const char *fmt, va_list ap)
{
	struct bp_log_capture *c = active;
	int n;

	if (!c)
		return 0;
	if (level != BPFPROBE_WARN)
		return c->prev ? c->prev(level, fmt, ap) : 0;
	if (c->len >= sizeof(c->buf) - 1)
		return 0;
	n = vsnprintf(c->buf + c->len, sizeof(c->buf) - c->len, fmt, ap);
	if (n > 0)
		c->len += (size_t)n < sizeof(c->buf) - c->len ? (size_t)n :
			  sizeof(c->buf) - 1 - c->len;
	return n;
}

void bp_log_capture__begin(struct bp_log_capture *c)
{
	c->buf[0] = '\0';
	c->len = 0;
	active = c;
	c->prev = bpfprobe_set_print(capture_print);
}

void bp_log_capture__end(struct bp_log_capture *c)
{
	bpfprobe_set_print(c->prev);
	active = NULL;
}
