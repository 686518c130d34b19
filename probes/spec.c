// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Parser for the perf-probe style text a program carries in SEC():
 *
 *   [key=value;]... [EVENT=]POINT [ARG ...]
 *
 * The parser only checks syntax; whether the function, the variables and
 * the members exist is the resolver's business. Every error names the token
 * that caused it, because the user only sees the message, not the parser.
 */
#define _GNU_SOURCE		/* asprintf */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "probes/spec.h"
#include "probes/spec_name.h"

/* passed through "%s": a '%' in a format string would be a conversion */
#define POINT_FORMS	"POINT is FUNC[@SRC][+OFFS|%return|:RLN|;PTN], SRC:ALN or SRC;PTN"
#define EXPR_FORMS	"EXPR is VAR or @GLOBAL followed by ->field, .field or [N], or $retval or $params"
#define TYPE_NAMES	"u8 u16 u32 u64 s8 s16 s32 s64 x8 x16 x32 x64"

struct spec_ctx {
	const char *text;	/* the whole SEC text, for messages */
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3)))
static int spec_err(struct spec_ctx *ctx, const char *fmt, ...)
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

static int spec_nomem(struct spec_ctx *ctx)
{
	spec_err(ctx, "out of memory parsing SEC(\"%s\")", ctx->text);
	return -ENOMEM;
}

/* ASCII only: the meaning of a SEC string must not depend on the locale */
static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || is_digit(c);
}

/* Length of the C identifier at s, 0 if s does not start with one. */
static size_t ident_len(const char *s)
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
static int parse_uint(const char *s, int base, uint64_t max, uint64_t *out,
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

static char *skip_space(char *p)
{
	while (is_space(*p))
		p++;
	return p;
}

/* Cuts the next whitespace-separated token out of *pos (in place). */
static char *next_token(char **pos)
{
	char *p = skip_space(*pos), *start = p;

	if (!*p)
		return NULL;
	while (*p && !is_space(*p))
		p++;
	if (*p)
		*p++ = '\0';
	*pos = p;
	return start;
}

static int count_tokens(const char *p)
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

/* ---- config terms ------------------------------------------------------- */

enum config_key {
	KEY_EXEC,
	KEY_MODULE,
	KEY_INLINES,
	KEY_FORCE,
	KEY_MAP,
	KEY_CNT,
};

static const char *const config_key_names[KEY_CNT] = {
	[KEY_EXEC] = "exec",
	[KEY_MODULE] = "module",
	[KEY_INLINES] = "inlines",
	[KEY_FORCE] = "force",
	[KEY_MAP] = "map",
};

#define KEY_NAMES	"exec, module, inlines, force, map"

static int config_key(const char *s, size_t len)
{
	int key;

	for (key = 0; key < KEY_CNT; key++) {
		if (strlen(config_key_names[key]) == len &&
		    !strncmp(s, config_key_names[key], len))
			return key;
	}
	return -1;
}

/*
 * True when a and b differ by at most one edit (insert, delete, replace,
 * or swap of two neighbours): a misspelt key, like "inline" or "exce".
 */
static bool one_typo_apart(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b), i = 0;

	if (la > lb + 1 || lb > la + 1)
		return false;
	while (i < la && i < lb && a[i] == b[i])
		i++;
	if (la == lb) {
		if (i == la)
			return true;
		if (!strncmp(a + i + 1, b + i + 1, la - i - 1))
			return true;	/* replace */
		return i + 1 < la && a[i] == b[i + 1] && a[i + 1] == b[i] &&
		       !strncmp(a + i + 2, b + i + 2, la - i - 2);	/* swap */
	}
	if (la > lb)
		return !strncmp(a + i + 1, b + i, lb - i);
	return !strncmp(a + i, b + i + 1, la - i);
}

static const char *key_typo(const char *s, size_t len)
{
	int key;

	for (key = 0; key < KEY_CNT; key++) {
		if (one_typo_apart(s, len, config_key_names[key]))
			return config_key_names[key];
	}
	return NULL;
}

/*
 * How ';' is read. The text is cut at ';' from the left: a piece reading
 * KEY=VALUE (no whitespace) with KEY one of the known keys is a config
 * term. The first piece that is not one starts the probe definition, and
 * a ';' in the definition's first token is the lazy pattern's POINT;PTN.
 * So "exec=/x;ev=f;a=b*" is exec=/x then event ev on f with pattern a=b*.
 * An event cannot be named like a key, and a piece that reads like a
 * misspelt key is reported as an unknown key (parse_point).
 */
