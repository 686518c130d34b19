// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The way of each $ustack (ustack_way.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/binary/frame_pointers.h"
#include "probes/ustack_way.h"

struct choice {
	const char *binary;	/* the binary it was made for */
	bool fp;
	char desc[512];
};

static int choose(const struct bp_spec *spec, const struct bp_point *pt, struct choice *c)
{
	char why[400];
	int n, rc;

	c->binary = pt->binary;
	c->fp = spec->ustack == BP_USTACK_FP;
	if (spec->ustack == BP_USTACK_FP) {
		snprintf(c->desc, sizeof(c->desc), "the user stack by frame pointers (ustack=fp)");
		return 0;
	}
	if (spec->ustack == BP_USTACK_DWARF) {
		snprintf(c->desc, sizeof(c->desc),
			 "the user stack, copied for CFI (ustack=dwarf: registers and up to 8 KiB)");
		return 0;
	}
	if (pt->kernel) {
		snprintf(c->desc, sizeof(c->desc),
			 "the user stack, copied for CFI (registers and up to 8 KiB; ustack=auto checks no binary for a kernel probe)");
		return 0;
	}
	rc = bp_frame_pointers__closure(pt->binary, NULL, &n, why, sizeof(why));
	if (rc < 0)
		return rc;
	c->fp = rc == 1;
	if (c->fp)
		snprintf(c->desc, sizeof(c->desc),
			 "the user stack by frame pointers (all %d module%s keep them)", n,
			 n == 1 ? "" : "s");
	else
		snprintf(c->desc, sizeof(c->desc), "the user stack, copied for CFI (%s)", why);
	return 0;
}

int bp_ustack_way__apply(const struct bp_spec *spec, struct bp_point *points, int npoints)
{
	struct choice c = {};
	bool have = false;
	int err;

	for (int i = 0; i < npoints; i++) {
		struct bp_point *pt = &points[i];

		for (int k = 0; k < pt->plan.nargs; k++) {
			struct bp_fetch *f = &pt->plan.args[k];
			char *desc;

			if (f->kind != BP_FETCH_USTACK)
				continue;
			if (!have || !c.binary || !pt->binary || strcmp(c.binary, pt->binary)) {
				err = choose(spec, pt, &c);
				if (err)
					return err;
				have = true;
			}
			f->reg = c.fp ? BP_USTACK_REG_FP : 0;
			desc = strdup(c.desc);
			if (!desc)
				return -ENOMEM;
			free(pt->loc_desc[k]);
			pt->loc_desc[k] = desc;
		}
	}
	return 0;
}
