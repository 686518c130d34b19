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

#include "probes/spec_name.h"

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
