// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Parser for the perf-probe style text a program carries in SEC():
 *
 *   [key=value;]... [EVENT=]POINT [ARG ...]
 *
 * The parser only checks syntax; whether the function, the variables and
 * the members exist is the resolver's business. Every error names the token
 * that caused it, because the user only sees the message, not the parser.
 *
 * Here: the entry points. The grammar's parts (spec_parse.h): the parse
 * context, numbers and tokens (spec_lex.c), config terms (spec_config.c),
 * the probe point (spec_point.c), the arguments (spec_arg.c).
 */
#define _GNU_SOURCE		/* asprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/spec.h"
#include "probes/spec_name.h"
#include "probes/spec_parse.h"

static int parse_definition(struct spec_ctx *ctx, struct bp_spec *spec,
			    char *pos)
{
	char *tok, *more, *joined = NULL;
	int ntok, nargs, err;

	ntok = bp_spec_count_tokens(pos);
	if (!ntok)
		return bp_spec_err(ctx, "missing probe point in SEC(\"%s\"): expected [EVENT=]POINT after the config terms",
				   ctx->text);
	tok = bp_spec_next_token(&pos);
	/* C++: "operator new", "f(int, char const*)" span tokens */
	while (!spec->map && bp_spec_name__continues(tok, bp_spec_skip_space(pos)) && (more = bp_spec_next_token(&pos))) {
		char *j;

		if (asprintf(&j, "%s %s", tok, more) < 0) {
			free(joined);
			return bp_spec_nomem(ctx);
		}
		free(joined);
		tok = joined = j;
		ntok--;
	}
	err = spec->map ? bp_spec_parse_map_point(ctx, spec, tok) : bp_spec_parse_point(ctx, spec, tok);
	free(joined);
	if (err)
		return err;

	nargs = ntok - 1;
	if (nargs > BP_SPEC_MAX_ARGS)
		return bp_spec_too_many_args(ctx, pos, nargs);
	if (!nargs)
		return 0;
	spec->args = calloc(nargs, sizeof(*spec->args));
	if (!spec->args)
		return bp_spec_nomem(ctx);
	while ((tok = bp_spec_next_token(&pos))) {
		/* count it first so a half-parsed argument is freed too */
		struct bp_arg_spec *arg = &spec->args[spec->nargs++];

		err = spec->map && tok[0] == '$' ? bp_spec_map_special_arg(ctx, spec, tok) :
		      bp_spec_parse_arg(ctx, spec, arg, tok);
		if (!err && spec->map)
			err = bp_spec_check_map_arg(ctx, spec, arg);
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
		ret = bp_spec_nomem(&ctx);
		goto out;
	}
	pos = bp_spec_skip_space(buf);
	if (!*pos) {
		ret = bp_spec_err(&ctx, "empty SEC(\"%s\"): expected [key=value;]... [EVENT=]POINT [ARG ...]",
				  ctx.text);
		goto out;
	}
	ret = bp_spec_parse_config(&ctx, spec, &pos);
	if (ret)
		goto out;
	if (spec->copies && !spec->exec) {
		ret = bp_spec_err(&ctx, "copies=yes in SEC(\"%s\") needs exec=: it attaches to copies of a user-space binary",
				  ctx.text);
		goto out;
	}
	ret = bp_spec_check_semicolons(&ctx, pos);
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
	free(spec->provider);
	free(spec->src);
	free(spec->lazy);
	free(spec->point);
	/* so a second free, or a free after a failed parse, is harmless */
	memset(spec, 0, sizeof(*spec));
}

bool bp_arg_spec__needs_dwarf(const struct bp_arg_spec *arg)
{
	if (!arg->var)
		return false;
	/* a member chain needs types ($argN's come from DWARF) */
	if (arg->nsteps)
		return true;
	if (arg->farg != BP_FARG_NONE || arg->global)
		return false;
	return strcmp(arg->var, "$retval") != 0;
}

const struct bp_arg_spec *bp_spec__needs_dwarf(const struct bp_spec *spec)
{
	for (int i = 0; i < spec->nargs; i++)
		if (bp_arg_spec__needs_dwarf(&spec->args[i]))
			return &spec->args[i];
	return NULL;
}
