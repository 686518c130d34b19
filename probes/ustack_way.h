/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The way each point's $ustack takes the user stack (ustack=, probes/spec.h):
 * by frame pointers or by a copy for CFI, ustack=auto deciding from
 * whether the probed binary and its libraries keep frame pointers
 * (probes/binary/frame_pointers.h). The point's location text says which
 * way and why, for resolve and load -v.
 */
#ifndef BPFPROBE_USTACK_WAY_H
#define BPFPROBE_USTACK_WAY_H

#include "probes/point.h"
#include "probes/spec.h"

/* Sets every $ustack fetch of points by spec->ustack. Returns 0 or -ENOMEM. */
int bp_ustack_way__apply(const struct bp_spec *spec, struct bp_point *points, int npoints);

#endif /* BPFPROBE_USTACK_WAY_H */