static bool is_config_term(const char *seg)
{
	size_t n = ident_len(seg);
	const char *p;

	if (!n || seg[n] != '=' || config_key(seg, n) < 0)
		return false;
	for (p = seg + n + 1; *p; p++) {
		if (is_space(*p))
			return false;
	}
	return true;
}

static int parse_bool(struct spec_ctx *ctx, const char *key, const char *val,
		      bool *out)
{
	static const char *const yes[] = { "y", "yes", "1", "on", "true" };
	static const char *const no[] = { "n", "no", "0", "off", "false" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(val, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(val, no[i])) {
			*out = false;
			return 0;
		}
	}
	return spec_err(ctx, "invalid boolean '%s' for key '%s' in '%s=%s' (use y/n, yes/no, 1/0, on/off, true/false)",
			val, key, key, val);
}

static int set_string(struct spec_ctx *ctx, char **dst, const char *key,
		      const char *val, const char *what)
{
	if (!*val)
		return spec_err(ctx, "empty value in '%s=': %s needs a non-empty %s",
				key, key, what);
	*dst = strdup(val);
	return *dst ? 0 : spec_nomem(ctx);
}

/* Applies one config term; term is "key=value" and is split in place. */
static int apply_config(struct spec_ctx *ctx, struct bp_spec *spec, char *term,
			unsigned int *seen)
{
	char *val = strchr(term, '=');
	int key;

	*val++ = '\0';
	key = config_key(term, strlen(term));
	if (key < 0)
		return spec_err(ctx, "unknown key '%s' in SEC(\"%s\") (known: %s)",
				term, ctx->text, KEY_NAMES);
	if (*seen & (1u << key))
		return spec_err(ctx, "duplicate key '%s' in '%s=%s': each key may be given once",
				term, term, val);
	*seen |= 1u << key;

	switch (key) {
	case KEY_EXEC:
		return set_string(ctx, &spec->exec, term, val, "path");
	case KEY_MODULE:
		return set_string(ctx, &spec->module, term, val, "module name");
	case KEY_INLINES:
		return parse_bool(ctx, term, val, &spec->inlines);
	case KEY_FORCE:
		return parse_bool(ctx, term, val, &spec->force);
	case KEY_MAP:
		return set_string(ctx, &spec->map, term, val,
				  "map (a pinned path, id:N or name:NAME)");
	default:
		return -EINVAL;
	}
}

/* Consumes the key=value; prefix of *pos, leaving *pos at the definition. */
static int parse_config(struct spec_ctx *ctx, struct bp_spec *spec, char **pos)
{
	unsigned int seen = 0;
	char *p = *pos, *semi, *end, c;
	int err;

	for (;;) {
		p = skip_space(p);
		semi = strchr(p, ';');
		if (!semi)
			break;
		/* "exec=/a ;" cannot be FUNC;PTN, which has no space before ';' */
		for (end = semi; end > p && is_space(end[-1]); end--)
			;
		c = *end;
		*end = '\0';
		if (!is_config_term(p)) {
			*end = c;
			break;
		}
		err = apply_config(ctx, spec, p, &seen);
		if (err)
			return err;
		p = semi + 1;
	}
	*pos = p;
	return 0;
}

/* A ';' may only be in the definition's first token: POINT;PTN. */
static int check_semicolons(struct spec_ctx *ctx, char *def)
{
	char *first = skip_space(def), *semi;
	const char *start, *end;

	while (*first && !is_space(*first))
		first++;
	semi = strchr(first, ';');
	if (!semi)
		return 0;
	for (start = semi; start > def && !is_space(start[-1]); start--)
		;
	for (end = semi; *end && !is_space(*end); end++)
		;
	return spec_err(ctx, "unexpected ';' in '%.*s': config terms (key=value;) must come before the probe point, and a lazy pattern (POINT;PTN) is written without spaces",
			(int)(end - start), start);
}

/* ---- probe point -------------------------------------------------------- */

/* The probe point: where the text goes into spec; tok is for messages. */
struct point_text {
	const char *tok;	/* the whole [EVENT=]POINT[;PTN] token */
	char *point;		/* POINT, cut out of a copy */
};

static bool is_glob_char(char c)
{
	return c == '*' || c == '?' || c == '[';
}

