// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpfprobe funcs BIN [GLOB] [--json]: the functions a probe can name, one
 * per line: name, address, out-of-line or inline (and where inlined), CU.
 * From DWARF, or from the symbol table when the binary has none.
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
#include "cli/session.h"
#include "cli/std_streams.h"
#include "inspect/inspect.h"
#include "util/json.h"

static const struct bp_cli_cmd funcs_cmd = {
	.name = "funcs",
	.operands = "BIN [GLOB]",
	.what = "The functions of binary BIN whose name matches GLOB (all without one),\n"
		"one per line: name, address, kind (out-of-line, inline, alias, symbol)\n"
		"and CU, from its DWARF (else its symbol table). BIN is found like exec=\n"
		"finds it; a file of that name in the current directory is taken first.\n"
		"Exit status 1 when nothing matches. No privileges needed.",
};
#define MAX_NAME_COL	40

static const char *kind(const struct bp_func_entry *e)
{
	if (e->is_inline)
		return "inline";
	if (e->alias_of)
		return "alias";
	return e->from_symtab ? "symbol" : "out-of-line";
}

static void print_text(const struct bp_func_list *l)
{
	int width = 0;

	for (int i = 0; i < l->n; i++) {
		int len = strlen(l->funcs[i].name);

		if (len > width)
			width = len < MAX_NAME_COL ? len : MAX_NAME_COL;
	}
	for (int i = 0; i < l->n; i++) {
		const struct bp_func_entry *e = &l->funcs[i];

		printf("%-*s 0x%08" PRIx64 " %-11s %s", width, e->name, e->addr, kind(e),
		       e->cu ? e->cu : "-");
		if (e->is_inline)
			printf(" (inlined in %s)", e->caller ? e->caller : "?");
		else if (e->alias_of)
			printf(" (alias of %s)", e->alias_of);
		if (e->signature)
			printf(" [%s]", e->signature);
		printf("\n");
	}
}

static int print_json(const struct bp_func_list *l, const char *glob, bool compact)
{
	struct bp_json_opts opts = { .sz = sizeof(opts), .pretty = !compact };
	struct bp_json *j = bp_json__new(stdout, &opts);

	if (!j)
		return -ENOMEM;
	bp_json__begin_object(j);
	bp_json__kv_string(j, "binary", l->binary);
	bp_json__kv_string(j, "glob", glob);
	bp_json__kv_bool(j, "debuginfo", l->has_dwarf);
	bp_json__key(j, "functions");
	bp_json__begin_array(j);
	for (int i = 0; i < l->n; i++) {
		const struct bp_func_entry *e = &l->funcs[i];

		bp_json__begin_object(j);
		bp_json__kv_string(j, "name", e->name);
		bp_json__kv_string(j, "signature", e->signature);
		bp_json__kv_uint(j, "addr", e->addr);
		bp_json__kv_uint(j, "size", e->size);
		bp_json__key(j, "offset");
		if (e->has_offset)
			bp_json__uint(j, e->offset);
		else
			bp_json__null(j);
		bp_json__kv_string(j, "kind", kind(e));
		bp_json__kv_bool(j, "inline", e->is_inline);
		bp_json__kv_string(j, "caller", e->caller);
		bp_json__kv_string(j, "alias_of", e->alias_of);
		bp_json__kv_string(j, "cu", e->cu);
		bp_json__kv_string(j, "decl_file", e->decl_file);
		bp_json__kv_int(j, "decl_line", e->decl_line);
		bp_json__end_object(j);
	}
	bp_json__end_array(j);
	bp_json__end_object(j);
	return bp_json__free(j);
}

int cmd_funcs(int argc, char **argv)
{
	struct bp_cli_binary_args a = {};
	struct bp_func_list l;
	int err, code = 1;

	if (bp_cli_binary_args__parse(&a, argc, argv, &funcs_cmd))
		return 2;
	/* SIGINT, SIGTERM: the walk stops, and so do we, with 128 + it */
	bp_session__install_stop_signals();
	err = bp_inspect__funcs(&l, a.binary, a.glob);
	if (bp_session__interrupted(&code) || err) {
		bp_inspect__funcs_free(&l);
		return code;
	}
	if (a.fmt.json) {
		err = print_json(&l, a.glob, a.fmt.compact);
		/* a failed write to stdout is said at the end (std_streams.h) */
		if (err && !bp_stdio__out_error())
			fprintf(stderr, "bpfprobe funcs: writing JSON failed: %s\n", strerror(-err));
	} else {
		print_text(&l);
	}
	if (!err && !l.n) {
		fprintf(stderr, "bpfprobe funcs: no function%s%s%s in %s%s\n",
			a.glob ? " matches '" : "", a.glob ? a.glob : "", a.glob ? "'" : "",
			l.binary, l.has_dwarf ? "" : " (it has no debug info: symbol table only)");
		err = -ENOENT;
	}
	bp_inspect__funcs_free(&l);
	return err ? 1 : 0;
}
