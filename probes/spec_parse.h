/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Internal to the SEC grammar parser (bp_spec__parse), shared by its parts:
 *   spec.c         the entry points: a whole SEC text, a spec freed
 *   spec_lex.c     the parse context's errors, numbers, tokens
 *   spec_config.c  config terms (key=value;)
 *   spec_point.c   the probe point ([EVENT=]POINT, map=MAP;update|delete)
 *   spec_arg.c     arguments ([NAME=]EXPR[:TYPE][@user]), a map spec's too
 * and spec_name.c (FUNC's C and C++ names, spec_name.h).
 */
#ifndef BPFPROBE_SPEC_PARSE_H
#define BPFPROBE_SPEC_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/spec.h"

struct spec_ctx {
	const char *text;	/* the whole SEC text, for messages */
	char *err;
	size_t errlen;
};

/* ---- the parse context (spec_lex.c) ------------------------------------- */

/* The message (one line) into ctx->err; returns -EINVAL. */
__attribute__((format(printf, 2, 3)))
int bp_spec_err(struct spec_ctx *ctx, const char *fmt, ...);
/* "out of memory parsing SEC(...)"; returns -ENOMEM. */
int bp_spec_nomem(struct spec_ctx *ctx);

/* ASCII only: the meaning of a SEC string must not depend on the locale */
static inline bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool is_ident_char(char c)
{
	return is_ident_start(c) || is_digit(c);
}

/* Length of the C identifier at s, 0 if s does not start with one. */
size_t bp_spec_ident_len(const char *s);
/*
 * Parses digits in base at s, stopping at the first non-digit (*end).
 * Returns -EINVAL when there is no digit, -ERANGE when the value exceeds max.
 */
int bp_spec_parse_uint(const char *s, int base, uint64_t max, uint64_t *out,
		       const char **end);
char *bp_spec_skip_space(char *p);
/* Cuts the next whitespace-separated token out of *pos (in place). */
char *bp_spec_next_token(char **pos);
int bp_spec_count_tokens(const char *p);

/* ---- config terms (spec_config.c) --------------------------------------- */

/* the keys of spec_config.c's config_key_names, for messages */
#define KEY_NAMES	"exec, module, inlines, force, map, copies, ustack"

/* The key s (len bytes) names, -1 if none. */
int bp_spec_config_key(const char *s, size_t len);
/* The key s (len bytes) is one typo away from, NULL if none. */
const char *bp_spec_key_typo(const char *s, size_t len);
/* Consumes the key=value; prefix of *pos, leaving *pos at the definition. */
int bp_spec_parse_config(struct spec_ctx *ctx, struct bp_spec *spec, char **pos);
/* A ';' may only be in the definition's first token: POINT;PTN. */
int bp_spec_check_semicolons(struct spec_ctx *ctx, char *def);

/* ---- the probe point (spec_point.c) ------------------------------------- */

/* Parses the first token of the definition: [EVENT=]POINT[;PTN]. */
int bp_spec_parse_point(struct spec_ctx *ctx, struct bp_spec *spec,
			const char *tok);
/* The point of a map spec: which operation; exec= and module= do not mix. */
int bp_spec_parse_map_point(struct spec_ctx *ctx, struct bp_spec *spec,
			    const char *tok);

/* ---- arguments (spec_arg.c) --------------------------------------------- */

/* Parses one argument token: [NAME=]EXPR[:TYPE][@user]. */
int bp_spec_parse_arg(struct spec_ctx *ctx, const struct bp_spec *spec,
		      struct bp_arg_spec *arg, const char *tok);
/* Reports the first argument past what any program can take. */
int bp_spec_too_many_args(struct spec_ctx *ctx, char *pos, int nargs);
/* A $special argument of a map spec: refused. */
int bp_spec_map_special_arg(struct spec_ctx *ctx, const struct bp_spec *spec, const char *tok);
/* key, value and flags are all there is; delete has only key. */
int bp_spec_check_map_arg(struct spec_ctx *ctx, const struct bp_spec *spec,
			  const struct bp_arg_spec *arg);

#endif /* BPFPROBE_SPEC_PARSE_H */