/*
 * The source extensions that make a POINT name a file (SRC) rather than a
 * function: "lines.c:12" is a line, "foo.isra.0" and "foo.cold" are
 * functions. '+' is not a file name character here (it starts +OFFS).
 */
static bool is_source_name(const char *s, size_t len)
{
	static const char *const exts[] = {
		"c", "h", "cc", "cp", "cpp", "cxx", "hh", "hpp", "hxx", "C",
		"H", "inc", "def", "ipp", "tcc", "S", "s", "asm", "y", "l",
		"m", "mm", "go", "rs", "f", "f90",
	};
	const char *dot = NULL, *p;
	size_t i, elen;

	for (p = s; p < s + len; p++) {
		if (*p == '/')
			dot = NULL;
		else if (*p == '.')
			dot = p;
	}
	if (!dot || dot == s || dot[-1] == '/')
		return false;
	elen = s + len - dot - 1;
	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		if (strlen(exts[i]) == elen && !strncmp(dot + 1, exts[i], elen))
			return true;
	}
	return false;
}

static int parse_offset(struct spec_ctx *ctx, struct bp_spec *spec,
			const char *tok, const char *s)
{
	const char *digits = s, *end;
	int base = 10, err;
	uint64_t v;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		digits = s + 2;
	}
	err = parse_uint(digits, base, UINT64_MAX, &v, &end);
	if (err == -ERANGE)
		return spec_err(ctx, "offset in probe point '%s' does not fit in 64 bits",
				tok);
	if (!err && !strcmp(end, "%return"))
		return spec_err(ctx, "probe point '%s' combines +OFFS with %%return; a return probe takes no offset",
				tok);
	if (err || *end)
		return spec_err(ctx, "invalid offset in probe point '%s': '+' must be followed by a decimal or 0x hex number (%s)",
				tok, POINT_FORMS);
	spec->offset = v;
	spec->has_offset = true;
	return 0;
}

/* :LINE: ALN (absolute, from 1) after SRC, RLN (from 0) after FUNC. */
static int parse_line(struct spec_ctx *ctx, struct bp_spec *spec,
		      const char *tok, const char *s)
{
	const char *end;
	uint64_t v;
	int err;

	err = parse_uint(s, 10, INT_MAX, &v, &end);
	if (!err && *end == '%')
		return spec_err(ctx, "probe point '%s' combines :LINE with %s; a line probe is neither a return nor an offset",
				tok, end);
	if (err == -ERANGE || (!err && *end))
		err = -EINVAL;
	if (err)
		return spec_err(ctx, "invalid line number in probe point '%s': ':' must be followed by a decimal line number (%s)",
				tok, POINT_FORMS);
	if (!spec->func && !v)
		return spec_err(ctx, "line 0 in probe point '%s': source lines start at 1 (FUNC:0 is FUNC's entry)",
				tok);
	spec->line = (int)v;
	spec->has_line = true;
	return 0;
}

static int parse_suffix(struct spec_ctx *ctx, struct bp_spec *spec,
			const char *tok, const char *s)
{
	if (!strcmp(s, "%return")) {
		spec->is_return = true;
		return 0;
	}
	if (!strncmp(s, "%return+", 8))
		return spec_err(ctx, "probe point '%s' combines +OFFS with %%return; a return probe takes no offset",
				tok);
	return spec_err(ctx, "unknown suffix '%s' in probe point '%s' (%s)",
			s, tok, POINT_FORMS);
}

/* SRC:ALN or SRC;PTN: a file names lines only. */
static int parse_src_point(struct spec_ctx *ctx, struct bp_spec *spec,
			   const char *tok, const char *name, size_t n)
{
	const char *rest = name + n;

	spec->src = strndup(name, n);
	if (!spec->src)
		return spec_nomem(ctx);
	switch (*rest) {
	case ':':
		if (spec->lazy)
			return spec_err(ctx, "probe point '%s' has both :LINE and ;PTN; give one (%s)",
					tok, POINT_FORMS);
		return parse_line(ctx, spec, tok, rest + 1);
	case '\0':
		if (spec->lazy)
			return 0;
		return spec_err(ctx, "probe point '%s' is a source file: add :LINE or ;PTN (%s)",
				tok, POINT_FORMS);
	case '@':
		return spec_err(ctx, "probe point '%s': '@SRC' follows a function name, not a file (%s)",
				tok, POINT_FORMS);
	default:
		return spec_err(ctx, "probe point '%s': a source line takes no '%c' (%s)",
				tok, *rest, POINT_FORMS);
	}
}

