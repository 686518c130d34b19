// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The SEC grammar's arguments: [NAME=]EXPR[:TYPE][@user], EXPR a variable
 * or @GLOBAL with its ->field, .field and [N] steps, a special variable
 * ($retval, $params), or one of perf's fetch arguments ($argN, %REG,
 * @SYM+OFFS, +OFFS(FETCHARG)); which arguments a map spec takes; the C
 * name of an argument.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "probes/spec_parse.h"
#include "prologue/arch.h"

/* passed through "%s": a '%' in a format string would be a conversion */
#define EXPR_FORMS	"EXPR is VAR or @GLOBAL followed by ->field, .field or [N], $retval, $params, $ustack, $kstack, or a fetch argument: $argN, %REG, @SYM+OFFS, +OFFS(FETCHARG)"
#define FETCHARG_FORMS	"FETCHARG is %REG, $argN, @SYM[+OFFS] or another +OFFS(FETCHARG)"
#define TYPE_NAMES	"u8 u16 u32 u64 s8 s16 s32 s64 x8 x16 x32 x64 string ustring"
/* $argN: N from 1 to this (the stack holds the rest) */
#define MAX_ARGN	64
/* an offset of +OFFS(...) or @SYM+OFFS: what a read instruction takes */
#define MAX_OFFSET	0x7fffffffULL

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

/* Parses ->field, .field and [N] steps from p to the end of the expression. */
static int parse_steps(struct spec_ctx *ctx, struct bp_arg_spec *arg,
		       const char *tok, const char *p, const char **end)
{
	int err;

	while (!is_expr_end(*p)) {
		err = parse_step(ctx, arg, tok, &p);
		if (err)
			return err;
	}
	*end = p;
	return 0;
}

/* $argN (n bytes at expr, n > 4): N into arg->argn. */
static int parse_argn(struct spec_ctx *ctx, struct bp_arg_spec *arg, const char *tok,
		      const char *expr, size_t n)
{
	uint64_t v;
	const char *end;
	int err;

	err = bp_spec_parse_uint(expr + 4, 10, MAX_ARGN, &v, &end);
	if (err == -ERANGE || (!err && end == expr + n && v > MAX_ARGN))
		return bp_spec_err(ctx, "'%.*s' in argument '%s': at most $arg%d", (int)n, expr,
				   tok, MAX_ARGN);
	if (err || end != expr + n)
		return bp_spec_err(ctx, "'%.*s' in argument '%s' is not supported (%s)", (int)n,
				   expr, tok, EXPR_FORMS);
	if (!v)
		return bp_spec_err(ctx, "'%.*s' in argument '%s': arguments count from 1 ($arg1 is the first)",
				   (int)n, expr, tok);
	arg->farg = BP_FARG_ARGN;
	arg->argn = (int)v;
	arg->var = strndup(expr, n);
	return arg->var ? 0 : bp_spec_nomem(ctx);
}

static bool is_argn(const char *expr, size_t n)
{
	return n > 4 && !strncmp(expr, "$arg", 4) && is_digit(expr[4]);
}

/* argN of an SDT marker (argn from 1), at expr (n bytes). */
static bool is_marker_arg(const struct bp_spec *spec, const char *expr, size_t n)
{
	if (!spec || !spec->sdt || n < 4 || strncmp(expr, "arg", 3))
		return false;
	for (size_t i = 3; i < n; i++)
		if (!is_digit(expr[i]))
			return false;
	return true;
}

static int parse_marker_arg(struct spec_ctx *ctx, struct bp_arg_spec *arg, const char *tok,
			    const char *expr, size_t n)
{
	uint64_t v;
	const char *end;

	if (bp_spec_parse_uint(expr + 3, 10, MAX_ARGN, &v, &end) || end != expr + n || !v)
		return bp_spec_err(ctx, "'%.*s' in argument '%s': a marker's arguments are arg1 to arg%d",
				   (int)n, expr, tok, MAX_ARGN);
	arg->farg = BP_FARG_SDT;
	arg->argn = (int)v;
	arg->var = strndup(expr, n);
	return arg->var ? 0 : bp_spec_nomem(ctx);
}

