// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpfprobe vars BIN POINT... [--json]: like `perf probe -V`, the parameters
 * and locals at each probe point with their types, where they are there,
 * and whether a program could fetch them (if not: why, and where they
 * would be). POINT is what follows exec= in a SEC(): FUNC, FUNC+OFFS,
 * FUNC%return, with optional key=value; before it.
 */
#define _GNU_SOURCE		/* asprintf */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfprobe/bpfprobe.h>

#include "cli/commands.h"
#include "cli/json_opts.h"
#include "cli/session.h"
#include "cli/std_streams.h"
#include "inspect/inspect.h"
#include "util/json.h"

static const struct bp_cli_cmd vars_cmd = {
	.name = "vars",
	.operands = "BIN POINT...",
	.what = "Like perf probe -V: at each probe point POINT names in binary BIN (FUNC,\n"
		"FUNC+OFFS, FUNC%return, a glob, with key=value; terms before it), the\n"
		"parameters and the locals in scope, their types, where they are and how\n"
		"they would be fetched, or why they cannot be. BIN is found like exec=\n"
		"finds it (PATH, the library paths); a file of that name in the current\n"
		"directory is taken first; with -p, as process PID sees it. No\n"
		"privileges needed (but the right to read PID's root).",
};

struct vars_args {
	const char *binary;
	char local[PATH_MAX];	/* BIN's absolute path, when it is a file here */
	char **points;
	int npoints;
	bool no_cache;		/* --no-cache: no DWARF index */
	pid_t pid;		/* -p PID: BIN as that process sees it */
	struct bp_cli_format fmt;
};

enum { OPT_NO_CACHE = 256 };

static int parse_own(int key, const char *arg, void *ctx)
{
	struct vars_args *a = ctx;

	if (key == 'p')
		return bp_cli__parse_pid("vars", arg, &a->pid);
	a->no_cache = key == OPT_NO_CACHE;
	return 0;
}

static int parse_args(int argc, char **argv, struct vars_args *a)
{
	static const struct bp_cli_opt own[] = {
		BP_VIEW_PID_OPTION,
		BP_NO_CACHE_OPTION(OPT_NO_CACHE),
		{}
	};
	const struct bp_cli_extra_opts extra = { .extra = own, .on_extra = parse_own, .ctx = a };

	if (bp_cli_format__parse_args(&a->fmt, argc, argv, &vars_cmd, &extra))
		return -EINVAL;
	if (argc - optind < 2) {
		fprintf(stderr, "bpfprobe vars: %s\n",
			optind == argc ? "missing the binary and the probe point" :
			"missing the probe point");
		bp_cli__usage(&vars_cmd);
		return -EINVAL;
	}
	/* with -p, BIN is the process's: nothing of ours comes first */
	a->binary = a->pid > 0 ? argv[optind] :
		    bp_cli__local_file(argv[optind], a->local, sizeof(a->local));
	a->points = argv + optind + 1;
	a->npoints = argc - optind - 1;
	return 0;
}

/* --- text ----------------------------------------------------------------- */

static void print_var(const struct bp_var_point *vp, const struct bp_var_entry *e)
{
	char fetch[256];

	printf("  %-6s %s: %s", bp_inspect__var_kind(e->kind), e->name, e->type_name);
	if (!e->fetchable) {
		printf(": not fetchable: %s\n", e->why ? e->why : "?");
		return;
	}
	bp_inspect__fetch_text(e->fetch, fetch, sizeof(fetch));
	printf(", at %s: %s", e->loc_desc ? e->loc_desc : "?", fetch);
	if (e->addr != vp->addr)
		printf(" (read at 0x%" PRIx64 ", past the prologue)", e->addr);
	printf("\n");
}

static void print_text(const struct bp_var_list *l)
{
	static int nprinted;

	for (int i = 0; i < l->npoints; i++) {
		const struct bp_var_point *vp = &l->points[i];

		printf("%s%s%s in %s at 0x%" PRIx64 " (file offset 0x%" PRIx64 ", CU %s, %s):\n",
		       nprinted++ ? "\n" : "", vp->func, vp->is_return ? "%return" : "",
		       vp->binary, vp->addr, vp->offset, vp->cu ? vp->cu : "?",
		       vp->is_inline ? "inline" : "out-of-line");
		if (vp->seen_as)
			printf("  (%s as process %d sees it)\n", vp->seen_as, vp->seen_by);
		if (vp->error)
			printf("  error: %s\n", vp->error);
		else if (!vp->nvars)
			printf("  (no parameters or locals)\n");
		for (int j = 0; j < vp->nvars; j++)
			print_var(vp, &vp->vars[j]);
	}
}

/* --- JSON ----------------------------------------------------------------- */