/* FUNC[@SRC][+OFFS|%return|:RLN] (;PTN already cut off) */
static int parse_func_point(struct spec_ctx *ctx, struct bp_spec *spec,
			    const char *tok, const char *point)
{
	const char *rest;
	bool glob;
	int n;

	n = bp_spec_name__len(point, &glob);
	if (n == -1)
		return spec_err(ctx, "unterminated '[' in probe point '%s': a glob class is written [abc] (%s)",
				tok, POINT_FORMS);
	if (n == -2)
		return spec_err(ctx, "unterminated '(' in probe point '%s': a C++ overload is written f(int, char const*) (%s)",
				tok, POINT_FORMS);
	if (!n || !(is_ident_start(point[0]) || is_glob_char(point[0]) || point[0] == '~'))
		return spec_err(ctx, "invalid function name in probe point '%s' (%s)",
				tok, POINT_FORMS);
	spec->func = strndup(point, n);
	if (!spec->func)
		return spec_nomem(ctx);
	spec->func_glob = glob;
	rest = point + n;
	if (*rest == '@') {
		size_t len = strcspn(rest + 1, ":+%@");

		if (!len)
			return spec_err(ctx, "empty source file after '@' in probe point '%s' (FUNC@SRC)",
					tok);
		spec->src = strndup(rest + 1, len);
		if (!spec->src)
			return spec_nomem(ctx);
		rest += 1 + len;
	}
	if (spec->lazy && *rest)
		return spec_err(ctx, "probe point '%s': a lazy pattern (;PTN) cannot be combined with '%s' (%s)",
				tok, rest, POINT_FORMS);
	switch (*rest) {
	case '\0':
		return 0;
	case '+':
		return parse_offset(ctx, spec, tok, rest + 1);
	case '%':
		return parse_suffix(ctx, spec, tok, rest);
	case ':':
		return parse_line(ctx, spec, tok, rest + 1);
	default:
		return spec_err(ctx, "unexpected '%c' in probe point '%s' (%s)",
				*rest, tok, POINT_FORMS);
	}
}

static int parse_point_text(struct spec_ctx *ctx, struct bp_spec *spec,
			    const char *tok, char *point)
{
	char *semi = strchr(point, ';');
	size_t n;

	if (semi) {
		*semi = '\0';
		if (!semi[1])
			return spec_err(ctx, "empty lazy pattern after ';' in probe point '%s' (POINT;PTN)",
					tok);
		spec->lazy = strdup(semi + 1);
		if (!spec->lazy)
			return spec_nomem(ctx);
	}
	if (!*point)
		return spec_err(ctx, "missing probe point in '%s' (%s)", tok, POINT_FORMS);
	n = strcspn(point, ":+%@");
	if (is_source_name(point, n))
		return parse_src_point(ctx, spec, tok, point, n);
	return parse_func_point(ctx, spec, tok, point);
}

/* Parses the first token of the definition: [EVENT=]POINT[;PTN]. */
static int parse_point(struct spec_ctx *ctx, struct bp_spec *spec,
		       const char *tok)
{
	const char *point = tok, *eq, *typo;
	size_t semi = strcspn(tok, ";"), n = 0;
	char *copy;
	int err;

	/* a '=' past the ';' belongs to the pattern */
	eq = memchr(tok, '=', semi);
	if (eq) {
		n = ident_len(tok);
		if (!n || tok + n != eq)
			return spec_err(ctx, "invalid event name '%.*s' in '%s': EVENT must be an identifier",
					(int)(eq - tok), tok, tok);
		point = eq + 1;
		/* a key=value piece before a ';' would have been a term */
		typo = tok[semi] ? key_typo(tok, n) : NULL;
		if (typo)
			return spec_err(ctx, "unknown key '%.*s' in SEC(\"%s\") (known: %s; did you mean '%s'?)",
					(int)n, tok, ctx->text, KEY_NAMES, typo);
		if (config_key(tok, n) >= 0 && !tok[semi])
			/* "exec=/bin/x" alone most likely lost its ';' */
			return spec_err(ctx, "'%s' has no probe point: config terms must end with ';' (%s)",
					tok, POINT_FORMS);
		spec->event = strndup(tok, n);
		if (!spec->event)
			return spec_nomem(ctx);
		if (!*point)
			return spec_err(ctx, "missing probe point after '%s' (%s)",
					tok, POINT_FORMS);
	}
	copy = strdup(point);
	if (!copy)
		return spec_nomem(ctx);
	spec->point = strdup(point);
	if (!spec->point) {
		free(copy);
		return spec_nomem(ctx);
	}
	err = parse_point_text(ctx, spec, tok, copy);
	free(copy);
	/* "foo=1;f": a misspelt config term rather than a broken point */
	if (err == -EINVAL && eq && tok[semi])
		return spec_err(ctx, "unknown key '%.*s' in SEC(\"%s\") (known: %s)",
				(int)n, tok, ctx->text, KEY_NAMES);
	return err;
}