/* $retval, $params and $argN (perf's other special variables are not there yet). */
static int parse_special(struct spec_ctx *ctx, const struct bp_spec *spec,
			 struct bp_arg_spec *arg, const char *tok,
			 const char *expr, const char **end)
{
	size_t n;
	int err;

	for (n = 1; is_ident_char(expr[n]); n++)
		;
	if (is_argn(expr, n)) {
		/* a member chain needs its type: DWARF's or BTF's (resolver) */
		err = parse_argn(ctx, arg, tok, expr, n);
		return err ?: parse_steps(ctx, arg, tok, expr + n, end);
	}
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
	if (n == 7 && (!strncmp(expr, "$ustack", 7) || !strncmp(expr, "$kstack", 7))) {
		/* the stack's id (a bpfprobe_stack_t), whatever the resolver */
		if (!is_expr_end(expr[n]))
			return bp_spec_err(ctx, "'%.7s' in argument '%s' takes no member, :TYPE or @user",
					   expr, tok);
		arg->var = strndup(expr, n);
		arg->farg = expr[1] == 'u' ? BP_FARG_USTACK : BP_FARG_KSTACK;
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

/* ---- perf's fetch arguments ------------------------------------------- */

/* %REG at p: its DWARF number into arg->reg, *end past its name. */
static int parse_reg(struct spec_ctx *ctx, struct bp_arg_spec *arg, const char *tok,
		     const char *p, const char **end)
{
	size_t n = bp_spec_ident_len(p + 1);
	int reg;

	if (!n)
		return bp_spec_err(ctx, "'%%' in argument '%s' must be followed by a register name (at offset %zu); accepted: %s",
				   tok, (size_t)(p - tok), bp_arch__reg_names());
	reg = bp_arch__reg_by_name(p + 1, n);
	if (reg < 0)
		return bp_spec_err(ctx, "unknown register '%.*s' in argument '%s'; accepted: %s",
				   (int)n + 1, p, tok, bp_arch__reg_names());
	arg->farg = BP_FARG_REG;
	arg->reg = reg;
	arg->var = strndup(p, n + 1);
	if (!arg->var)
		return bp_spec_nomem(ctx);
	*end = p + 1 + n;
	return 0;
}

/* [+-]OFFS at p (decimal, or hex with 0x), if there is one: *off, *end. */
static int parse_offset(struct spec_ctx *ctx, const char *tok, const char *p, bool allow_user,
			int64_t *off, bool *user, const char **end)
{
	bool neg = *p == '-';
	const char *q = p + 1;
	uint64_t v;
	int base = 10, err;

	if (allow_user && *q == 'u') {
		*user = true;
		q++;
	}
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		base = 16;
		q += 2;
	}
	err = bp_spec_parse_uint(q, base, MAX_OFFSET, &v, end);
	if (err == -ERANGE)
		return bp_spec_err(ctx, "offset too large in argument '%s' (at offset %zu): at most 0x%llx",
				   tok, (size_t)(p - tok), MAX_OFFSET);
	if (err)
		return bp_spec_err(ctx, "'%c' in argument '%s' must be followed by an offset, decimal or hex with 0x (at offset %zu): +OFFS(FETCHARG), -OFFS(FETCHARG) or @SYM+OFFS",
				   *p, tok, (size_t)(p - tok));
	*off = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

static bool starts_offset(const char *p)
{
	return (p[0] == '+' || p[0] == '-') && p[1] != '>';
}

/* @SYM[+|-OFFS] at p: the symbol into var, its offset into sym_off. */
static int parse_sym(struct spec_ctx *ctx, struct bp_arg_spec *arg, const char *tok,
		     const char *p, const char **end)
{
	size_t n = bp_spec_ident_len(p + 1);
	bool user = false;
	int err;

	if (!n)
		return bp_spec_err(ctx, "'@' in argument '%s' must be followed by a symbol name (at offset %zu)",
				   tok, (size_t)(p - tok));
	arg->farg = BP_FARG_SYM;
	arg->global = true;
	arg->var = strndup(p + 1, n);
	if (!arg->var)
		return bp_spec_nomem(ctx);
	*end = p + 1 + n;
	if (!starts_offset(*end))
		return 0;
	err = parse_offset(ctx, tok, *end, false, &arg->sym_off, &user, end);
	return err;
}

/*
 * A FETCHARG at p, inside depth +OFFS(...) already: another +OFFS(...),
 * or (depth > 0) %REG, $argN or @SYM[+OFFS]. The reads are appended
 * innermost first.
 */
static int parse_fetcharg(struct spec_ctx *ctx, const struct bp_spec *spec,
			  struct bp_arg_spec *arg, const char *tok, const char *p,
			  const char **end, int depth)
{
	const char *q;
	bool user = false;
	int64_t off;
	size_t n;
	int err;

	if (starts_offset(p)) {
		err = parse_offset(ctx, tok, p, true, &off, &user, &q);
		if (err)
			return err;
		if (*q != '(')
			return bp_spec_err(ctx, "expected '(' after the offset in argument '%s' (at offset %zu): +OFFS(FETCHARG)",
					   tok, (size_t)(q - tok));
		if (depth == BP_SPEC_MAX_READS)
			return bp_spec_err(ctx, "argument '%s' nests more than %d +OFFS(...) reads",
					   tok, BP_SPEC_MAX_READS);
		err = parse_fetcharg(ctx, spec, arg, tok, q + 1, &q, depth + 1);
		if (err)
			return err;
		if (*q != ')')
			return bp_spec_err(ctx, "%s in argument '%s' (at offset %zu): expected ')' to close +OFFS(FETCHARG)",
					   *q ? "unexpected character" : "unterminated '('", tok,
					   (size_t)(q - tok));
		arg->read_off[arg->nreads] = off;
		if (user)
			arg->read_user |= 1U << arg->nreads;
		arg->nreads++;
		*end = q + 1;
		return 0;
	}
	if (!*p)
		return bp_spec_err(ctx, "argument '%s' ends inside '(': +OFFS(FETCHARG) needs its FETCHARG and ')'; %s",
				   tok, FETCHARG_FORMS);
	if (*p == '%')
		return parse_reg(ctx, arg, tok, p, end);
	if (*p == '@')
		return parse_sym(ctx, arg, tok, p, end);
	n = bp_spec_ident_len(p);
	if (is_marker_arg(spec, p, n)) {
		*end = p + n;
		return parse_marker_arg(ctx, arg, tok, p, n);
	}
	for (n = 1; p[0] == '$' && is_ident_char(p[n]); n++)
		;
	if (p[0] == '$' && is_argn(p, n)) {
		*end = p + n;
		return parse_argn(ctx, arg, tok, p, n);
	}
	return bp_spec_err(ctx, "unexpected '%.*s' inside +OFFS(...) in argument '%s' (at offset %zu): %s",
			   (int)(p[0] == '$' ? n : 1), p, tok, (size_t)(p - tok), FETCHARG_FORMS);
}

/* What may follow a fetch argument without a type: nothing but :TYPE, @user. */
static int fetcharg_end(struct spec_ctx *ctx, const char *tok, const char *what, int len,
			const char *p)
{
	if (is_expr_end(*p))
		return 0;
	if (*p == '-' || *p == '.' || *p == '[')
		return bp_spec_err(ctx, "'%.*s' in argument '%s' has no type, so no member or index: read memory with +OFFS(%.*s) instead, or name the variable (DWARF)",
				   len, what, tok, len, what);
	return bp_spec_err(ctx, "unexpected '%s' after '%.*s' in argument '%s'", p, len, what, tok);
}

static int parse_expr(struct spec_ctx *ctx, const struct bp_spec *spec,
		      struct bp_arg_spec *arg, const char *tok,
		      const char *expr, const char **end)
{
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
	if (expr[0] == '%') {
		err = parse_reg(ctx, arg, tok, expr, end);
		return err ?: fetcharg_end(ctx, tok, expr, (int)(*end - expr), *end);
	}
	if (starts_offset(expr)) {
		err = parse_fetcharg(ctx, spec, arg, tok, expr, end, 0);
		return err ?: fetcharg_end(ctx, tok, expr, (int)(*end - expr), *end);
	}
	if (is_global(expr)) {
		n = bp_spec_ident_len(expr + 1);
		if (starts_offset(expr + 1 + n) && is_digit(expr[2 + n])) {
			err = parse_sym(ctx, arg, tok, expr, end);
			return err ?: fetcharg_end(ctx, tok, expr, (int)(*end - expr), *end);
		}
		arg->global = true;
		expr++;
	}
	n = bp_spec_ident_len(expr);
	if (is_marker_arg(spec, expr, n) && !arg->global) {
		err = parse_marker_arg(ctx, arg, tok, expr, n);
		*end = expr + n;
		return err ?: fetcharg_end(ctx, tok, expr, (int)n, *end);
	}
	if (!n)
		/* "a -> b" splits into three tokens; say so */
		return bp_spec_err(ctx, "argument '%s' must start with a variable name, $retval or a fetch argument%s",
				   tok, strchr("-.[", expr[0]) ?
				   " (no spaces inside an argument)" : "");
	arg->var = strndup(expr, n);
	if (!arg->var)
		return bp_spec_nomem(ctx);
	return parse_steps(ctx, arg, tok, expr + n, end);
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
	/* the resolver fetches the string's address; the loader the rest */
	if (len == 6 && !strncmp(s, "string", 6)) {
		arg->string = true;
		return 0;
	}
	if (len == 7 && !strncmp(s, "ustring", 7)) {
		arg->ustring = true;
		return 0;
	}
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
			if (arg->has_type || arg->string || arg->ustring)
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

/* ---- an argument's C name ---------------------------------------------- */

const char *bp_arg_spec__c_name(const struct bp_arg_spec *arg, char *buf, size_t len)
{
	/* NAME= or the expression as written (no modifiers) */
	const char *expr = arg->name ? arg->name : arg->var;
	const char *p, *last = NULL;
	size_t n = 0, k;

	if (!expr || !len)
		return NULL;
	/* the last identifier: a number (8, 0x10) is skipped whole */
	for (p = expr; *p; p += k) {
		if (is_digit(*p)) {
			for (k = 1; is_ident_char(p[k]); k++)
				;
			continue;
		}
		k = bp_spec_ident_len(p);
		if (!k) {
			k = 1;
			continue;
		}
		last = p;
		n = k;
	}
	if (!last || n + 1 > len)
		return NULL;
	memcpy(buf, last, n);
	buf[n] = '\0';
	return buf;
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
