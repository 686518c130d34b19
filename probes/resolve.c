// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The resolver's front door: a parsed spec goes to the user-space resolver
 * (probes/dwarf/, spec->exec set), the map-tracing one (probes/map/,
 * spec->map set) or the kernel's (probes/kernel/). It
 * owns what they share across the specs of an object: the opened binaries
 * and the kernel's symbols and BTF.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "probes/binary/debuginfo_cache.h"
#include "probes/binary_hold.h"
#include "probes/dwarf/dwarf.h"
#include "probes/binary/libpath.h"
#include "probes/kernel/kernel.h"
#include "probes/map/map.h"
#include "probes/record_plan.h"
#include "probes/report.h"
#include "probes/resolution_cache.h"
#include "probes/resolve.h"
#include "probes/usdt/usdt.h"
#include "probes/ustack_way.h"
#include "probes/view.h"
#include "util/log.h"
#include "util/regular_file.h"

struct bp_resolver {
	/* opened binaries by path: specs often share one */
	struct bp_debuginfo_cache cache;
	/* kallsyms and kernel BTF, loaded by the first kernel spec */
	struct bp_kernel *kernel;
	/* --vmlinux: kernel DWARF to use instead of the usual places */
	char *vmlinux;
	/* map tracing (map=): kallsyms and kernel BTF, loaded by the first */
	struct bp_map_resolver *map;
	/* finished resolutions read from and kept in the user's cache */
	bool resolutions;
	/* exec= as this process sees it (-p PID); NULL: as we see it */
	struct bp_view *view;
	/* the user-space binaries resolved, held open until attach */
	struct bp_binary_holds holds;
};

struct bp_resolver *bp_resolver__new(void)
{
	return calloc(1, sizeof(struct bp_resolver));
}

void bp_resolver__free(struct bp_resolver *r)
{
	if (!r)
		return;
	bp_debuginfo_cache__clear(&r->cache);
	bp_kernel__free(r->kernel);
	bp_map_resolver__free(r->map);
	bp_view__free(r->view);
	bp_binary_holds__free(&r->holds);
	free(r->vmlinux);
	free(r);
}

int bp_resolver__set_view(struct bp_resolver *r, pid_t pid, char *why, size_t len)
{
	struct bp_view *v = NULL;
	int err = 0;

	if (pid > 0)
		err = bp_view__open(pid, &v, why, len);
	if (err)
		return err;
	bp_view__free(r->view);
	r->view = v;
	r->cache.debug_dir = v ? bp_view__debug_dir(v) : NULL;
	return 0;
}

int bp_resolver__view_check(const struct bp_resolver *r, char *why, size_t len)
{
	if (!r->view || bp_view__alive(r->view))
		return 0;
	snprintf(why, len, "process %d exited while its probes were being resolved",
		 (int)bp_view__pid(r->view));
	return -ESRCH;
}

const char *bp_resolver__debug_dir(const struct bp_resolver *r)
{
	return r->cache.debug_dir;
}

int bp_resolver__take_holds(struct bp_resolver *r, struct bp_binary_holds *to)
{
	return bp_binary_holds__move(to, &r->holds);
}

/* The binary at path, open as fd, is what was resolved: held. */
static int hold(struct bp_resolver *r, const char *path, int fd, const struct bp_file_id *id,
		struct bp_report *rep)
{
	int err = bp_binary_holds__add(&r->holds, path, fd, id);

	if (err)
		bp_report__line(rep, "cannot keep %s open until the probes attach: %s\n", path,
				strerror(-err));
	return err;
}

static int hold_debuginfo(struct bp_resolver *r, const struct bp_debuginfo *di,
			  struct bp_report *rep)
{
	struct bp_file_id id = { .st = di->st, .build_id_len = di->build_id_len };

	memcpy(id.build_id, di->build_id, sizeof(id.build_id));
	return hold(r, di->path, di->fd, &id, rep);
}

void bp_resolver__set_no_cache(struct bp_resolver *r, bool no_cache)
{
	r->cache.no_index = no_cache;
}

void bp_resolver__set_resolution_cache(struct bp_resolver *r, bool on)
{
	r->resolutions = on;
}

int bp_resolver__set_vmlinux(struct bp_resolver *r, const char *path)
{
	free(r->vmlinux);
	r->vmlinux = path ? strdup(path) : NULL;
	return path && !r->vmlinux ? -ENOMEM : 0;
}

static const char *arg_text(const struct bp_arg_spec *arg)
{
	return arg->text ? arg->text : arg->name ? arg->name : arg->var;
}

/* --- the spec ------------------------------------------------------------- */

/* The probe point for messages: as written, or the function. */
static const char *point_name(const struct bp_spec *spec)
{
	return spec->point ? spec->point : spec->func ? spec->func : "?";
}

