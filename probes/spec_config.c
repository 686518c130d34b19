// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The SEC grammar's config terms: the key=value; prefix (exec=, module=,
 * inlines=, force=, map=, copies=, ustack=), its values, and the keys misspelt.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "probes/spec_parse.h"

enum config_key {
	KEY_EXEC,
	KEY_MODULE,
	KEY_INLINES,
	KEY_FORCE,
	KEY_MAP,
	KEY_COPIES,
	KEY_USTACK,
	KEY_CNT,
};

static const char *const config_key_names[KEY_CNT] = {
	[KEY_EXEC] = "exec",
	[KEY_MODULE] = "module",
	[KEY_INLINES] = "inlines",
	[KEY_FORCE] = "force",
	[KEY_MAP] = "map",
	[KEY_COPIES] = "copies",
	[KEY_USTACK] = "ustack",
};

int bp_spec_config_key(const char *s, size_t len)
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

const char *bp_spec_key_typo(const char *s, size_t len)
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
	size_t n = bp_spec_ident_len(seg);
	const char *p;

	if (!n || seg[n] != '=' || bp_spec_config_key(seg, n) < 0)
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
	return bp_spec_err(ctx, "invalid boolean '%s' for key '%s' in '%s=%s' (use y/n, yes/no, 1/0, on/off, true/false)",
			   val, key, key, val);
}

static int parse_ustack(struct spec_ctx *ctx, const char *key, const char *val,
			enum bp_ustack_way *out)
{
	static const char *const names[] = {
		[BP_USTACK_AUTO] = "auto", [BP_USTACK_FP] = "fp", [BP_USTACK_DWARF] = "dwarf",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(val, names[i])) {
			*out = (enum bp_ustack_way)i;
			return 0;
		}
	}
	return bp_spec_err(ctx, "invalid value '%s' for key '%s' in '%s=%s' (use auto, fp or dwarf: how $ustack takes the user stack)",
			   val, key, key, val);
}

static int set_string(struct spec_ctx *ctx, char **dst, const char *key,
		      const char *val, const char *what)
{
	if (!*val)
		return bp_spec_err(ctx, "empty value in '%s=': %s needs a non-empty %s",
				   key, key, what);
	*dst = strdup(val);
	return *dst ? 0 : bp_spec_nomem(ctx);
}

/* Applies one config term; term is "key=value" and is split in place. */
static int apply_config(struct spec_ctx *ctx, struct bp_spec *spec, char *term,
			unsigned int *seen)
{
	char *val = strchr(term, '=');
	int key;

	*val++ = '\0';
	key = bp_spec_config_key(term, strlen(term));
	if (key < 0)
		return bp_spec_err(ctx, "unknown key '%s' in SEC(\"%s\") (known: %s)",
				   term, ctx->text, KEY_NAMES);
	if (*seen & (1u << key))
		return bp_spec_err(ctx, "duplicate key '%s' in '%s=%s': each key may be given once",
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
	case KEY_COPIES:
		return parse_bool(ctx, term, val, &spec->copies);
	case KEY_USTACK:
		return parse_ustack(ctx, term, val, &spec->ustack);
	default:
		return -EINVAL;
	}
}

/* Consumes the key=value; prefix of *pos, leaving *pos at the definition. */
int bp_spec_parse_config(struct spec_ctx *ctx, struct bp_spec *spec, char **pos)
{
	unsigned int seen = 0;
	char *p = *pos, *semi, *end, c;
	int err;

	for (;;) {
		p = bp_spec_skip_space(p);
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
int bp_spec_check_semicolons(struct spec_ctx *ctx, char *def)
{
	char *first = bp_spec_skip_space(def), *semi;
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
	return bp_spec_err(ctx, "unexpected ';' in '%.*s': config terms (key=value;) must come before the probe point, and a lazy pattern (POINT;PTN) is written without spaces",
			   (int)(end - start), start);
}
