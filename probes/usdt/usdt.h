/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * SDT markers (USDT) as probe points: the driver (usdt_resolve.c) over a
 * binary's notes (sdt_notes.h) and its markers' operands (sdt_operand.h).
 * Each site of each marker a spec names is a probe point with a plan of
 * its own (a marker's operands differ from site to site); a marker with a
 * semaphore gets its file offset as the point's reference counter, which
 * the kernel raises while a uprobe is attached there.
 */
#ifndef BPFPROBE_USDT_H
#define BPFPROBE_USDT_H

#include "probes/binary/debuginfo.h"
#include "probes/point.h"
#include "probes/report.h"
#include "probes/spec.h"

/*
 * Resolves spec (spec->sdt: %PROVIDER:NAME) against the binary di opened:
 * as bp_resolver__resolve(). What went wrong is printed, or kept in rep.
 */
int bp_usdt__resolve(const struct bp_debuginfo *di, const struct bp_spec *spec,
		     struct bp_point **points, int *npoints, struct bp_report *rep);

#endif /* BPFPROBE_USDT_H */
