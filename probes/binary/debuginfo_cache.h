/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The binaries a resolver has opened, by path: the specs of one object
 * often name the same binary, and opening it (the debug-file hunt, the
 * DWARF index) is the expensive part.
 */
#ifndef BPFPROBE_DEBUGINFO_CACHE_H
#define BPFPROBE_DEBUGINFO_CACHE_H

#include "probes/binary/debuginfo.h"

struct bp_diag;

struct bp_debuginfo_cache {
	struct bp_debuginfo *head;
	bool no_index;		/* binaries get no function index (--no-cache) */
	/* searched by build ID before the usual debug directories (another
	 * process's root's /usr/lib/debug); NULL: none */
	const char *debug_dir;
};

/*
 * path's debuginfo (path absolute), opened on first use (bp_debuginfo__open)
 * and owned by the cache. Returns 0 or a negative errno; what the opening
 * has to say (why not, warnings) is in d.
 */
int bp_debuginfo_cache__get(struct bp_debuginfo_cache *cache, const char *path,
			    struct bp_debuginfo **out, struct bp_diag *d);

/* Closes every binary; the cache is empty again. */
void bp_debuginfo_cache__clear(struct bp_debuginfo_cache *cache);

#endif /* BPFPROBE_DEBUGINFO_CACHE_H */
