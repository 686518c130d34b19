// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The SEC grammar parser's ground (spec_parse.h): its errors, which name
 * the token at fault and the whole text, numbers, and whitespace-separated
 * tokens cut out of the text in place.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/spec_parse.h"

__attribute__((format(printf, 2, 3)))
int bp_spec_err(struct spec_ctx *ctx, const char *fmt, ...)
{
	size_t n = 0, i;
	va_list ap;
	char *raw;

	if (!ctx->err || !ctx->errlen)
		return -EINVAL;
	raw = malloc(ctx->errlen);
	va_start(ap, fmt);
	vsnprintf(raw ? raw : ctx->err, ctx->errlen, fmt, ap);
	va_end(ap);
	if (!raw) {
		/* no room to escape: the message on one line at least */
		for (char *p = ctx->err; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = ' ';
		return -EINVAL;
	}
	/*
	 * Quoted SEC text may hold any byte: the message stays one line and
	 * names the culprit, a control character written as C writes it
	 * (\n, \t, \e, \xNN), never a whole escape cut off at the end.
	 */
	for (i = 0; raw[i]; i++) {
		unsigned char c = raw[i];
		char esc[5];
		int len;

		if (c == '\n')
			len = snprintf(esc, sizeof(esc), "\\n");
		else if (c == '\t')
			len = snprintf(esc, sizeof(esc), "\\t");
		else if (c == 0x1b)
			len = snprintf(esc, sizeof(esc), "\\e");
		else if (c < 0x20 || c == 0x7f)
			len = snprintf(esc, sizeof(esc), "\\x%02x", c);
		else
			len = snprintf(esc, sizeof(esc), "%c", c);
		if (n + len >= ctx->errlen)
			break;
		memcpy(ctx->err + n, esc, len);
		n += len;
	}
	ctx->err[n] = '\0';
	free(raw);
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
