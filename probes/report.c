// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The drivers' messages: printed or kept (see report.h). */
#define _GNU_SOURCE		/* vasprintf */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/report.h"
#include "util/log.h"

#define MAX_ONCE	8

/* Keys of the once-per-process warnings said so far. */
static const char *said[MAX_ONCE];
static int nsaid;

static bool say_once(const char *key)
{
	int i;

	for (i = 0; i < nsaid; i++) {
		if (!strcmp(said[i], key))
			return false;
	}
	if (nsaid < MAX_ONCE)
		said[nsaid++] = key;
	return true;
}

/* Keeps len bytes of s (a line without its '\n') as one more culprit. */
static void keep_line(struct bp_report *r, const char *s, size_t len)
{
	size_t room;

	if (!len)
		return;
	if (r->len && r->len + 2 < sizeof(r->text)) {
		memcpy(r->text + r->len, "; ", 2);
		r->len += 2;
	}
	room = sizeof(r->text) - 1 - r->len;
	if (len > room)
		len = room;
	memcpy(r->text + r->len, s, len);
	r->len += len;
	r->text[r->len] = '\0';
}

/* r keeps its lines (a NULL report or one that says them does not). */
static bool keeps(const struct bp_report *r)
{
	return r && !r->say;
}

/* A line printed: counted in a report that says its lines. */
static void said_one(struct bp_report *r)
{
	if (r)
		r->said++;
}

/* Each '\n'-terminated line of s, kept or printed. */
static void lines(struct bp_report *r, const char *s)
{
	const char *nl;

	for (; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			nl = s + strlen(s);
		if (keeps(r)) {
			keep_line(r, s, nl - s);
		} else {
			bp_err("%.*s\n", (int)(nl - s), s);
			said_one(r);
		}
		if (!*nl)
			break;
	}
}

void bp_report__line(struct bp_report *r, const char *fmt, ...)
{
	char buf[4096], *big = NULL;
	const char *line = buf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* a longer line is said whole when there is memory for it (this
	 * may be the line saying there is none: then truncated) */
	if ((size_t)n >= sizeof(buf)) {
		va_start(ap, fmt);
		if (vasprintf(&big, fmt, ap) >= 0)
			line = big;
		else
			big = NULL;
		va_end(ap);
	}
	if (keeps(r)) {
		lines(r, line);
	} else {
		bp_err("%s", line);
		said_one(r);
	}
	free(big);
}

void bp_report__diag(struct bp_report *r, struct bp_diag *d, const char *where)
{
	char buf[BP_DIAG_MSG_SIZE + BP_DIAG_AVAIL_SIZE];
	int i;

	for (i = 0; i < d->nwarnings; i++) {
		const struct bp_diag_warning *w = &d->warnings[i];

		if (w->once && !say_once(w->once)) {
			said_one(r);	/* said before: not given again */
			continue;
		}
		if (keeps(r)) {
			keep_line(r, w->text, strlen(w->text));
		} else {
			bp_err("%s\n", w->text);
			said_one(r);
		}
	}
	if (d->failed && d->arg) {
		snprintf(buf, sizeof(buf), "%s%s", d->msg, d->avail);
		if (keeps(r)) {
			keep_line(r, buf, strlen(buf));
		} else {
			bp_err("%s: argument '%s': %s\n", where ? where : "?", d->arg, buf);
			said_one(r);
		}
	} else if (d->failed) {
		if (keeps(r)) {
			keep_line(r, d->msg, strlen(d->msg));
		} else {
			bp_err("%s\n", d->msg);
			said_one(r);
		}
	}
	if (d->failed)
		lines(r, d->added);
	bp_diag__reset(d);
}
