// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libstdc++'s demangler found at run time (dlopen): programs linking the
 * library need no C++ runtime, and without one C++ signatures are simply
 * not matched. Not in the command's fully static build (a static program
 * cannot load a shared library safely): that one links the demangler in,
 * and cxx.c's weak reference to bp_cxx__runtime_demangler stays unset
 * because nothing else pulls this file from the archive.
 */
#include <dlfcn.h>

#include "probes/dwarf/cxx.h"

bp_cxx_demangle_fn bp_cxx__runtime_demangler(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

	return h ? (bp_cxx_demangle_fn)dlsym(h, "__cxa_demangle") : NULL;
}
