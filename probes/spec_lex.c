// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The SEC grammar parser's ground (spec_parse.h): its errors, which name
 * the token at fault and the whole text, numbers, and whitespace-separated
 * tokens cut out of the text in place.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "probes/spec_parse.h"

__attribute__((format(printf, 2, 3)))
int bp_spec_err(struct spec_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	char *p;

	if (!ctx->err || !ctx->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(ctx->err, ctx->errlen, fmt, ap);
	va_end(ap);
	/* quoted SEC text may hold newlines or tabs; keep the message one line */
	for (p = ctx->err; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	}
	return -EINVAL;
}

int bp_spec_nomem(struct spec_ctx *ctx)
{
	bp_spec_err(ctx, "out of memory parsing SEC(\"%s\")", ctx->text);
	return -ENOMEM;
}

/* Length of the C identifier at s, 0 if s does not start with one. */
size_t bp_spec_ident_len(const char *s)
{
	size_t n = 0;

	if (!is_ident_start(s[0]))
		return 0;
	while (is_ident_char(s[n]))
		n++;
	return n;
}

static int digit_value(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/*
 * Parses digits in base at s, stopping at the first non-digit (*end).
 * Returns -EINVAL when there is no digit, -ERANGE when the value exceeds max.
 * Hand-rolled because strtoull() also takes signs, spaces and a second "0x".
 */
int bp_spec_parse_uint(const char *s, int base, uint64_t max, uint64_t *out,
		       const char **end)
{
	uint64_t v = 0;
	const char *p;
	int d;

	for (p = s; (d = digit_value(*p)) < base; p++) {
		if (v > (max - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (p == s)
		return -EINVAL;
	*out = v;
	*end = p;
	return 0;
}

char *bp_spec_skip_space(char *p)
{
	while (is_space(*p))
		p++;
	return p;
}

/* Cuts the next whitespace-separated token out of *pos (in place). */
char *bp_spec_next_token(char **pos)
{
	char *p = bp_spec_skip_space(*pos), *start = p;

	if (!*p)
		return NULL;
	while (*p && !is_space(*p))
		p++;
	if (*p)
		*p++ = '\0';
	*pos = p;
	return start;
}

int bp_spec_count_tokens(const char *p)
{
	int n = 0;

	while (*p) {
		while (is_space(*p))
			p++;
		if (!*p)
			break;
		n++;
		while (*p && !is_space(*p))
			p++;
	}
	return n;
}