/* ---- arguments ---------------------------------------------------------- */

static const struct arg_type {
	const char *name;
	uint8_t size;
	bool is_signed;
	bool is_hex;
} arg_types[] = {
	{ "u8", 1, false, false }, { "u16", 2, false, false },
	{ "u32", 4, false, false }, { "u64", 8, false, false },
	{ "s8", 1, true, false }, { "s16", 2, true, false },
	{ "s32", 4, true, false }, { "s64", 8, true, false },
	{ "x8", 1, false, true }, { "x16", 2, false, true },
	{ "x32", 4, false, true }, { "x64", 8, false, true },
};

static int add_step(struct spec_ctx *ctx, struct bp_arg_spec *arg,
		    enum bp_step_kind kind, const char *field, size_t len,
		    long index)
{
	struct bp_arg_step *steps, *step;
	char *name = NULL;

	if (field) {
		name = strndup(field, len);
		if (!name)
			return spec_nomem(ctx);
	}
	steps = realloc(arg->steps, (arg->nsteps + 1) * sizeof(*steps));
	if (!steps) {
		free(name);
		return spec_nomem(ctx);
	}
	arg->steps = steps;
	step = &steps[arg->nsteps++];
	step->kind = kind;
	step->field = name;
	step->index = index;
	return 0;
}

/* Parses one ->field, .field or [N] at *pos; tok is the argument for messages. */
static int parse_step(struct spec_ctx *ctx, struct bp_arg_spec *arg,
		      const char *tok, const char **pos)
{
	const char *p = *pos, *end;
	size_t off = p - tok, n;
	uint64_t index;
	int err;

	if (p[0] == '-' && p[1] == '>') {
		n = ident_len(p + 2);
		if (!n)
			return spec_err(ctx, "unknown member syntax in argument '%s': '->' must be followed by a field name (at offset %zu)",
					tok, off);
		*pos = p + 2 + n;
		return add_step(ctx, arg, BP_STEP_ARROW, p + 2, n, 0);
	}
	if (p[0] == '.') {
		n = ident_len(p + 1);
		if (!n)
			return spec_err(ctx, "unknown member syntax in argument '%s': '.' must be followed by a field name (at offset %zu)",
					tok, off);
		*pos = p + 1 + n;
		return add_step(ctx, arg, BP_STEP_DOT, p + 1, n, 0);
	}
	if (p[0] == '[') {
		err = parse_uint(p + 1, 10, LONG_MAX, &index, &end);
		if (err == -ERANGE)
			return spec_err(ctx, "index too large in argument '%s' (at offset %zu)",
					tok, off);
		if (err || *end != ']')
			return spec_err(ctx, "unknown member syntax in argument '%s': '[' must be followed by a non-negative decimal index and ']' (at offset %zu)",
					tok, off);
		*pos = end + 1;
		return add_step(ctx, arg, BP_STEP_INDEX, NULL, 0, (long)index);
	}
	if (p[0] == '-')
		return spec_err(ctx, "unknown member syntax in argument '%s': '-' is not an operator here, a member is reached with '->' (at offset %zu)",
				tok, off);
	return spec_err(ctx, "unknown member syntax in argument '%s': unexpected '%c' (at offset %zu); %s",
			tok, p[0], off, EXPR_FORMS);
}

static bool is_expr_end(char c)
{
	return !c || c == ':' || c == '@';
}

/* @GLOBAL starts an expression; "@user" alone stays the (misplaced) modifier */
static bool is_global(const char *expr)
{
	size_t n = expr[0] == '@' ? ident_len(expr + 1) : 0;

	return n && !(n == 4 && !strncmp(expr + 1, "user", 4) && is_expr_end(expr[5]));
}

