// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* An unwinder's life: options, caches, processes noted and forgotten. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/uw_core.h"
#include "util/opts.h"

#define DEFAULT_MAX_PROCS	32
#define DEFAULT_MAX_BUILDS	64

static char *dup_or_null(const char *s, bool *fail)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*fail = true;
	return d;
}

struct bp_unwinder *bp_unwinder__new(const struct bp_unwinder_opts *opts)
{
	const char *dbg_path = NULL;
	struct bp_unwinder *u;
	bool fail = false;

	if (!OPTS_VALID(opts, bp_unwinder_opts)) {
		errno = EINVAL;
		return NULL;
	}
	u = calloc(1, sizeof(*u));
	if (!u) {
		errno = ENOMEM;
		return NULL;
	}
	u->max_procs = opts && opts->max_procs > 0 ? opts->max_procs : DEFAULT_MAX_PROCS;
	u->max_builds = opts && opts->max_builds > 0 ? opts->max_builds : DEFAULT_MAX_BUILDS;
	u->sample_only = opts && opts->sample_only;
	u->live_stack = opts && opts->live_stack;
	if (opts && opts->debuginfo_path)
		dbg_path = opts->debuginfo_path;
	else
		dbg_path = getenv("BPFPROBE_DEBUGINFO_PATH");
	u->debuginfo_path = dup_or_null(dbg_path, &fail);
	u->kallsyms_path = dup_or_null(opts ? opts->kallsyms_path : NULL, &fail);
	u->modules_path = dup_or_null(opts ? opts->modules_path : NULL, &fail);
	uw_hists__init(&u->hists);
	u->procs = calloc(u->max_procs, sizeof(*u->procs));
	u->builds = calloc(u->max_builds, sizeof(*u->builds));
	if (fail || !u->procs || !u->builds) {
		bp_unwinder__free(u);
		errno = ENOMEM;
		return NULL;
	}
	/* NULL debuginfo_path: libdwfl's default ":.debug:/usr/lib/debug" */
	u->proc_cb = (Dwfl_Callbacks){
		.find_elf = uw_proc__find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.debuginfo_path = &u->debuginfo_path,
	};
	u->build_cb = (Dwfl_Callbacks){
		.find_elf = uw_build__find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.debuginfo_path = &u->debuginfo_path,
	};
	return u;
}

void bp_unwinder__flush(struct bp_unwinder *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->nprocs; i++)
		uw_proc__free(u->procs[i]);
	u->nprocs = 0;
	/* snapshots can be read again, what was reported cannot */
	if (!u->hists.tracking)
		uw_hists__fini(&u->hists);
	for (i = 0; i < u->nbuilds; i++)
		uw_build__free(u->builds[i]);
	u->nbuilds = 0;
	uw_kernel__free(u->kernel);
	u->kernel = NULL;
}

void bp_unwinder__free(struct bp_unwinder *u)
{
	if (!u)
		return;
	bp_unwinder__flush(u);
	uw_hists__fini(&u->hists);
	free(u->procs);
	free(u->builds);
	free(u->vdso);
	free(u->debuginfo_path);
	free(u->kallsyms_path);
	free(u->modules_path);
	free(u);
}

int bp_unwinder__note_pid(struct bp_unwinder *u, pid_t pid)
{
	if (!u || pid <= 0)
		return -EINVAL;
	return uw_at__note(u, pid);
}

void bp_unwinder__forget_pid(struct bp_unwinder *u, pid_t pid)
{
	if (!u)
		return;
	uw_proc__forget(u, pid);
	uw_hists__forget(&u->hists, pid);
}

int bp_unwinder__proc_event(struct bp_unwinder *u, const struct bp_proc_event *ev)
{
	return u ? uw_hists__event(&u->hists, ev) : -EINVAL;
}

static void forget_proc(pid_t pid, void *ctx)
{
	uw_proc__forget(ctx, pid);
}

int bp_unwinder__settle(struct bp_unwinder *u, __u64 until_ns)
{
	int n, err;

	if (!u)
		return 0;
	n = uw_hists__forget_exited(&u->hists, forget_proc, u);
	err = uw_hists__settle(&u->hists, until_ns);
	return err ? err : n;
}
