// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The streaming JSON writer (see util/json.h). */
#define _GNU_SOURCE		/* vasprintf */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/utf8.h"

struct json_frame {
	bool is_object;
	bool has_key;		/* objects: a key was written, its value is due */
	int count;		/* members or elements so far */
};

struct bp_json {
	FILE *out;
	bool pretty;
	int indent;
	int depth;
	int err;
	struct json_frame stack[BP_JSON_MAX_DEPTH];
};

struct bp_json *bp_json__new(FILE *out, const struct bp_json_opts *opts)
{
	struct bp_json *j;

	if (!out)
		return NULL;
	j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	j->out = out;
	if (opts && opts->sz >= offsetof(struct bp_json_opts, pretty) + sizeof(bool))
		j->pretty = opts->pretty;
	if (opts && opts->sz >= offsetof(struct bp_json_opts, indent) + sizeof(int))
		j->indent = opts->indent;
	if (j->indent <= 0)
		j->indent = 2;
	return j;
}

int bp_json__error(const struct bp_json *j)
{
	if (!j)
		return -EINVAL;
	if (j->err)
		return j->err;
	return ferror(j->out) ? -EIO : 0;
}

int bp_json__free(struct bp_json *j)
{
	int err;

	if (!j)
		return 0;
	if (!j->err && j->depth)
		j->err = -EINVAL;	/* a container left open */
	if (fflush(j->out) && !j->err)
		j->err = -EIO;
	err = bp_json__error(j);
	free(j);
	return err;
}

static struct json_frame *top(struct bp_json *j)
{
	return j->depth ? &j->stack[j->depth - 1] : NULL;
}

static void newline_indent(struct bp_json *j)
{
	if (!j->pretty)
		return;
	fprintf(j->out, "\n%*s", j->depth * j->indent, "");
}

/* Writes what must come before a value here; false (and sticky error)
 * when no value may come here. */
static bool before_value(struct bp_json *j)
{
	struct json_frame *f;

	if (j->err)
		return false;
	f = top(j);
	if (!f)
		return true;
	if (f->is_object) {
		if (!f->has_key) {
			j->err = -EINVAL;
			return false;
		}
		f->has_key = false;
		return true;
	}
	if (f->count++)
		fputc(',', j->out);
	newline_indent(j);
	return true;
}

/* A complete top-level value ends its line. */
static void after_value(struct bp_json *j)
{
	if (!j->depth)
		fputc('\n', j->out);
}

static void write_escaped(FILE *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, len;

	fputc('"', out);
	while (i < n) {
		unsigned char c = s[i];

		switch (c) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(out, "\\u%04x", c);
			} else if (c < 0x80) {
				fputc(c, out);
			} else if ((len = bp_utf8__seq_len(s + i, n - i))) {
				fwrite(s + i, 1, len, out);
				i += len;
				continue;
			} else {
				fputs("\\ufffd", out);
			}
		}
		i++;
	}
	fputc('"', out);
}

static void begin(struct bp_json *j, bool is_object)
{
	if (!before_value(j))
		return;
	if (j->depth == BP_JSON_MAX_DEPTH) {
		j->err = -E2BIG;
		return;
	}
	fputc(is_object ? '{' : '[', j->out);
	j->stack[j->depth++] = (struct json_frame){ .is_object = is_object };
}

void bp_json__raw(struct bp_json *j, const char *json)
{
	if (!before_value(j))
		return;
	fputs(json, j->out);
	after_value(j);
}

static void end(struct bp_json *j, bool is_object)
{
	struct json_frame *f = top(j);
	bool empty;

	if (j->err)
		return;
	if (!f || f->is_object != is_object || f->has_key) {
		j->err = -EINVAL;
		return;
	}
	empty = !f->count;
	j->depth--;
	if (!empty)
		newline_indent(j);
	fputc(is_object ? '}' : ']', j->out);
	after_value(j);
}

void bp_json__begin_object(struct bp_json *j)
{
	begin(j, true);
}

void bp_json__end_object(struct bp_json *j)
{
	end(j, true);
}

void bp_json__begin_array(struct bp_json *j)
{
	begin(j, false);
}

void bp_json__end_array(struct bp_json *j)
{
	end(j, false);
}

void bp_json__key(struct bp_json *j, const char *key)
{
	struct json_frame *f = top(j);

	if (j->err)
		return;
	if (!f || !f->is_object || f->has_key || !key) {
		j->err = -EINVAL;
		return;
	}
	if (f->count++)
		fputc(',', j->out);
	newline_indent(j);
	write_escaped(j->out, key, strlen(key));
	fputs(j->pretty ? ": " : ":", j->out);
	f->has_key = true;
}

void bp_json__string_len(struct bp_json *j, const char *s, size_t len)
{
	if (!s && len) {
		j->err = j->err ? j->err : -EINVAL;
		return;
	}
	if (!before_value(j))
		return;
	write_escaped(j->out, s ? s : "", len);
	after_value(j);
}

void bp_json__string(struct bp_json *j, const char *s)
{
	if (!s)
		bp_json__null(j);
	else
		bp_json__string_len(j, s, strlen(s));
}

void bp_json__stringf(struct bp_json *j, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		j->err = j->err ? j->err : -ENOMEM;
		return;
	}
	bp_json__string_len(j, s, n);
	free(s);
}

/* A bare token: a number, true, false, null. */
static void raw(struct bp_json *j, const char *text)
{
	if (!before_value(j))
		return;
	fputs(text, j->out);
	after_value(j);
}

void bp_json__int(struct bp_json *j, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	raw(j, buf);
}

void bp_json__uint(struct bp_json *j, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	raw(j, buf);
}

void bp_json__bool(struct bp_json *j, bool v)
{
	raw(j, v ? "true" : "false");
}

void bp_json__null(struct bp_json *j)
{
	raw(j, "null");
}

void bp_json__kv_string(struct bp_json *j, const char *key, const char *s)
{
	bp_json__key(j, key);
	bp_json__string(j, s);
}

void bp_json__kv_int(struct bp_json *j, const char *key, int64_t v)
{
	bp_json__key(j, key);
	bp_json__int(j, v);
}

void bp_json__kv_uint(struct bp_json *j, const char *key, uint64_t v)
{
	bp_json__key(j, key);
	bp_json__uint(j, v);
}

void bp_json__kv_bool(struct bp_json *j, const char *key, bool v)
{
	bp_json__key(j, key);
	bp_json__bool(j, v);
}

void bp_json__kv_null(struct bp_json *j, const char *key)
{
	bp_json__key(j, key);
	bp_json__null(j);
}