static int check_spec(const struct bp_spec *spec, struct bp_report *rep)
{
	if ((!spec->func || !*spec->func) && !spec->src) {
		bp_report__line(rep, "SEC(\"%s\"): no function or source line named\n",
				spec->text ? spec->text : "");
		return -EINVAL;
	}
	if (spec->nargs < 0 || spec->nargs > bp_spec__max_args(spec)) {
		bp_report__line(rep, "%s: %d arguments requested, at most %d fit in %s\n",
				point_name(spec), spec->nargs, bp_spec__max_args(spec),
				spec->record ? "a record" : "R3..R5");
		return -E2BIG;
	}
	return 0;
}

static int open_binary(struct bp_resolver *r, const struct bp_spec *spec, const char *path,
		       struct bp_debuginfo **di, struct bp_report *rep)
{
	const struct bp_arg_spec *needs;
	struct bp_diag d = {};
	int err;

	err = bp_debuginfo_cache__get(&r->cache, path, di, &d);
	bp_report__diag(rep, &d, point_name(spec));
	if (err)
		return err;
	if (!(*di)->dwarf && !spec->sdt && (needs = bp_spec__needs_dwarf(spec))) {
		bp_report__line(rep, "%s: binary %s has no debug info (DWARF), needed to find argument '%s': rebuild it with -g, or install its debug info (the -dbg/-dbgsym package, or set DEBUGINFOD_URLS for debuginfod); $argN, %%REG, +OFFS(...) and @SYM need none\n",
				point_name(spec), (*di)->path, arg_text(needs));
		return -ENODATA;
	}
	return 0;
}

/* --- the resolution cache ------------------------------------------------- */

/* spec's points against the binary at path from the resolution cache:
 * whether they were there. */
static bool cached_resolution(struct bp_resolver *r, const struct bp_spec *spec,
			      const char *path, struct bp_point **points, int *npoints)
{
	char file[PATH_MAX], why[PATH_MAX + 128];
	struct bp_file_id id;
	int err, fd = -1;

	err = bp_resolution_cache__read(path, spec->text, points, npoints, &fd, file,
					sizeof(file), why, sizeof(why));
	/* the file the entry was checked against is the one resolved */
	if (!err) {
		err = bp_file_id__of_fd(fd, &id) ?: hold(r, path, fd, &id, NULL);
		close(fd);
		if (err) {
			bp_points__free(*points, *npoints);
			*points = NULL;
			*npoints = 0;
			return false;
		}
	}
	if (!err)
		bp_info("SEC(\"%s\"): %d probe point%s from the resolution cache %s (--no-cache resolves it again)\n",
			spec->text, *npoints, *npoints == 1 ? "" : "s", file);
	else if (err != -ENOENT)
		bp_info("SEC(\"%s\"): not using the resolution cache%s%s: %s\n", spec->text,
			file[0] ? " " : "", file, why);
	return !err;
}

static void keep_resolution(const struct bp_debuginfo *di, const struct bp_spec *spec,
			    const struct bp_point *points, int npoints)
{
	char file[PATH_MAX], why[PATH_MAX + 128];

	if (bp_resolution_cache__write(di, spec->text, points, npoints, file, sizeof(file),
				       why, sizeof(why)))
		bp_info("SEC(\"%s\"): resolution not kept: %s\n", spec->text, why);
	else
		bp_info("SEC(\"%s\"): resolution kept in %s\n", spec->text, file);
}

/* A user-space spec: resolved from the binary's DWARF, or from the
 * resolution cache when one is used: only while printing (what a report
 * would keep is not kept there), and not for a lazy pattern, whose points
 * depend on the source file's text as well. */
/* The file spec->exec names: *path a path of ours, *seen_as what the
 * viewing process calls it when that differs (else NULL). */
static int find_exec(struct bp_resolver *r, const struct bp_spec *spec, char **path,
		     char **seen_as, struct bp_report *rep)
{
	char why[PATH_MAX + 512];
	struct stat st;
	int err;

	*seen_as = NULL;
	if (r->view) {
		err = bp_view__find(r->view, spec->exec, seen_as, path, why, sizeof(why));
		/* a process in our own root sees our files: a path relative to
		 * its directory, or a name its PATH lacks, may be meant as ours */
		if (err == -ENOENT && bp_view__ours(r->view) &&
		    (*path = bp_find_binary(spec->exec))) {
			bp_info("%s: %s; found as bpfprobe sees it, %s, in the same root\n",
				point_name(spec), why, *path);
			return 0;
		}
		if (err) {
			bp_report__line(rep, "%s: %s\n", point_name(spec), why);
			return err;
		}
		if (*seen_as && !strcmp(*seen_as, *path)) {
			free(*seen_as);
			*seen_as = NULL;
		}
		return 0;
	}
	*path = bp_find_binary(spec->exec);
	if (!*path && strchr(spec->exec, '/') && !stat(spec->exec, &st) && !S_ISREG(st.st_mode)) {
		bp_report__line(rep, "%s: binary '%s' is %s, not a regular file\n",
				point_name(spec), spec->exec, bp_file_type__name(st.st_mode));
		return -EINVAL;
	}
	if (!*path) {
		bp_report__line(rep, "%s: binary '%s' not found%s\n", point_name(spec), spec->exec,
				strchr(spec->exec, '/') ? "" :
				" (a bare name is looked up in PATH and, like the dynamic loader, in LD_LIBRARY_PATH, /etc/ld.so.cache, /lib and /usr/lib)");
		return -ENOENT;
	}
	return 0;
}

