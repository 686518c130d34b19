// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * How map-tracing points attach here: fentry (a BPF trampoline) when the
 * kernel allows it, since only fentry programs run while the bpf() syscall
 * changes a map (it keeps kprobe programs out: bpf_disable_instrumentation)
 * and inside BPF programs that themselves run as kprobes; else kprobes,
 * which then see BPF programs' updates and deletes only, and say so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "loader/attach_probe.h"
#include "loader/map_trace.h"
#include "probes/maps.h"
#include "util/log.h"

static const char *release(struct utsname *u)
{
	if (uname(u))
		snprintf(u->release, sizeof(u->release), "?");
	return u->release;
}

static const char *why_no_fentry(int err)
{
	switch (err) {
	case -EPERM:
	case -EACCES:
		return "the kernel refuses to load fentry programs here (a security policy, or no CAP_BPF/CAP_PERFMON)";
	case -EOPNOTSUPP:
	case -524:	/* the kernel's ENOTSUPP */
	case -EINVAL:
		return "the kernel has no BPF trampolines for it (CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS, CONFIG_FUNCTION_TRACER)";
	default:
		return "loading an fentry program fails";
	}
}

int bp_map_trace__choose(const char *what, struct bp_point *points, int npoints)
{
	const char *force = getenv(BP_MAP_ATTACH_ENV);
	struct utsname u;
	int err = 0;

	if (!npoints || !points[0].map.on)
		return 0;
	if (force && *force && strcmp(force, "fentry") && strcmp(force, "kprobe")) {
		bp_err("%s: %s=%s: use fentry or kprobe\n", what, BP_MAP_ATTACH_ENV, force);
		return -EINVAL;
	}
	if (!force || strcmp(force, "kprobe")) {
		err = bp_fentry__probe(points[0].map.btf_id);
		if (!err)
			return 0;
		if (force && *force) {
			bp_err("%s: no fentry program on %s (%s=fentry): %s: %s\n", what,
			       points[0].func, BP_MAP_ATTACH_ENV, why_no_fentry(err), strerror(-err));
			return err;
		}
	}
	if (bp_pmu__type("kprobe") < 0) {
		bp_err("%s: no fentry program on %s: %s (%s)\n", what, points[0].func,
		       why_no_fentry(err), strerror(-err));
		bp_kprobe__check_available(what);
		bp_err("%s: map tracing attaches with fentry or kprobes, and this kernel (%s) allows neither\n",
		       what, release(&u));
		return -EOPNOTSUPP;
	}
	if (err)
		bp_err("%s: warning: no fentry program on %s (%s: %s): using kprobes, which do not run while the bpf() syscall changes the map, nor inside BPF programs run as kprobes, uprobes, tracepoints or perf events: only other BPF programs' updates and deletes are seen\n",
		       what, points[0].func, why_no_fentry(err), strerror(-err));
	else
		bp_err("%s: warning: %s=kprobe: kprobes do not run while the bpf() syscall changes the map, nor inside BPF programs run as kprobes, uprobes, tracepoints or perf events: only other BPF programs' updates and deletes are seen\n",
		       what, BP_MAP_ATTACH_ENV);
	bp_map_points__to_kprobes(points, npoints);
	return 0;
}
