// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Opened binaries by path: a list, as an object names few. */
#include <string.h>

#include "probes/binary/debuginfo_cache.h"

int bp_debuginfo_cache__get(struct bp_debuginfo_cache *cache, const char *path,
			    struct bp_debuginfo **out, struct bp_diag *d)
{
	struct bp_debuginfo *di;
	int err;

	for (di = cache->head; di; di = di->next) {
		if (!strcmp(di->path, path)) {
			*out = di;
			return 0;
		}
	}
	err = bp_debuginfo__open_in(path, cache->debug_dir, &di, d);
	if (err)
		return err;
	di->no_index = cache->no_index;
	di->next = cache->head;
	cache->head = di;
	*out = di;
	return 0;
}

void bp_debuginfo_cache__clear(struct bp_debuginfo_cache *cache)
{
	struct bp_debuginfo *di, *next;

	for (di = cache->head; di; di = next) {
		next = di->next;
		bp_debuginfo__free(di);
	}
	cache->head = NULL;
}
