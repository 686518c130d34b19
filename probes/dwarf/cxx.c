// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * C++ names of functions: a function's DW_AT_name is its last component
 * (method, operator new, ~Class); its qualified name is built from the
 * scopes of its declaration (namespaces, classes: DW_AT_specification and
 * DW_AT_abstract_origin lead there); its signature is its linkage name
 * demangled (libstdc++'s __cxa_demangle). A FUNC naming scopes is matched
 * against the qualified name, one with parameters against the demangled
 * signature, others against DW_AT_name as for C.
 */
#include <ctype.h>
#include <pthread.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/cxx.h"
#include "probes/dwarf/types.h"

/*
 * libstdc++'s demangler: linked in (the command's fully static build links
 * __cxa_demangle from libstdc++.a), else loaded at run time
 * (cxx_runtime.c: every build whose C library is shared links it). Both are
 * weak references: whichever the program has is used; with neither, C++
 * signatures are simply not matched.
 */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status)
	__attribute__((weak));
extern bp_cxx_demangle_fn bp_cxx__runtime_demangler(void) __attribute__((weak));

static bp_cxx_demangle_fn demangler;
static pthread_once_t demangler_once = PTHREAD_ONCE_INIT;

static void find_demangler(void)
{
	if (__cxa_demangle)
		demangler = __cxa_demangle;
	else if (bp_cxx__runtime_demangler)
		demangler = bp_cxx__runtime_demangler();
}

#define MAX_SCOPES	32

/* The DIE that declares die: its specification, through its origin. */
static void declaration(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute attr;
	Dwarf_Die cur = *die, next;
	int i;

	for (i = 0; i < 8; i++) {
		if ((dwarf_attr(&cur, DW_AT_abstract_origin, &attr) ||
		     dwarf_attr(&cur, DW_AT_specification, &attr)) &&
		    dwarf_formref_die(&attr, &next)) {
			cur = next;
			continue;
		}
		break;
	}
	*out = cur;
}

const char *bp_cxx__qualified(Dwarf_Die *die, char *buf, size_t len)
{
	Dwarf_Die decl, *scopes = NULL;
	const char *names[MAX_SCOPES], *name = bp_die_name(die);
	size_t pos = 0;
	int i, n, k = 0;

	if (!name || !len)
		return NULL;
	declaration(die, &decl);
	n = dwarf_getscopes_die(&decl, &scopes);
	/* scopes[0] is the declaration itself, the unit last */
	for (i = 1; i < n && k < MAX_SCOPES; i++) {
		int tag = dwarf_tag(&scopes[i]);
		const char *s;

		if (tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit)
			break;
		s = dwarf_diename(&scopes[i]);
		if (tag == DW_TAG_namespace)
			names[k++] = s ? s : "(anonymous namespace)";
		else if (bp_tag_is_record(tag) || tag == DW_TAG_enumeration_type)
			names[k++] = s ? s : "(anonymous)";
		else if (tag == DW_TAG_subprogram && s)
			names[k++] = s;	/* a class local to a function */
	}
	free(scopes);
	buf[0] = '\0';
	while (k-- > 0 && pos < len)
		pos += snprintf(buf + pos, len - pos, "%s::", names[k]);
	if (pos < len)
		snprintf(buf + pos, len - pos, "%s", name);
	return buf;
}

char *bp_cxx__demangled(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *mangled;
	int status = 0;

	if (!dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) &&
	    !dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		return NULL;
	mangled = dwarf_formstring(&attr);
	if (!mangled || strncmp(mangled, "_Z", 2))
		return NULL;
	pthread_once(&demangler_once, find_demangler);
	return demangler ? demangler(mangled, NULL, NULL, &status) : NULL;
}

bool bp_func_pattern__matches(const struct bp_func_pattern *p, Dwarf_Die *die,
			      const char *name)
{
	char buf[512];
	char *sig;
	bool ok;

	if (!bp_func_pattern__name_may_match(p, name))
		return false;
	if (!p->qualified && !p->signature)
		return true;
	if (p->signature) {
		sig = bp_cxx__demangled(die);
		if (!sig)
			return false;
		/* a signature without scopes names a function of any scope */
		ok = bp_func_pattern__text_matches(p, p->norm, sig);
		if (!ok && !p->qualified) {
			const char *scope = bp_spec_name__last_scope(sig, bp_spec_name__signature_start(sig) ?: sig + strlen(sig));

			ok = scope && bp_func_pattern__text_matches(p, p->norm, scope + 2);
		}
		free(sig);
		return ok;
	}
	return bp_cxx__qualified(die, buf, sizeof(buf)) && bp_func_pattern__text_matches(p, p->norm, buf);
}
