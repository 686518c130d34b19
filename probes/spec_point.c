// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The SEC grammar's probe point: [EVENT=]POINT with POINT one of
 * FUNC[@SRC][+OFFS|%return|:RLN|;PTN], SRC:ALN or SRC;PTN, and the point
 * of a map spec (map=MAP;update|delete).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "probes/spec_name.h"
#include "probes/spec_parse.h"

/* passed through "%s": a '%' in a format string would be a conversion */
#define POINT_FORMS	"POINT is FUNC[@SRC][+OFFS|%return|:RLN|;PTN], SRC:ALN or SRC;PTN"

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
	err = bp_spec_parse_uint(digits, base, UINT64_MAX, &v, &end);
	if (err == -ERANGE)
		return bp_spec_err(ctx, "offset in probe point '%s' does not fit in 64 bits",
				   tok);
	if (!err && !strcmp(end, "%return"))
		return bp_spec_err(ctx, "probe point '%s' combines +OFFS with %%return; a return probe takes no offset",
				   tok);
	if (err || *end)
		return bp_spec_err(ctx, "invalid offset in probe point '%s': '+' must be followed by a decimal or 0x hex number (%s)",
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

	err = bp_spec_parse_uint(s, 10, INT_MAX, &v, &end);
	if (!err && *end == '%')
		return bp_spec_err(ctx, "probe point '%s' combines :LINE with %s; a line probe is neither a return nor an offset",
				   tok, end);
	if (err == -ERANGE || (!err && *end))
		err = -EINVAL;
	if (err)
		return bp_spec_err(ctx, "invalid line number in probe point '%s': ':' must be followed by a decimal line number (%s)",
				   tok, POINT_FORMS);
	if (!spec->func && !v)
		return bp_spec_err(ctx, "line 0 in probe point '%s': source lines start at 1 (FUNC:0 is FUNC's entry)",
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
		return bp_spec_err(ctx, "probe point '%s' combines +OFFS with %%return; a return probe takes no offset",
				   tok);
	return bp_spec_err(ctx, "unknown suffix '%s' in probe point '%s' (%s)",
			   s, tok, POINT_FORMS);
}

/* SRC:ALN or SRC;PTN: a file names lines only. */
static int parse_src_point(struct spec_ctx *ctx, struct bp_spec *spec,
			   const char *tok, const char *name, size_t n)
{
	const char *rest = name + n;

	spec->src = strndup(name, n);
	if (!spec->src)
		return bp_spec_nomem(ctx);
	switch (*rest) {
	case ':':
		if (spec->lazy)
			return bp_spec_err(ctx, "probe point '%s' has both :LINE and ;PTN; give one (%s)",
					   tok, POINT_FORMS);
		return parse_line(ctx, spec, tok, rest + 1);
	case '\0':
		if (spec->lazy)
			return 0;
		return bp_spec_err(ctx, "probe point '%s' is a source file: add :LINE or ;PTN (%s)",
				   tok, POINT_FORMS);
	case '@':
		return bp_spec_err(ctx, "probe point '%s': '@SRC' follows a function name, not a file (%s)",
				   tok, POINT_FORMS);
	default:
		return bp_spec_err(ctx, "probe point '%s': a source line takes no '%c' (%s)",
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
		return bp_spec_err(ctx, "unterminated '[' in probe point '%s': a glob class is written [abc] (%s)",
				   tok, POINT_FORMS);
	if (n == -2)
		return bp_spec_err(ctx, "unterminated '(' in probe point '%s': a C++ overload is written f(int, char const*) (%s)",
				   tok, POINT_FORMS);
	if (!n || !(is_ident_start(point[0]) || is_glob_char(point[0]) || point[0] == '~'))
		return bp_spec_err(ctx, "invalid function name in probe point '%s' (%s)",
				   tok, POINT_FORMS);
	spec->func = strndup(point, n);
	if (!spec->func)
		return bp_spec_nomem(ctx);
	spec->func_glob = glob;
	rest = point + n;
	if (*rest == '@') {
		size_t len = strcspn(rest + 1, ":+%@");

		if (!len)
			return bp_spec_err(ctx, "empty source file after '@' in probe point '%s' (FUNC@SRC)",
					   tok);
		spec->src = strndup(rest + 1, len);
		if (!spec->src)
			return bp_spec_nomem(ctx);
		rest += 1 + len;
	}
	if (spec->lazy && *rest)
		return bp_spec_err(ctx, "probe point '%s': a lazy pattern (;PTN) cannot be combined with '%s' (%s)",
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
		return bp_spec_err(ctx, "unexpected '%c' in probe point '%s' (%s)",
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
			return bp_spec_err(ctx, "empty lazy pattern after ';' in probe point '%s' (POINT;PTN)",
					   tok);
		spec->lazy = strdup(semi + 1);
		if (!spec->lazy)
			return bp_spec_nomem(ctx);
	}
	if (!*point)
		return bp_spec_err(ctx, "missing probe point in '%s' (%s)", tok, POINT_FORMS);
	n = strcspn(point, ":+%@");
	if (is_source_name(point, n))
		return parse_src_point(ctx, spec, tok, point, n);
	return parse_func_point(ctx, spec, tok, point);
}

/* Parses the first token of the definition: [EVENT=]POINT[;PTN]. */
/* ---- SDT markers: %PROVIDER:NAME ---------------------------------------- */

/* PROVIDER or NAME of a marker: an identifier, or a glob of one. */
static size_t marker_part_len(const char *s)
{
	size_t n = 0;

	while (is_ident_char(s[n]) || s[n] == '*' || s[n] == '?' || s[n] == '[' ||
	       s[n] == ']' || s[n] == '-' || s[n] == '!')
		n++;
	return n;
}

/*
 * Whether point names an SDT marker: %PROVIDER:NAME, or perf's
 * sdt_PROVIDER:NAME whose NAME is no line number (FUNC:RLN).
 */
static bool is_marker(const char *point)
{
	const char *colon;

	if (point[0] == '%')
		return true;
	if (strncmp(point, "sdt_", 4))
		return false;
	colon = strchr(point, ':');
	return colon && colon[1] && !is_digit(colon[1]);
}

#define MARKER_FORMS	"a marker is %PROVIDER:NAME (or perf's %sdt_PROVIDER:NAME, sdt_PROVIDER:NAME), each part a name or a glob"

static int parse_marker(struct spec_ctx *ctx, struct bp_spec *spec, const char *tok,
			const char *point)
{
	const char *p = point + (point[0] == '%'), *name;
	size_t np, nn;

	if (!strncmp(p, "sdt_", 4))
		p += 4;
	np = marker_part_len(p);
	if (!np || p[np] != ':')
		return bp_spec_err(ctx, "invalid marker '%s' in '%s': %s", point, tok, MARKER_FORMS);
	name = p + np + 1;
	nn = marker_part_len(name);
	if (!nn || name[nn])
		return bp_spec_err(ctx, "invalid marker '%s' in '%s': %s", point, tok, MARKER_FORMS);
	if (!spec->exec)
		return bp_spec_err(ctx, "marker '%s' needs exec=BIN: markers are in a binary's notes (.note.stapsdt)",
				   point);
	spec->sdt = true;
	spec->provider = strndup(p, np);
	spec->func = strndup(name, nn);
	if (!spec->provider || !spec->func)
		return bp_spec_nomem(ctx);
	spec->func_glob = strpbrk(spec->func, "*?[") || strpbrk(spec->provider, "*?[");
	return 0;
}

int bp_spec_parse_point(struct spec_ctx *ctx, struct bp_spec *spec,
			const char *tok)
{
	const char *point = tok, *eq, *typo;
	size_t semi = strcspn(tok, ";"), n = 0;
	char *copy;
	int err;

	/* a '=' past the ';' belongs to the pattern */
	eq = memchr(tok, '=', semi);
	if (eq) {
		n = bp_spec_ident_len(tok);
		if (!n || tok + n != eq)
			return bp_spec_err(ctx, "invalid event name '%.*s' in '%s': EVENT must be an identifier",
					   (int)(eq - tok), tok, tok);
		point = eq + 1;
		/* a key=value piece before a ';' would have been a term */
		typo = tok[semi] ? bp_spec_key_typo(tok, n) : NULL;
		if (typo)
			return bp_spec_err(ctx, "unknown key '%.*s' in SEC(\"%s\") (known: %s; did you mean '%s'?)",
					   (int)n, tok, ctx->text, KEY_NAMES, typo);
		if (bp_spec_config_key(tok, n) >= 0 && !tok[semi])
			/* "exec=/bin/x" alone most likely lost its ';' */
			return bp_spec_err(ctx, "'%s' has no probe point: config terms must end with ';' (%s)",
					   tok, POINT_FORMS);
		spec->event = strndup(tok, n);
		if (!spec->event)
			return bp_spec_nomem(ctx);
		if (!*point)
			return bp_spec_err(ctx, "missing probe point after '%s' (%s)",
					   tok, POINT_FORMS);
	}
	if (is_marker(point)) {
		spec->point = strdup(point);
		if (!spec->point)
			return bp_spec_nomem(ctx);
		return parse_marker(ctx, spec, tok, point);
	}
	copy = strdup(point);
	if (!copy)
		return bp_spec_nomem(ctx);
	spec->point = strdup(point);
	if (!spec->point) {
		free(copy);
		return bp_spec_nomem(ctx);
	}
	err = parse_point_text(ctx, spec, tok, copy);
	free(copy);
	/* "foo=1;f": a misspelt config term rather than a broken point */
	if (err == -EINVAL && eq && tok[semi])
		return bp_spec_err(ctx, "unknown key '%.*s' in SEC(\"%s\") (known: %s)",
				   (int)n, tok, ctx->text, KEY_NAMES);
	return err;
}

/* ---- map tracing: map=MAP;update|delete -------------------------------- */

/* The point of a map spec: which operation; exec= and module= do not mix. */
int bp_spec_parse_map_point(struct spec_ctx *ctx, struct bp_spec *spec,
			    const char *tok)
{
	if (spec->exec || spec->module)
		return bp_spec_err(ctx, "map=%s traces a BPF map: it takes no %s= (SEC(\"%s\"))",
				   spec->map, spec->exec ? "exec" : "module", ctx->text);
	if (strcmp(tok, "update") && strcmp(tok, "delete"))
		return bp_spec_err(ctx, "map=%s: expected the operation 'update' or 'delete', got '%s' (map=MAP;update ARG... or map=MAP;delete ARG...)",
				   spec->map, tok);
	spec->func = strdup(tok);
	spec->point = strdup(tok);
	return spec->func && spec->point ? 0 : bp_spec_nomem(ctx);
}