/* $retval, and the other perf special variables which are not there yet. */
static int parse_special(struct spec_ctx *ctx, const struct bp_spec *spec,
			 struct bp_arg_spec *arg, const char *tok,
			 const char *expr, const char **end)
{
	size_t n;

	for (n = 1; is_ident_char(expr[n]); n++)
		;
	if (n == 7 && !strncmp(expr, "$params", 7)) {
		/* expanded per probe point by the resolver (bp_args__expand) */
		if (spec->is_return)
			return spec_err(ctx, "$params is not available at FUNC%%return (the parameters are gone by then): argument '%s' at probe point '%s'",
					tok, spec->func);
		if (expr[n])
			return spec_err(ctx, "'$params' in argument '%s' takes no member, :TYPE or @user",
					tok);
		arg->var = strdup("$params");
		if (!arg->var)
			return spec_nomem(ctx);
		*end = expr + n;
		return 0;
	}
	if (n != 7 || strncmp(expr, "$retval", 7))
		return spec_err(ctx, "'%.*s' in argument '%s' is not supported yet (%s)",
				(int)n, expr, tok, EXPR_FORMS);
	if (!spec->is_return)
		return spec_err(ctx, "$retval is only available at FUNC%%return: argument '%s' at probe point '%s'",
				tok, spec->func);
	if (!is_expr_end(expr[n]))
		return spec_err(ctx, "'$retval' in argument '%s' cannot be followed by '%s': members of $retval are not supported yet",
				tok, expr + n);
	arg->var = strdup("$retval");
	if (!arg->var)
		return spec_nomem(ctx);
	*end = expr + n;
	return 0;
}

static int parse_expr(struct spec_ctx *ctx, const struct bp_spec *spec,
		      struct bp_arg_spec *arg, const char *tok,
		      const char *expr, const char **end)
{
	const char *p;
	size_t n;
	int err;

	if (expr[0] == '$')
		return parse_special(ctx, spec, arg, tok, expr, end);
	if (is_global(expr)) {
		arg->global = true;
		expr++;
	}
	n = ident_len(expr);
	if (!n)
		/* "a -> b" splits into three tokens; say so */
		return spec_err(ctx, "argument '%s' must start with a variable name or $retval%s",
				tok, strchr("-.[", expr[0]) ?
				" (no spaces inside an argument)" : "");
	arg->var = strndup(expr, n);
	if (!arg->var)
		return spec_nomem(ctx);
	for (p = expr + n; !is_expr_end(*p); ) {
		err = parse_step(ctx, arg, tok, &p);
		if (err)
			return err;
	}
	*end = p;
	return 0;
}

static int parse_type(struct spec_ctx *ctx, struct bp_arg_spec *arg,
		      const char *tok, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(arg_types) / sizeof(arg_types[0]); i++) {
		if (strlen(arg_types[i].name) == len &&
		    !strncmp(s, arg_types[i].name, len)) {
			arg->has_type = true;
			arg->type_size = arg_types[i].size;
			arg->type_signed = arg_types[i].is_signed;
			arg->type_hex = arg_types[i].is_hex;
			return 0;
		}
	}
	if ((len == 6 && !strncmp(s, "string", 6)) ||
	    (len == 7 && !strncmp(s, "ustring", 7)))
		return spec_err(ctx, "type '%.*s' in argument '%s' is not supported: a string does not fit a 64-bit register; fetch the pointer (e.g. as x64) and copy the string with bpf_probe_read_user_str() in the program",
				(int)len, s, tok);
	return spec_err(ctx, "invalid type '%.*s' in argument '%s' (valid: %s)",
			(int)len, s, tok, TYPE_NAMES);
}

/* Parses the :TYPE and @user modifiers at p, in either order. */
static int parse_modifiers(struct spec_ctx *ctx, struct bp_arg_spec *arg,
			   const char *tok, const char *p)
{
	const char *s;
	size_t len;
	int err;

	while (*p) {
		s = p + 1;
		len = strcspn(s, ":@");
		if (*p == ':') {
			if (arg->has_type)
				return spec_err(ctx, "argument '%s' has more than one ':TYPE'",
						tok);
			err = parse_type(ctx, arg, tok, s, len);
			if (err)
				return err;
		} else {
			if (len != 4 || strncmp(s, "user", 4))
				return spec_err(ctx, "unknown modifier '@%.*s' in argument '%s' (only @user is supported)",
						(int)len, s, tok);
			if (arg->user)
				return spec_err(ctx, "argument '%s' has more than one '@user'",
						tok);
			arg->user = true;
		}
		p = s + len;
	}
	return 0;
}

