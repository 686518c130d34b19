// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Attaching to the binaries that were resolved (probes/binary_hold.h):
 * before the first uprobe, each binary a point names is checked to be the
 * file its offsets were found in; the uprobes then go through the held
 * descriptor, never through a path that may name another file by then.
 */
#include <errno.h>
#include <string.h>

#include "loader/object.h"
#include "util/log.h"

int bp_attach_binaries__check(const struct bpfprobe_object *obj)
{
	char why[256];

	for (int i = 0; i < obj->holds.n; i++) {
		const struct bp_held_binary *b = &obj->holds.v[i];
		bool used = false;

		for (int k = 0; k < obj->naps && !used; k++) {
			const struct bp_point *pt = obj->aps[k].point;

			used = !pt->kernel && !strcmp(pt->binary, b->path);
		}
		if (!used || !bp_held_binary__check(b, why, sizeof(why)))
			continue;
		bp_err("cannot attach to %s: it %s; the probe points' offsets were found in the file as it was, and are not put into another: run bpfprobe again to resolve the file as it is now\n",
		       b->path, why);
		return -ESTALE;
	}
	return 0;
}

const char *bp_attach_binaries__path(const struct bpfprobe_object *obj, const char *binary)
{
	const struct bp_held_binary *b = bp_binary_holds__find(&obj->holds, binary);

	if (!b) {
		bp_debug("%s: not held open since it was resolved: attached by its path\n", binary);
		return binary;
	}
	return bp_held_binary__attach_path(b);
}
