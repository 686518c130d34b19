// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A stack's frames and their strings, and the forms they are printed in:
 * a line per frame, JSON, folded.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/uw_frames.h"
#include "util/grow.h"
#include "util/json.h"
#include "util/utf8.h"

/* The strings of one stack: chunks that never move, so that the frames
 * may point into them. */
struct uw_chunk {
	struct uw_chunk *next;
	size_t used, size;
	char data[];
};

#define CHUNK_SIZE	4000

static char *strs_add(struct bp_frames *f, const char *s)
{
	struct uw_chunk *c = f->strs;
	size_t len = strlen(s) + 1;
	char *p;

	if (!c || c->size - c->used < len) {
		size_t size = len > CHUNK_SIZE ? len : CHUNK_SIZE;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->next = f->strs;
		c->used = 0;
		c->size = size;
		f->strs = c;
	}
	p = c->data + c->used;
	memcpy(p, s, len);
	c->used += len;
	return p;
}

void uw_frames__init(struct bp_frames *f, bool kernel)
{
	memset(f, 0, sizeof(*f));
	f->kernel = kernel;
}

void bp_frames__free(struct bp_frames *f)
{
	struct uw_chunk *c, *next;

	if (!f)
		return;
	for (c = f->strs; c; c = next) {
		next = c->next;
		free(c);
	}
	free(f->frames);
	memset(f, 0, sizeof(*f));
}

/* A copy of s in f, reusing the previous frame's copy of the same
 * string (a module, a file, an inlined call's caller). */
static int copy_str(struct bp_frames *f, const char **s, const char *prev_copy)
{
	if (!*s)
		return 0;
	if (prev_copy && !strcmp(*s, prev_copy)) {
		*s = prev_copy;
		return 0;
	}
	*s = strs_add(f, *s);
	return *s ? 0 : -ENOMEM;
}

int uw_frames__push(struct bp_frames *f, const struct bp_frame *fr)
{
	const struct bp_frame *prev;
	struct bp_frame c = *fr;
	int err;

	err = bp_grow((void **)&f->frames, f->n, &f->cap, sizeof(*f->frames), 16);
	if (err)
		return err;
	prev = f->n ? &f->frames[f->n - 1] : NULL;
	err = copy_str(f, &c.func, prev ? prev->func : NULL);
	if (!err)
		err = copy_str(f, &c.inlined_into, prev ? prev->func : NULL);
	if (!err)
		err = copy_str(f, &c.file, prev ? prev->file : NULL);
	if (!err)
		err = copy_str(f, &c.module, prev ? prev->module : NULL);
	if (err)
		return err;
	f->frames[f->n++] = c;
	return 0;
}

int uw_frames__stop(struct bp_frames *f, enum bp_unwind_stop stop, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	f->stop = stop;
	f->reason = NULL;
	if (stop == BP_UNWIND_END || !fmt)
		return 0;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	f->reason = strs_add(f, buf);
	return f->reason ? 0 : -ENOMEM;
}

int bp_frames__stop_snprintf(const struct bp_frames *f, char *buf, size_t size)
{
	if (f->stop == BP_UNWIND_END)
		return -ENOENT;
	return snprintf(buf, size, "[unwind stopped: %s]", f->reason ? f->reason : "?");
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int bp_frame__snprintf(const struct bp_frame *fr, char *buf, size_t size)
{
	size_t len = 0;
	int n;

#define ADD(...) do {								\
		n = snprintf(buf + (len < size ? len : size),			\
			     len < size ? size - len : 0, __VA_ARGS__);		\
		if (n < 0)							\
			return n;						\
		len += n;							\
	} while (0)

	if (!size)
		buf = NULL;
	ADD("0x%" PRIx64 " %s", (uint64_t)fr->addr, fr->func ? fr->func : "??");
	if (fr->has_off && (!fr->file || !fr->line))
		ADD("+0x%" PRIx64, (uint64_t)fr->func_off);
	if (fr->is_inline)
		ADD(" (inlined into %s)", fr->inlined_into ? fr->inlined_into : "??");
	if (fr->file && fr->line)
		ADD(" %s:%d", base_name(fr->file), fr->line);
	if (fr->module)
		ADD(" [%s]", fr->module);
#undef ADD
	return len;
}

/* One frame's line: its names came from DWARF, escaped for a terminal. */
static void put_line(FILE *out, const char *indent, const char *text)
{
	fputs(indent ? indent : "", out);
	bp_utf8__fputs(out, text);
	fputc('\n', out);
}

void bp_frames__fprint(const struct bp_frames *f, FILE *out, const char *indent)
{
	char buf[1024];
	int i;

	for (i = 0; i < f->n; i++) {
		int n = bp_frame__snprintf(&f->frames[i], buf, sizeof(buf));

		if (n >= (int)sizeof(buf)) {
			/* a long C++ name: print it whole */
			char *big = malloc(n + 1);

			if (big && bp_frame__snprintf(&f->frames[i], big, n + 1) == n)
				put_line(out, indent, big);
			free(big);
			continue;
		}
		put_line(out, indent, buf);
	}
	if (bp_frames__stop_snprintf(f, buf, sizeof(buf)) > 0)
		put_line(out, indent, buf);
}

void bp_frames__write_json(const struct bp_frames *f, struct bp_json *j)
{
	int i;

	bp_json__begin_array(j);
	for (i = 0; i < f->n; i++) {
		const struct bp_frame *fr = &f->frames[i];

		bp_json__begin_object(j);
		bp_json__key(j, "addr");
		bp_json__stringf(j, "0x%" PRIx64, (uint64_t)fr->addr);
		if (fr->func)
			bp_json__kv_string(j, "func", fr->func);
		if (fr->has_off)
			bp_json__kv_uint(j, "offset", fr->func_off);
		if (fr->is_inline)
			bp_json__kv_string(j, "inlined_into", fr->inlined_into);
		if (fr->file)
			bp_json__kv_string(j, "file", fr->file);
		if (fr->line)
			bp_json__kv_int(j, "line", fr->line);
		if (fr->module)
			bp_json__kv_string(j, "module", fr->module);
		bp_json__kv_bool(j, "inline", fr->is_inline);
		bp_json__end_object(j);
	}
	if (f->stop != BP_UNWIND_END) {
		bp_json__begin_object(j);
		bp_json__kv_string(j, "stopped", f->reason ? f->reason : "?");
		bp_json__end_object(j);
	}
	bp_json__end_array(j);
}

char *bp_frames__folded(const struct bp_frames *f)
{
	static const char stopped[] = "[unwind stopped]";
	size_t len = 1, pos = 0;
	char *s;
	int i;

	if (f->stop != BP_UNWIND_END)
		len += sizeof(stopped);
	for (i = 0; i < f->n; i++)
		len += strlen(f->frames[i].func ? f->frames[i].func : "??") + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	if (f->stop != BP_UNWIND_END) {
		memcpy(s, stopped, sizeof(stopped) - 1);
		pos = sizeof(stopped) - 1;
	}
	for (i = f->n - 1; i >= 0; i--) {
		const char *name = f->frames[i].func ? f->frames[i].func : "??";
		size_t n = strlen(name);

		if (pos)
			s[pos++] = ';';
		memcpy(s + pos, name, n);
		pos += n;
	}
	s[pos] = 0;
	return s;
}
