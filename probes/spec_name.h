/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * FUNC in the SEC grammar, C and C++: a name or a glob (foo, foo.isra.0,
 * glob_*), or a C++ name: qualified (ns::Class::method, ~Class), an
 * operator (operator new[], operator<<, operator()), and optionally the
 * parameters of an overload as a demangler writes them
 * ("f(int, char const*) const"). Spaces inside such a name come from
 * several SEC tokens joined (spec.c); glob characters inside parentheses
 * or after "operator" are literal.
 *
 * A FUNC ready to match (struct bp_func_pattern) is matched here against
 * a name as far as no DWARF is needed (the DWARF index uses it); the
 * qualified names and signatures of DIEs are probes/dwarf/cxx.h's.
 */
#ifndef BPFPROBE_SPEC_NAME_H
#define BPFPROBE_SPEC_NAME_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Length of FUNC at s; *glob set when it has glob characters (outside a
 * signature). -1: an unterminated '[' glob class, -2: an unterminated '('.
 */
int bp_spec_name__len(const char *s, bool *glob);

/*
 * Whether a point token so far (tok, without a ';') continues in the next
 * token (next, NULL at the end): it ends in the keyword "operator"
 * ("operator new"), a '(' of its signature is still open, or its
 * signature is followed by "const".
 */
bool bp_spec_name__continues(const char *tok, const char *next);

/* A FUNC as written, ready to match. */
struct bp_func_pattern {
	const char *text;	/* as written (lives as long as the pattern) */
	bool glob;
	bool qualified;		/* names scopes: ns::Class::method */
	bool signature;		/* has parameters: f(int, char const*) */
	char last[256];		/* the last component: what DW_AT_name is */
	char norm[512];		/* text with spaces normalized */
};

void bp_func_pattern__init(struct bp_func_pattern *p, const char *text, bool glob);

/* Whether a function called name in DWARF may be one p names: all of
 * bp_func_pattern__matches that needs no DIE (a plain name or glob says it
 * all; a qualified name or signature is checked on its last component). */
bool bp_func_pattern__name_may_match(const struct bp_func_pattern *p, const char *name);

/* Whether s, normalized (spaces only where two words meet), is pattern (a
 * glob when p is one): the last step of every match above. */
bool bp_func_pattern__text_matches(const struct bp_func_pattern *p, const char *pattern,
				   const char *s);

/* Where text's signature begins (its top-level '(' that is no part of an
 * operator's name), or NULL. */
const char *bp_spec_name__signature_start(const char *text);

/* The last '::' of text outside template arguments, before end, or NULL. */
const char *bp_spec_name__last_scope(const char *text, const char *end);

#endif /* BPFPROBE_SPEC_NAME_H */
