/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * C++ names of functions (cxx.c): qualified names from the scopes of a
 * function's declaration, signatures from its demangled linkage name, and
 * matching a FUNC (spec_name.h) against them.
 */
#ifndef BPFPROBE_CXX_H
#define BPFPROBE_CXX_H

#include <stdbool.h>
#include <stddef.h>
#include <elfutils/libdw.h>

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

/* Whether die (a subprogram or an inlined copy), called name in DWARF, is
 * a function p names. */
bool bp_func_pattern__matches(const struct bp_func_pattern *p, Dwarf_Die *die,
			      const char *name);

/* die's qualified name ("ns::Class::method") in buf; NULL without a name. */
const char *bp_cxx__qualified(Dwarf_Die *die, char *buf, size_t len);

/* die's demangled linkage name ("ns::Class::method(int) const"),
 * malloc'ed; NULL for a function without one (C). */
char *bp_cxx__demangled(Dwarf_Die *die);

/* The C++ ABI's demangler (__cxa_demangle, a C function). */
typedef char *(*bp_cxx_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);
/* libstdc++'s, loaded at run time (cxx_runtime.c); NULL without it. */
bp_cxx_demangle_fn bp_cxx__runtime_demangler(void);

#endif /* BPFPROBE_CXX_H */
