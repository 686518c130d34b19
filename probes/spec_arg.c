// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The SEC grammar's arguments: [NAME=]EXPR[:TYPE][@user], EXPR a variable
 * or @GLOBAL with its ->field, .field and [N] steps, or a special variable
 * ($retval, $params); and which arguments a map spec takes.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "probes/spec_parse.h"

/* passed through "%s": a '%' in a format string would be a conversion */
#define EXPR_FORMS	"EXPR is VAR or @GLOBAL followed by ->field, .field or [N], or $retval or $params"
#define TYPE_NAMES	"u8 u16 u32 u64 s8 s16 s32 s64 x8 x16 x32 x64"

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
			return bp_spec_nomem(ctx);
	}
	steps = realloc(arg->steps, (arg->nsteps + 1) * sizeof(*steps));
	if (!steps) {
		free(name);
		return bp_spec_nomem(ctx);
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
		n = bp_spec_ident_len(p + 2);
		if (!n)
			return bp_spec_err(ctx, "unknown member syntax in argument '%s': '->' must be followed by a field name (at offset %zu)",
					   tok, off);
		*pos = p + 2 + n;
		return add_step(ctx, arg, BP_STEP_ARROW, p + 2, n, 0);
	}
	if (p[0] == '.') {
		n = bp_spec_ident_len(p + 1);
		if (!n)
			return bp_spec_err(ctx, "unknown member syntax in argument '%s': '.' must be followed by a field name (at offset %zu)",
					   tok, off);
		*pos = p + 1 + n;
		return add_step(ctx, arg, BP_STEP_DOT, p + 1, n, 0);
	}
	if (p[0] == '[') {
		err = bp_spec_parse_uint(p + 1, 10, LONG_MAX, &index, &end);
		if (err == -ERANGE)
			return bp_spec_err(ctx, "index too large in argument '%s' (at offset %zu)",
					   tok, off);
		if (err || *end != ']')
			return bp_spec_err(ctx, "unknown member syntax in argument '%s': '[' must be followed by a non-negative decimal index and ']' (at offset %zu)",
					   tok, off);
		*pos = end + 1;
		return add_step(ctx, arg, BP_STEP_INDEX, NULL, 0, (long)index);
	}
	if (p[0] == '-')
		return bp_spec_err(ctx, "unknown member syntax in argument '%s': '-' is not an operator here, a member is reached with '->' (at offset %zu)",
				   tok, off);
	return bp_spec_err(ctx, "unknown member syntax in argument '%s': unexpected '%c' (at offset %zu); %s",
			   tok, p[0], off, EXPR_FORMS);
}

static bool is_expr_end(char c)
{
	return !c || c == ':' || c == '@';
}

/* @GLOBAL starts an expression; "@user" alone stays the (misplaced) modifier */
static bool is_global(const char *expr)
{
	size_t n = expr[0] == '@' ? bp_spec_ident_len(expr + 1) : 0;

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
			return bp_spec_err(ctx, "$params is not available at FUNC%%return (the parameters are gone by then): argument '%s' at probe point '%s'",
					   tok, spec->func);
		if (expr[n])
			return bp_spec_err(ctx, "'$params' in argument '%s' takes no member, :TYPE or @user",
					   tok);
		arg->var = strdup("$params");
		if (!arg->var)
			return bp_spec_nomem(ctx);
		*end = expr + n;
		return 0;
	}
	if (n != 7 || strncmp(expr, "$retval", 7))
		return bp_spec_err(ctx, "'%.*s' in argument '%s' is not supported yet (%s)",
				   (int)n, expr, tok, EXPR_FORMS);
	if (!spec->is_return)
		return bp_spec_err(ctx, "$retval is only available at FUNC%%return: argument '%s' at probe point '%s'",
				   tok, spec->func);
	if (!is_expr_end(expr[n]))
		return bp_spec_err(ctx, "'$retval' in argument '%s' cannot be followed by '%s': members of $retval are not supported yet",
				   tok, expr + n);
	arg->var = strdup("$retval");
	if (!arg->var)
		return bp_spec_nomem(ctx);
	*end = expr + n;
	return 0;
}

