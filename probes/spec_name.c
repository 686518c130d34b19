// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* FUNC names in the SEC grammar, C and C++ (spec_name.h). */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "probes/spec_name.h"

/* ASCII only, as spec.c */
static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (c >= '0' && c <= '9');
}

/* C++'s operator tokens, longest first where one begins another */
static const char *const operators[] = {
	"new[]", "delete[]", "new", "delete", "()", "[]", "->*", "->", "<<=", ">>=",
	"<=>", "<<", ">>", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=",
	"*=", "/=", "%=", "^=", "&=", "|=", "+", "-", "*", "/", "%", "^", "&", "|",
	"~", "!", "=", "<", ">", ",", "\"\"",
};

/* s follows the keyword operator: the operator's length (with the space
 * before new/delete or a conversion's type), 0 if none */
static int operator_len(const char *s)
{
	const char *p = s;
	size_t i, n;

	while (*p == ' ')
		p++;
	for (i = 0; i < sizeof(operators) / sizeof(operators[0]); i++) {
		n = strlen(operators[i]);
		if (strncmp(p, operators[i], n))
			continue;
		/* "new"/"delete" are words: not "newline" */
		if (is_ident_char(operators[i][0]) && is_ident_char(p[n]))
			continue;
		/* "operator%" then "%return" */
		if (!strcmp(operators[i], "%=") && !strncmp(p, "%return", 7))
			continue;
		return (int)(p + n - s);
	}
	/* a conversion: operator TYPE (operator bool, operator char const*) */
	if (p > s && is_ident_char(*p)) {
		while (is_ident_char(*p) || (*p == ' ' && is_ident_char(p[1])) || *p == '*' ||
		       *p == '&' || (*p == ':' && p[1] == ':' && (p += 1)))
			p++;
		return (int)(p - s);
	}
	return 0;
}

/* Whether the identifier ending at p (exclusive) is "operator". */
static bool after_operator(const char *s, const char *p)
{
	return p - s >= 8 && !strncmp(p - 8, "operator", 8) &&
	       (p - 8 == s || !is_ident_char(p[-9]));
}

int bp_spec_name__len(const char *s, bool *glob)
{
	const char *p = s, *q;
	int depth = 0, n;

	*glob = false;
	for (;;) {
		if (depth) {
			/* a signature: everything up to its ')' is literal */
			if (!*p)
				return -2;
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
			p++;
			continue;
		}
		if (after_operator(s, p) && (n = operator_len(p)) > 0) {
			p += n;
		} else if (p[0] == ':' && p[1] == ':') {
			p += 2;
		} else if (is_ident_char(*p) || *p == '.' || *p == '~') {
			p++;
		} else if (*p == '*' || *p == '?') {
			*glob = true;
			p++;
		} else if (*p == '[') {
			q = p + 1;
			if (*q == '!' || *q == '^')
				q++;
			if (*q == ']')
				q++;	/* "[]a]": the first ']' is literal */
			while (*q && *q != ']' && (is_ident_char(*q) || *q == '.' || *q == '-'))
				q++;
			if (*q != ']')
				return -1;
			*glob = true;
			p = q + 1;
		} else if (*p == '(' && p > s) {
			depth = 1;
			p++;
		} else if (*p == ' ' && p > s && p[-1] == ')' && !strncmp(p + 1, "const", 5) &&
			   !is_ident_char(p[6])) {
			p += 6;		/* a const method */
		} else {
			return (int)(p - s);
		}
	}
}

bool bp_spec_name__continues(const char *tok, const char *next)
{
	size_t n = strcspn(tok, ";");
	int depth = 0;

	if (!next || !*next || tok[n])
		return false;
	for (size_t i = 0; i < n; i++)
		depth += tok[i] == '(' ? 1 : tok[i] == ')' ? -1 : 0;
	if (depth > 0)
		return true;
	/* "f() const", a const method's signature */
	if (n && tok[n - 1] == ')' && !strncmp(next, "const", 5) && !is_ident_char(next[5]))
		return true;
	return after_operator(tok, tok + n);
}

/* ---- matching a FUNC against names --------------------------------------- */

/*
 * Spaces only where two words meet ("unsigned long", "char const"), none
 * around punctuation: "f(int, char const *)" and "f(int,char const*)" are
 * the same.
 */
static void normalize(const char *s, char *out, size_t len)
{
	size_t n = 0;
	bool space = false;

	for (; *s && n + 1 < len; s++) {
		if (isspace((unsigned char)*s)) {
			space = true;
			continue;
		}
		if (space && n && (isalnum((unsigned char)out[n - 1]) || out[n - 1] == '_') &&
		    (isalnum((unsigned char)*s) || *s == '_') && n + 2 < len)
			out[n++] = ' ';
		space = false;
		out[n++] = *s;
	}
	out[n] = '\0';
}

/* Where text's signature begins (its top-level '(' that is no part of an
 * operator's name), or NULL. */
const char *bp_spec_name__signature_start(const char *text)
{
	int angle = 0;

	for (const char *p = text; *p; p++) {
		if (!strncmp(p, "operator", 8)) {
			p += 8;
			while (*p == ' ')
				p++;
			if (!strncmp(p, "()", 2))
				p++;	/* operator(): its own parentheses */
			else if (*p == '<' || *p == '>')
				while (p[1] == '<' || p[1] == '>' || p[1] == '=')
					p++;
			continue;
		}
		if (*p == '<')
			angle++;
		else if (*p == '>' && angle)
			angle--;
		else if (*p == '(' && !angle)
			return p;
	}
	return NULL;
}

/* The last '::' of text outside template arguments, before end. */
const char *bp_spec_name__last_scope(const char *text, const char *end)
{
	const char *last = NULL;
	int angle = 0;

	for (const char *p = text; p < end && *p; p++) {
		if (!strncmp(p, "operator", 8))
			break;	/* what follows is the operator */
		if (*p == '<')
			angle++;
		else if (*p == '>' && angle)
			angle--;
		else if (!angle && p[0] == ':' && p[1] == ':')
			last = p;
	}
	return last;
}

void bp_func_pattern__init(struct bp_func_pattern *p, const char *text, bool glob)
{
	const char *sig, *scope, *end;

	memset(p, 0, sizeof(*p));
	p->text = text;
	p->glob = glob;
	sig = bp_spec_name__signature_start(text);
	end = sig ? sig : text + strlen(text);
	scope = bp_spec_name__last_scope(text, end);
	p->signature = sig != NULL;
	p->qualified = scope != NULL;
	snprintf(p->last, sizeof(p->last), "%.*s", (int)(end - (scope ? scope + 2 : text)),
		 scope ? scope + 2 : text);
	normalize(p->last, p->last, sizeof(p->last));
	normalize(text, p->norm, sizeof(p->norm));
}

bool bp_func_pattern__text_matches(const struct bp_func_pattern *p, const char *pattern, const char *s)
{
	char norm[512];

	normalize(s, norm, sizeof(norm));
	return p->glob ? !fnmatch(pattern, norm, 0) : !strcmp(pattern, norm);
}

bool bp_func_pattern__name_may_match(const struct bp_func_pattern *p, const char *name)
{
	if (!name)
		return false;
	if (!p->qualified && !p->signature)
		return p->glob ? !fnmatch(p->text, name, 0) : !strcmp(p->text, name);
	/* the last component: cheap, and most functions fail it */
	return bp_func_pattern__text_matches(p, p->last, name);
}