/* Parses one argument token: [NAME=]EXPR[:TYPE][@user]. */
static int parse_arg(struct spec_ctx *ctx, const struct bp_spec *spec,
		     struct bp_arg_spec *arg, const char *tok)
{
	const char *expr = tok, *eq = strchr(tok, '='), *end = NULL;
	size_t n;
	int err;

	arg->text = strdup(tok);
	if (!arg->text)
		return spec_nomem(ctx);
	if (eq) {
		n = ident_len(tok);
		if (!n || tok + n != eq)
			return spec_err(ctx, "invalid argument name '%.*s' in '%s': NAME must be an identifier",
					(int)(eq - tok), tok, tok);
		arg->name = strndup(tok, n);
		if (!arg->name)
			return spec_nomem(ctx);
		expr = eq + 1;
	}
	if (is_expr_end(*expr) && !is_global(expr))
		return spec_err(ctx, "empty expression in argument '%s' (%s)",
				tok, EXPR_FORMS);

	err = parse_expr(ctx, spec, arg, tok, expr, &end);
	if (err)
		return err;
	if (!arg->name) {
		arg->name = strndup(expr, end - expr);
		if (!arg->name)
			return spec_nomem(ctx);
	}
	return parse_modifiers(ctx, arg, tok, end);
}

/* Reports the first argument that does not fit in R3..R5. */
static int too_many_args(struct spec_ctx *ctx, char *pos, int nargs)
{
	char *tok = NULL;
	int i;

	for (i = 0; i <= BP_SPEC_MAX_ARGS; i++)
		tok = next_token(&pos);
	return spec_err(ctx, "%d arguments given, at most %d fit in R3..R5 (SEC(\"%s\")); first extra argument: '%s'",
			nargs, BP_SPEC_MAX_ARGS, ctx->text, tok);
}

/* ---- map tracing: map=MAP;update|delete ARG... -------------------------- */

#define MAP_ARGS	"key, value (update only) or flags (update only)"

/* The point of a map spec: which operation; exec= and module= do not mix. */
static int parse_map_point(struct spec_ctx *ctx, struct bp_spec *spec,
				    const char *tok)
{
	if (spec->exec || spec->module)
		return spec_err(ctx, "map=%s traces a BPF map: it takes no %s= (SEC(\"%s\"))",
				spec->map, spec->exec ? "exec" : "module", ctx->text);
	if (strcmp(tok, "update") && strcmp(tok, "delete"))
		return spec_err(ctx, "map=%s: expected the operation 'update' or 'delete', got '%s' (map=MAP;update ARG... or map=MAP;delete ARG...)",
				spec->map, tok);
	spec->func = strdup(tok);
	spec->point = strdup(tok);
	return spec->func && spec->point ? 0 : spec_nomem(ctx);
}

static int map_special_arg(struct spec_ctx *ctx, const struct bp_spec *spec, const char *tok)
{
	return spec_err(ctx, "argument '%s' of map=%s;%s: a map operation has no %.*s; its arguments are %s",
			tok, spec->map, spec->func, (int)strcspn(tok, "-.[:@"), tok, MAP_ARGS);
}

/* key, value and flags are all there is; delete has only key. */
static int check_map_arg(struct spec_ctx *ctx, const struct bp_spec *spec,
			 const struct bp_arg_spec *arg)
{
	bool update = !strcmp(spec->func, "update");

	if (arg->global || (strcmp(arg->var, "key") && strcmp(arg->var, "value") &&
			    strcmp(arg->var, "flags")))
		return spec_err(ctx, "argument '%s' of map=%s;%s: unknown name '%s%s' (the arguments are %s)",
				arg->text, spec->map, spec->func, arg->global ? "@" : "",
				arg->var, MAP_ARGS);
	if (!update && strcmp(arg->var, "key"))
		return spec_err(ctx, "argument '%s' of map=%s;delete: a delete has no %s, only a key",
				arg->text, spec->map, arg->var);
	if (arg->user)
		return spec_err(ctx, "argument '%s' of map=%s;%s: keys and values are in kernel memory: @user does not apply",
				arg->text, spec->map, spec->func);
	if (!strcmp(arg->var, "flags") && arg->nsteps)
		return spec_err(ctx, "argument '%s' of map=%s;update: flags is a number (BPF_ANY 0, BPF_NOEXIST 1, BPF_EXIST 2, BPF_F_LOCK 4): it has no members",
				arg->text, spec->map);
	return 0;
}

