// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpfprobe markers BIN [GLOB] [--json]: the SDT markers a binary ships
 * (its .note.stapsdt), what a SEC names as %PROVIDER:NAME: each marker
 * with its sites, their argument specs and its semaphore.
 */
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
#include "cli/std_streams.h"
#include "inspect/inspect.h"
#include "util/json.h"

static const struct bp_cli_cmd markers_cmd = {
	.name = "markers",
	.operands = "BIN [GLOB]",
	.what = "The SDT markers (USDT) of binary BIN whose PROVIDER:NAME matches GLOB\n"
		"(all without one): each marker, its semaphore, and its sites with\n"
		"their addresses and argument specs (N@OPERAND, -N: signed), what a\n"
		"SEC probes as exec=BIN;%PROVIDER:NAME arg1 arg2 .... BIN is found like\n"
		"exec= finds it. Exit status 1 when nothing matches. No privileges needed.",
};

/* Whether site i is the first of its marker (markers keep note order). */
static bool first_of_marker(const struct bp_marker_list *l, int i)
{
	for (int k = 0; k < i; k++)
		if (!strcmp(l->sites[k].provider, l->sites[i].provider) &&
		    !strcmp(l->sites[k].name, l->sites[i].name))
			return false;
	return true;
}

static bool same_marker(const struct bp_sdt_site *a, const struct bp_sdt_site *b)
{
	return !strcmp(a->provider, b->provider) && !strcmp(a->name, b->name);
}

static void print_text(const struct bp_marker_list *l)
{
	for (int i = 0; i < l->n; i++) {
		const struct bp_sdt_site *s = &l->sites[i];
		int sites = 0;

		if (!first_of_marker(l, i))
			continue;
		for (int k = i; k < l->n; k++)
			sites += same_marker(s, &l->sites[k]);
		printf("%s:%s  %d site%s", s->provider, s->name, sites, sites == 1 ? "" : "s");
		if (s->sem)
			printf(", semaphore 0x%" PRIx64 " (file offset 0x%" PRIx64 ")", s->sem,
			       s->sem_offset);
		printf("\n");
		for (int k = i; k < l->n; k++) {
			const struct bp_sdt_site *t = &l->sites[k];

			if (!same_marker(s, t))
				continue;
			printf("  0x%08" PRIx64 " (file offset 0x%" PRIx64 ")  %s\n", t->addr, t->offset,
			       *t->args ? t->args : "(no arguments)");
		}
	}
}

static int print_json(const struct bp_marker_list *l, const char *glob, bool compact)
{
	struct bp_json_opts opts = { .sz = sizeof(opts), .pretty = !compact };
	struct bp_json *j = bp_json__new(stdout, &opts);

	if (!j)
		return -ENOMEM;
	bp_json__begin_object(j);
	bp_json__kv_string(j, "binary", l->binary);
	bp_json__kv_string(j, "glob", glob);
	bp_json__key(j, "markers");
	bp_json__begin_array(j);
	for (int i = 0; i < l->n; i++) {
		const struct bp_sdt_site *s = &l->sites[i];

		if (!first_of_marker(l, i))
			continue;
		bp_json__begin_object(j);
		bp_json__kv_string(j, "provider", s->provider);
		bp_json__kv_string(j, "name", s->name);
		bp_json__key(j, "semaphore");
		if (s->sem)
			bp_json__uint(j, s->sem);
		else
			bp_json__null(j);
		bp_json__key(j, "semaphore_offset");
		if (s->sem)
			bp_json__uint(j, s->sem_offset);
		else
			bp_json__null(j);
		bp_json__key(j, "sites");
		bp_json__begin_array(j);
		for (int k = i; k < l->n; k++) {
			const struct bp_sdt_site *t = &l->sites[k];

			if (!same_marker(s, t))
				continue;
			bp_json__begin_object(j);
			bp_json__kv_uint(j, "addr", t->addr);
			bp_json__kv_uint(j, "offset", t->offset);
			bp_json__kv_string(j, "args", t->args);
			bp_json__kv_int(j, "nargs", bp_sdt__nargs(t->args));
			bp_json__end_object(j);
		}
		bp_json__end_array(j);
		bp_json__end_object(j);
	}
	bp_json__end_array(j);
	bp_json__end_object(j);
	return bp_json__free(j);
}

int cmd_markers(int argc, char **argv)
{
	struct bp_cli_binary_args a = {};
	struct bp_marker_list l;
	int err;

	if (bp_cli_binary_args__parse(&a, argc, argv, &markers_cmd))
		return 2;
	err = bp_inspect__markers(&l, a.binary, a.glob);
	if (err) {
		bp_inspect__markers_free(&l);
		return 1;
	}
	if (a.fmt.json) {
		err = print_json(&l, a.glob, a.fmt.compact);
		/* a failed write to stdout is said at the end (std_streams.h) */
		if (err && !bp_stdio__out_error())
			fprintf(stderr, "bpfprobe markers: writing JSON failed: %s\n", strerror(-err));
	} else {
		print_text(&l);
	}
	if (!err && !l.n) {
		if (l.had_notes)
			fprintf(stderr, "bpfprobe markers: no marker matches '%s' in %s\n", a.glob,
				l.binary);
		else
			fprintf(stderr, "bpfprobe markers: %s has no SDT markers (no .note.stapsdt notes)\n",
				l.binary);
		err = -ENOENT;
	}
	bp_inspect__markers_free(&l);
	return err ? 1 : 0;
}
