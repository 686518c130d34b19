// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Probe points: what one holds, freed. */
#include <stdlib.h>
#include <string.h>

#include "probes/point.h"

void bp_point__clear(struct bp_point *pt)
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
	memset(pt, 0, sizeof(*pt));
}

void bp_points__free(struct bp_point *points, int npoints)
{
	if (!points)
		return;
	for (int i = 0; i < npoints; i++)
		bp_point__clear(&points[i]);
	free(points);
}
