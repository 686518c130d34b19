// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Recording a diagnosis (see diag.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "probes/diag.h"

void bp_diag__reset(struct bp_diag *d)
{
	if (d)
		memset(d, 0, sizeof(*d));
}

static void set(struct bp_diag *d, const char *arg, bool unavailable,
		const char *fmt, va_list ap)
{
	if (!d || d->failed)
		return;
	d->failed = true;
	d->arg = arg;
	d->unavailable = unavailable;
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
}

void bp_diag__set(struct bp_diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set(d, NULL, false, fmt, ap);
	va_end(ap);
}

void bp_diag__set_arg(struct bp_diag *d, const char *arg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set(d, arg, false, fmt, ap);
	va_end(ap);
}

void bp_diag__unavailable(struct bp_diag *d, const char *arg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set(d, arg, true, fmt, ap);
	va_end(ap);
}

void bp_diag__add(struct bp_diag *d, const char *fmt, ...)
{
	size_t room;
	va_list ap;
	int n;

	if (!d)
		return;
	va_start(ap, fmt);
	if (!d->failed) {
		set(d, NULL, false, fmt, ap);
		va_end(ap);
		return;
	}
	room = sizeof(d->added) - d->added_len;
	/* a line that does not fit whole (with its '\n') is left out */
	n = vsnprintf(d->added + d->added_len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n + 1 >= room) {
		d->added[d->added_len] = '\0';
		return;
	}
	d->added_len += n;
	d->added[d->added_len++] = '\n';
	d->added[d->added_len] = '\0';
}

void bp_diag__warn(struct bp_diag *d, const char *once, const char *fmt, ...)
{
	struct bp_diag_warning *w;
	va_list ap;

	if (!d || d->nwarnings == BP_DIAG_MAX_WARNINGS)
		return;
	w = &d->warnings[d->nwarnings++];
	w->once = once;
	va_start(ap, fmt);
	vsnprintf(w->text, sizeof(w->text), fmt, ap);
	va_end(ap);
}