/* Every point names what the viewing process calls its file. */
static int set_seen_as(const struct bp_resolver *r, const char *seen_as,
		       struct bp_point *points, int npoints)
{
	for (int i = 0; seen_as && i < npoints; i++) {
		points[i].seen_by = bp_view__pid(r->view);
		points[i].seen_as = strdup(seen_as);
		if (!points[i].seen_as)
			return -ENOMEM;
	}
	return 0;
}

/* A user-space spec: resolved from the binary's DWARF, or from the
 * resolution cache when one is used: only while printing (what a report
 * would keep is not kept there), and not for a lazy pattern, whose points
 * depend on the source file's text as well. */
static int resolve_user(struct bp_resolver *r, const struct bp_spec *spec,
			struct bp_point **points, int *npoints, struct bp_report *rep)
{
	/* not for the record ABI either: its plans depend on the record; nor
	 * in another process's root, whose debug directory is searched too */
	bool cache = r->resolutions && !rep && spec->text && !spec->lazy && !spec->record &&
		     !spec->sdt && (!r->view || bp_view__ours(r->view));
	struct bp_report said = { .say = true };
	struct bp_debuginfo *di;
	unsigned int warnings = 0;
	char *path, *seen_as;
	int err;

	err = find_exec(r, spec, &path, &seen_as, rep);
	if (err)
		return err;
	if (cache && cached_resolution(r, spec, path, points, npoints)) {
		free(path);
		err = set_seen_as(r, seen_as, *points, *npoints);
		free(seen_as);
		return err;
	}
	/* with the cache, what is said is printed as without it, and counted */
	if (cache)
		rep = &said;
	err = open_binary(r, spec, path, &di, rep);
	free(path);
	if (!err && spec->sdt) {
		/* markers: the notes, no DWARF */
		err = bp_usdt__resolve(di, spec, points, npoints, rep);
	} else if (!err) {
		warnings = di->cache->warnings;
		err = bp_dwarf__resolve(di, spec, points, npoints, rep);
	}
	/* what was resolved is that file: held until the probes attach */
	if (!err && (err = hold_debuginfo(r, di, rep))) {
		bp_points__free(*points, *npoints);
		*points = NULL;
		*npoints = 0;
	}
	/* kept only when nothing was said: what is given again says nothing */
	if (!err && cache && !said.said && di->cache->warnings == warnings)
		keep_resolution(di, spec, *points, *npoints);
	if (!err)
		err = set_seen_as(r, seen_as, *points, *npoints);
	free(seen_as);
	return err;
}

int bp_resolver__resolve(struct bp_resolver *r, const struct bp_spec *spec,
			 struct bp_point **points, int *npoints)
{
	return bp_resolver__resolve_report(r, spec, points, npoints, NULL);
}

static int dispatch(struct bp_resolver *r, const struct bp_spec *spec,
		    struct bp_point **points, int *npoints, struct bp_report *rep)
{
	int err;

	if (spec->map) {
		if (!r->map)
			r->map = bp_map_resolver__new();
		if (!r->map)
			return -ENOMEM;
		return bp_map_resolver__resolve(r->map, spec, points, npoints, rep);
	}
	if (!spec->exec) {
		if (!r->kernel) {
			struct bp_kernel_paths paths = { .vmlinux = r->vmlinux };

			r->kernel = bp_kernel__new();
			if (r->kernel)
				bp_kernel__set_paths(r->kernel, &paths);
		}
		if (!r->kernel)
			return -ENOMEM;
		{
			struct bp_kernel_dwarf dw = {
				.resolve = bp_dwarf__resolve_path, .ctx = &r->cache,
			};

			return bp_kernel__resolve(r->kernel, &dw, spec, points, npoints, rep);
		}
	}
	err = check_spec(spec, rep);
	return err ?: resolve_user(r, spec, points, npoints, rep);
}

int bp_resolver__resolve_report(struct bp_resolver *r, const struct bp_spec *spec,
				struct bp_point **points, int *npoints,
				struct bp_report *rep)
{
	char where[512];
	int err;

	err = dispatch(r, spec, points, npoints, rep);
	/* (after the resolution cache: what libraries are now decides) */
	if (!err && (err = bp_ustack_way__apply(spec, *points, *npoints))) {
		bp_points__free(*points, *npoints);
		*points = NULL;
		*npoints = 0;
	}
	if (err || !spec->record)
		return err;
	/* the record ABI: each fetch lands in its member */
	snprintf(where, sizeof(where), "SEC(\"%s\")", spec->text ? spec->text : "");
	err = bp_record__place(spec->record, where, spec, *points, *npoints, rep);
	if (err) {
		bp_points__free(*points, *npoints);
		*points = NULL;
		*npoints = 0;
	}
	return err;
}

