/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A small streaming JSON writer: values go straight to a FILE as they are
 * written, nothing is built in memory. Used by every --json output.
 *
 *	struct bp_json *j = bp_json__new(stdout, NULL);
 *	bp_json__begin_object(j);
 *	bp_json__kv_string(j, "name", "neg_args");
 *	bp_json__key(j, "args");
 *	bp_json__begin_array(j);
 *	bp_json__int(j, -5);
 *	bp_json__end_array(j);
 *	bp_json__end_object(j);
 *	err = bp_json__free(j);		// 0, -EINVAL (misuse) or -EIO
 *
 * Strings are escaped as RFC 8259 requires; bytes that are not valid UTF-8
 * (a path is any byte string) become U+FFFD, so the output is always valid
 * UTF-8 JSON. Each top-level value ends with a newline, so several make
 * JSON Lines. Errors are sticky: after the first misuse (a value where a
 * key is due, an unbalanced end, nesting past BP_JSON_MAX_DEPTH) nothing
 * more is written and bp_json__free() reports it.
 */
#ifndef BPFPROBE_JSON_H
#define BPFPROBE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BP_JSON_MAX_DEPTH	64

struct bp_json;

struct bp_json_opts {
	size_t sz;	/* sizeof(struct bp_json_opts) */
	bool pretty;	/* one member/element per line, indented */
	int indent;	/* spaces per level when pretty; 0 means 2 */
};

/* NULL opts: one-line output. Returns NULL when out of memory. */
struct bp_json *bp_json__new(FILE *out, const struct bp_json_opts *opts);

/*
 * Frees j (NULL is fine) and says how writing went: 0, -EINVAL when it
 * was misused or a container is left open, -EIO when the stream failed.
 * The stream is flushed, not closed.
 */
int bp_json__free(struct bp_json *j);

/* The first error so far (see bp_json__free), 0 if none. */
int bp_json__error(const struct bp_json *j);

void bp_json__begin_object(struct bp_json *j);
void bp_json__end_object(struct bp_json *j);
void bp_json__begin_array(struct bp_json *j);
void bp_json__end_array(struct bp_json *j);

/* A value already in JSON (another writer's output), written as it is. */
void bp_json__raw(struct bp_json *j, const char *json);

/* In an object, every value is preceded by its key. */
void bp_json__key(struct bp_json *j, const char *key);

/* NULL writes null. */
void bp_json__string(struct bp_json *j, const char *s);
/* len bytes of s, NUL bytes included (escaped as \u0000). */
void bp_json__string_len(struct bp_json *j, const char *s, size_t len);
void bp_json__stringf(struct bp_json *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bp_json__int(struct bp_json *j, int64_t v);
void bp_json__uint(struct bp_json *j, uint64_t v);
void bp_json__bool(struct bp_json *j, bool v);
void bp_json__null(struct bp_json *j);

/* key and value in one call */
void bp_json__kv_string(struct bp_json *j, const char *key, const char *s);
void bp_json__kv_int(struct bp_json *j, const char *key, int64_t v);
void bp_json__kv_uint(struct bp_json *j, const char *key, uint64_t v);
void bp_json__kv_bool(struct bp_json *j, const char *key, bool v);
void bp_json__kv_null(struct bp_json *j, const char *key);

#endif /* BPFPROBE_JSON_H */