static void json_var(struct bp_json *j, const struct bp_var_entry *e)
{
	bp_json__begin_object(j);
	bp_json__kv_string(j, "name", e->name);
	bp_json__kv_string(j, "kind", bp_inspect__var_kind(e->kind));
	bp_json__kv_string(j, "type", e->type_name);
	bp_json__kv_int(j, "decl_line", e->decl_line);
	bp_json__kv_bool(j, "fetchable", e->fetchable);
	bp_json__kv_string(j, "class", bp_inspect__var_class(e->cls));
	bp_json__kv_uint(j, "addr", e->addr);
	bp_json__kv_string(j, "location", e->loc_desc);
	bp_json__key(j, "fetch");
	if (e->fetch)
		bp_inspect__fetch_json(e->fetch, j);
	else
		bp_json__null(j);
	bp_json__kv_string(j, "why", e->fetchable ? NULL : e->why);
	bp_json__key(j, "available");
	if (e->navail < 0) {
		bp_json__null(j);
	} else {
		bp_json__begin_array(j);
		for (int i = 0; i < e->navail; i++) {
			bp_json__begin_object(j);
			bp_json__kv_uint(j, "start", e->avail[i].start);
			bp_json__kv_uint(j, "end", e->avail[i].end);
			bp_json__end_object(j);
		}
		bp_json__end_array(j);
	}
	bp_json__end_object(j);
}

static void json_points(struct bp_json *j, const char *point, const struct bp_var_list *l)
{
	for (int i = 0; i < l->npoints; i++) {
		const struct bp_var_point *vp = &l->points[i];

		/* said on stderr too: JSON readers may not look */
		if (vp->error)
			fprintf(stderr, "bpfprobe vars: %s at 0x%" PRIx64 " in %s: %s\n", vp->func,
				vp->addr, vp->binary, vp->error);

		bp_json__begin_object(j);
		bp_json__kv_string(j, "point", point);
		bp_json__kv_string(j, "binary", vp->binary);
		bp_json__kv_string(j, "seen_as", vp->seen_as);
		if (vp->seen_as)
			bp_json__kv_int(j, "seen_by", vp->seen_by);
		else
			bp_json__kv_null(j, "seen_by");
		bp_json__kv_string(j, "func", vp->func);
		bp_json__kv_string(j, "cu", vp->cu);
		bp_json__kv_uint(j, "addr", vp->addr);
		bp_json__kv_uint(j, "offset", vp->offset);
		bp_json__kv_bool(j, "inline", vp->is_inline);
		bp_json__kv_bool(j, "return", vp->is_return);
		bp_json__kv_string(j, "error", vp->error);
		bp_json__key(j, "vars");
		bp_json__begin_array(j);
		for (int k = 0; k < vp->nvars; k++)
			json_var(j, &vp->vars[k]);
		bp_json__end_array(j);
		bp_json__end_object(j);
	}
}

/* --- the command ---------------------------------------------------------- */

int cmd_vars(int argc, char **argv)
{
	struct bp_var_list *lists;
	struct vars_args a = {};
	struct bp_json *j = NULL;
	int i, err = 0, n = 0, code = 0;

	if (parse_args(argc, argv, &a))
		return 2;
	lists = calloc(a.npoints, sizeof(*lists));
	if (!lists) {
		fprintf(stderr, "bpfprobe vars: out of memory\n");
		return 1;
	}
	/* SIGINT, SIGTERM: the resolve stops, and so do we, with 128 + it */
	bp_session__install_stop_signals();
	/* all first: a bad point prints nothing but its error */
	for (i = 0; i < a.npoints && !err; i++, n++)
		err = bp_inspect__vars(&lists[i], a.binary, a.points[i], a.no_cache, a.pid);
	if (bp_session__interrupted(&code))
		goto out;
	if (!err && a.fmt.json) {
		struct bp_json_opts opts = { .sz = sizeof(opts), .pretty = !a.fmt.compact };

		j = bp_json__new(stdout, &opts);
		if (!j) {
			fprintf(stderr, "bpfprobe vars: out of memory\n");
			err = -ENOMEM;
			goto out;
		}
		bp_json__begin_object(j);
		bp_json__kv_string(j, "binary", a.binary);
		bp_json__key(j, "points");
		bp_json__begin_array(j);
		for (i = 0; i < n; i++)
			json_points(j, a.points[i], &lists[i]);
		bp_json__end_array(j);
		bp_json__end_object(j);
		err = bp_json__free(j);
		/* a failed write to stdout is said at the end (std_streams.h) */
		if (err && !bp_stdio__out_error())
			fprintf(stderr, "bpfprobe vars: writing JSON failed: %s\n", strerror(-err));
	} else if (!err) {
		for (i = 0; i < n; i++)
			print_text(&lists[i]);
	}
out:
	for (i = 0; i < n; i++)
		bp_inspect__vars_free(&lists[i]);
	free(lists);
	return code ? code : err ? 1 : 0;
}