static int parse_expr(struct spec_ctx *ctx, const struct bp_spec *spec,
		      struct bp_arg_spec *arg, const char *tok,
		      const char *expr, const char **end)
{
	const char *p;
	size_t n;
	int err, stars = 0;

	/* *EXPR: what EXPR points to, as EXPR[0] (a record member takes
	 * the object's bytes) */
	while (expr[stars] == '*')
		stars++;
	if (stars) {
		err = parse_expr(ctx, spec, arg, tok, expr + stars, end);
		for (int i = 0; !err && i < stars; i++)
			err = add_step(ctx, arg, BP_STEP_INDEX, NULL, 0, 0);
		return err;
	}
	if (expr[0] == '$')
		return parse_special(ctx, spec, arg, tok, expr, end);
	if (is_global(expr)) {
		arg->global = true;
		expr++;
	}
	n = bp_spec_ident_len(expr);
	if (!n)
		/* "a -> b" splits into three tokens; say so */
		return bp_spec_err(ctx, "argument '%s' must start with a variable name or $retval%s",
				   tok, strchr("-.[", expr[0]) ?
				   " (no spaces inside an argument)" : "");
	arg->var = strndup(expr, n);
	if (!arg->var)
		return bp_spec_nomem(ctx);
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
		return bp_spec_err(ctx, "type '%.*s' in argument '%s' is not supported: a string does not fit a 64-bit register; fetch the pointer (e.g. as x64) and copy the string with bpf_probe_read_user_str() in the program",
				   (int)len, s, tok);
	return bp_spec_err(ctx, "invalid type '%.*s' in argument '%s' (valid: %s)",
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
				return bp_spec_err(ctx, "argument '%s' has more than one ':TYPE'",
						   tok);
			err = parse_type(ctx, arg, tok, s, len);
			if (err)
				return err;
		} else {
			if (len != 4 || strncmp(s, "user", 4))
				return bp_spec_err(ctx, "unknown modifier '@%.*s' in argument '%s' (only @user is supported)",
						   (int)len, s, tok);
			if (arg->user)
				return bp_spec_err(ctx, "argument '%s' has more than one '@user'",
						   tok);
			arg->user = true;
		}
		p = s + len;
	}
	return 0;
}

/* Parses one argument token: [NAME=]EXPR[:TYPE][@user]. */
int bp_spec_parse_arg(struct spec_ctx *ctx, const struct bp_spec *spec,
		      struct bp_arg_spec *arg, const char *tok)
{
	const char *expr = tok, *eq = strchr(tok, '='), *end = NULL;
	size_t n;
	int err;

	arg->text = strdup(tok);
	if (!arg->text)
		return bp_spec_nomem(ctx);
	if (eq) {
		n = bp_spec_ident_len(tok);
		if (!n || tok + n != eq)
			return bp_spec_err(ctx, "invalid argument name '%.*s' in '%s': NAME must be an identifier",
					   (int)(eq - tok), tok, tok);
		arg->name = strndup(tok, n);
		if (!arg->name)
			return bp_spec_nomem(ctx);
		expr = eq + 1;
	}
	if (is_expr_end(*expr) && !is_global(expr))
		return bp_spec_err(ctx, "empty expression in argument '%s' (%s)",
				   tok, EXPR_FORMS);

	err = parse_expr(ctx, spec, arg, tok, expr, &end);
	if (err)
		return err;
	if (!arg->name) {
		arg->name = strndup(expr, end - expr);
		if (!arg->name)
			return bp_spec_nomem(ctx);
	}
	return parse_modifiers(ctx, arg, tok, end);
}

/* Reports the first argument past what any program can take. */
int bp_spec_too_many_args(struct spec_ctx *ctx, char *pos, int nargs)
{
	char *tok = NULL;
	int i;

	for (i = 0; i <= BP_SPEC_MAX_ARGS; i++)
		tok = bp_spec_next_token(&pos);
	return bp_spec_err(ctx, "%d arguments given, at most %d fit in a record (SEC(\"%s\")); first extra argument: '%s'",
			   nargs, BP_SPEC_MAX_ARGS, ctx->text, tok);
}

/* ---- map tracing's arguments: map=MAP;update|delete ARG... ------------- */

#define MAP_ARGS	"key, value (update only) or flags (update only)"

int bp_spec_map_special_arg(struct spec_ctx *ctx, const struct bp_spec *spec, const char *tok)
{
	return bp_spec_err(ctx, "argument '%s' of map=%s;%s: a map operation has no %.*s; its arguments are %s",
			   tok, spec->map, spec->func, (int)strcspn(tok, "-.[:@"), tok, MAP_ARGS);
}

/* key, value and flags are all there is; delete has only key. */
int bp_spec_check_map_arg(struct spec_ctx *ctx, const struct bp_spec *spec,
			  const struct bp_arg_spec *arg)
{
	bool update = !strcmp(spec->func, "update");

	if (arg->global || (strcmp(arg->var, "key") && strcmp(arg->var, "value") &&
			    strcmp(arg->var, "flags")))
		return bp_spec_err(ctx, "argument '%s' of map=%s;%s: unknown name '%s%s' (the arguments are %s)",
				   arg->text, spec->map, spec->func, arg->global ? "@" : "",
				   arg->var, MAP_ARGS);
	if (!update && strcmp(arg->var, "key"))
		return bp_spec_err(ctx, "argument '%s' of map=%s;delete: a delete has no %s, only a key",
				   arg->text, spec->map, arg->var);
	if (arg->user)
		return bp_spec_err(ctx, "argument '%s' of map=%s;%s: keys and values are in kernel memory: @user does not apply",
				   arg->text, spec->map, spec->func);
	if (!strcmp(arg->var, "flags") && arg->nsteps)
		return bp_spec_err(ctx, "argument '%s' of map=%s;update: flags is a number (BPF_ANY 0, BPF_NOEXIST 1, BPF_EXIST 2, BPF_F_LOCK 4): it has no members",
				   arg->text, spec->map);
	return 0;
}