/* ---- entry points ------------------------------------------------------- */

static int parse_definition(struct spec_ctx *ctx, struct bp_spec *spec,
			    char *pos)
{
	char *tok, *more, *joined = NULL;
	int ntok, nargs, err;

	ntok = count_tokens(pos);
	if (!ntok)
		return spec_err(ctx, "missing probe point in SEC(\"%s\"): expected [EVENT=]POINT after the config terms",
				ctx->text);
	tok = next_token(&pos);
	/* C++: "operator new", "f(int, char const*)" span tokens */
	while (!spec->map && bp_spec_name__continues(tok, skip_space(pos)) && (more = next_token(&pos))) {
		char *j;

		if (asprintf(&j, "%s %s", tok, more) < 0) {
			free(joined);
			return spec_nomem(ctx);
		}
		free(joined);
		tok = joined = j;
		ntok--;
	}
	err = spec->map ? parse_map_point(ctx, spec, tok) : parse_point(ctx, spec, tok);
	free(joined);
	if (err)
		return err;

	nargs = ntok - 1;
	if (nargs > BP_SPEC_MAX_ARGS)
		return too_many_args(ctx, pos, nargs);
	if (!nargs)
		return 0;
	spec->args = calloc(nargs, sizeof(*spec->args));
	if (!spec->args)
		return spec_nomem(ctx);
	while ((tok = next_token(&pos))) {
		/* count it first so a half-parsed argument is freed too */
		struct bp_arg_spec *arg = &spec->args[spec->nargs++];

		err = spec->map && tok[0] == '$' ? map_special_arg(ctx, spec, tok) :
		      parse_arg(ctx, spec, arg, tok);
		if (!err && spec->map)
			err = check_map_arg(ctx, spec, arg);
		if (err)
			return err;
	}
	return 0;
}

int bp_spec__parse(const char *text, struct bp_spec *spec, char *err, size_t errlen)
{
	struct spec_ctx ctx = { .text = text ? text : "", .err = err, .errlen = errlen };
	char *buf, *pos;
	int ret;

	memset(spec, 0, sizeof(*spec));
	spec->inlines = true;
	if (err && errlen)
		err[0] = '\0';

	spec->text = strdup(ctx.text);
	/* a scratch copy: terms and tokens are cut out of it in place */
	buf = strdup(ctx.text);
	if (!spec->text || !buf) {
		ret = spec_nomem(&ctx);
		goto out;
	}
	pos = skip_space(buf);
	if (!*pos) {
		ret = spec_err(&ctx, "empty SEC(\"%s\"): expected [key=value;]... [EVENT=]POINT [ARG ...]",
			       ctx.text);
		goto out;
	}
	ret = parse_config(&ctx, spec, &pos);
	if (ret)
		goto out;
	ret = check_semicolons(&ctx, pos);
	if (ret)
		goto out;
	ret = parse_definition(&ctx, spec, pos);
out:
	free(buf);
	return ret;
}

static void arg_free(struct bp_arg_spec *arg)
{
	int i;

	for (i = 0; i < arg->nsteps; i++)
		free(arg->steps[i].field);
	free(arg->steps);
	free(arg->text);
	free(arg->name);
	free(arg->var);
}

void bp_spec__free(struct bp_spec *spec)
{
	int i;

	if (!spec)
		return;
	for (i = 0; i < spec->nargs; i++)
		arg_free(&spec->args[i]);
	free(spec->args);
	free(spec->text);
	free(spec->exec);
	free(spec->module);
	free(spec->map);
	free(spec->event);
	free(spec->func);
	free(spec->src);
	free(spec->lazy);
	free(spec->point);
	/* so a second free, or a free after a failed parse, is harmless */
	memset(spec, 0, sizeof(*spec));
}

bool bp_spec__only_plain_retval(const struct bp_spec *spec)
{
	if (!spec->is_return)
		return false;
	for (int i = 0; i < spec->nargs; i++)
		if (strcmp(spec->args[i].var, "$retval") || spec->args[i].nsteps)
			return false;
	return true;
}
