/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * FUNC in the SEC grammar, C and C++: a name or a glob (foo, foo.isra.0,
 * glob_*), or a C++ name: qualified (ns::Class::method, ~Class), an
 * operator (operator new[], operator<<, operator()), and optionally the
 * parameters of an overload as a demangler writes them
 * ("f(int, char const*) const"). Spaces inside such a name come from
 * several SEC tokens joined (spec.c); glob characters inside parentheses
 * or after "operator" are literal.
 */
#ifndef BPFPROBE_SPEC_NAME_H
#define BPFPROBE_SPEC_NAME_H

#include <stdbool.h>

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

#endif /* BPFPROBE_SPEC_NAME_H */
