// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Probe points: what one holds, freed. */
#include <stdlib.h>
#include <string.h>

#include "probes/point.h"

/* What a point owns, freed; the point itself left as it is. */
static void point_free_owned(struct bp_point *pt)
{
	free(pt->binary);
	free(pt->seen_as);
	free(pt->func);
	free(pt->cu);
	free(pt->module);
	free(pt->source);
	free(pt->src_file);
	free(pt->caller);
	free(pt->symbol);
	for (int j = 0; j < BP_MAX_ARGS; j++) {
		free(pt->arg_name[j]);
		free(pt->loc_desc[j]);
		free(pt->type_name[j]);
	}
}

void bp_point__clear(struct bp_point *pt)
{
	point_free_owned(pt);
	memset(pt, 0, sizeof(*pt));
}

void bp_points__free(struct bp_point *points, int npoints)
{
	if (!points)
		return;
	/* not cleared: a point is 18 KiB, and a glob may have 100k of them */
	for (int i = 0; i < npoints; i++)
		point_free_owned(&points[i]);
	free(points);
}
