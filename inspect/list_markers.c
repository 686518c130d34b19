// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The SDT markers of a binary, for `bpfprobe markers` (inspect.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect.h"
#include "probes/binary/libpath.h"
#include "util/log.h"

int bp_inspect__markers(struct bp_marker_list *l, const char *binary, const char *glob)
{
	char why[512], full[512];
	int n, k = 0;

	memset(l, 0, sizeof(*l));
	l->binary = bp_find_binary(binary);
	if (!l->binary) {
		bp_err("binary '%s' not found\n", binary);
		return -ENOENT;
	}
	n = bp_sdt_sites__read(l->binary, &l->sites, why, sizeof(why));
	if (n < 0) {
		bp_err("%s\n", why);
		return n;
	}
	/* those GLOB matches as PROVIDER:NAME, in note order */
	for (int i = 0; i < n; i++) {
		snprintf(full, sizeof(full), "%s:%s", l->sites[i].provider, l->sites[i].name);
		if (glob && fnmatch(glob, full, 0)) {
			free(l->sites[i].provider);
			free(l->sites[i].name);
			free(l->sites[i].args);
			continue;
		}
		l->sites[k++] = l->sites[i];
	}
	l->n = k;
	l->had_notes = n > 0;
	return 0;
}

void bp_inspect__markers_free(struct bp_marker_list *l)
{
	bp_sdt_sites__free(l->sites, l->n);
	free(l->binary);
	memset(l, 0, sizeof(*l));
}
