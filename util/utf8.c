// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* UTF-8 sequences, and text escaped for a terminal (utf8.h). */
#include <string.h>
#include "util/utf8.h"

/*
 * The length of the sequence lead byte c starts, and the range its second
 * byte must be in (which rules out overlongs and surrogates); 0 when c
 * starts none (ASCII, a continuation byte, an overlong lead, > U+10FFFF).
 */
static size_t lead(unsigned char c, unsigned char *lo, unsigned char *hi)
{
	*lo = 0x80;
	*hi = 0xbf;
	if (c == 0xe0)
		*lo = 0xa0;
	else if (c == 0xed)
		*hi = 0x9f;
	else if (c == 0xf0)
		*lo = 0x90;
	else if (c == 0xf4)
		*hi = 0x8f;
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

/* Whether the n bytes after a lead byte (lo, hi: lead()'s) continue it. */
static bool continues(const unsigned char *s, size_t n, unsigned char lo, unsigned char hi)
{
	if (n && (s[0] < lo || s[0] > hi))
		return false;
	for (size_t i = 1; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return false;
	return true;
}

size_t bp_utf8__seq_len(const unsigned char *s, size_t n)
{
	unsigned char lo, hi;
	size_t len = lead(s[0], &lo, &hi);

	if (!len || len > n || !continues(s + 1, len - 1, lo, hi))
		return 0;
	return len;
}

size_t bp_utf8__partial_tail(const unsigned char *s, size_t n)
{
	for (size_t k = 1; k <= 3 && k <= n; k++) {
		const unsigned char *p = s + n - k;
		unsigned char lo, hi;
		size_t len;

		if (p[0] >= 0x80 && p[0] <= 0xbf)
			continue;	/* a continuation byte: its lead is further back */
		len = lead(p[0], &lo, &hi);
		return len > k && continues(p + 1, k - 1, lo, hi) ? k : 0;
	}
	return 0;
}

/* A C1 control as UTF-8 (U+0080..U+009F): terminals may act on it. */
static bool is_c1(const unsigned char *s, size_t n)
{
	return n >= 2 && s[0] == 0xc2 && s[1] < 0xa0 && s[1] >= 0x80;
}

/* How many bytes at s pass as they are; 0: s[0] is escaped. */
static size_t plain_at(const unsigned char *s, size_t n, unsigned int flags)
{
	unsigned char c = s[0];

	if (c >= 0x20 && c < 0x7f)
		return (flags & BP_ESC_QUOTED) && (c == '"' || c == '\\') ? 0 : 1;
	if (c == '\n' || c == '\t')
		return flags & BP_ESC_QUOTED ? 0 : 1;
	if (c < 0x80 || is_c1(s, n))
		return 0;
	return bp_utf8__seq_len(s, n);
}

size_t bp_utf8__plain_len(const char *s, size_t len, unsigned int flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < len && (k = plain_at(p + i, len - i, flags)))
		i += k;
	return i;
}

size_t bp_utf8__escape(char *dst, const char *s, size_t len, unsigned int flags)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, o = 0, k;

	while (i < len) {
		unsigned char c = p[i];

		k = plain_at(p + i, len - i, flags);
		if (k) {
			memcpy(dst + o, p + i, k);
			o += k;
			i += k;
			continue;
		}
		dst[o++] = '\\';
		if (c == '"' || c == '\\') {
			dst[o++] = (char)c;
		} else if (c == '\n') {
			dst[o++] = 'n';
		} else if (c == '\t') {
			dst[o++] = 't';
		} else if (c == 0x1b) {
			dst[o++] = 'e';
		} else if (is_c1(p + i, len - i)) {
			memcpy(dst + o, "u00", 3);
			dst[o + 3] = digits[p[i + 1] >> 4];
			dst[o + 4] = digits[p[i + 1] & 15];
			o += 5;
			i++;
		} else {
			dst[o++] = 'x';
			dst[o++] = digits[c >> 4];
			dst[o++] = digits[c & 15];
		}
		i++;
	}
	return o;
}

void bp_utf8__fput(FILE *f, const char *s, size_t len, unsigned int flags)
{
	char buf[2 * BP_ESC_MAX];

	while (len) {
		size_t k = bp_utf8__plain_len(s, len, flags);

		if (k) {
			fwrite(s, 1, k, f);
		} else {
			/* one byte, or the two of a C1 control */
			k = is_c1((const unsigned char *)s, len) ? 2 : 1;
			fwrite(buf, 1, bp_utf8__escape(buf, s, k, flags), f);
		}
		s += k;
		len -= k;
	}
}

void bp_utf8__fputs(FILE *f, const char *s)
{
	bp_utf8__fput(f, s, strlen(s), 0);
}
