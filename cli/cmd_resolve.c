// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpfprobe resolve OBJ.o|'SEC text' [--json]: what `load` would do, without
 * loading anything: each annotated program's probe points, per argument its
 * location, C type and fetch, the instance each point runs and that
 * instance's prologue as BPF assembly. Needs no privileges.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <bpfprobe/bpfprobe.h>

#include <bpf/libbpf.h>

#include "cli/cflags.h"
#include "cli/commands.h"
#include "cli/compile_c.h"
#include "cli/json_opts.h"
#include "cli/session.h"
#include "cli/std_streams.h"
#include "inspect/inspect.h"
#include "util/json.h"

struct resolve_args {
	const char *target;
	struct bp_cli_format fmt;
	const char *vmlinux;	/* --vmlinux PATH: kernel DWARF */
	bool no_cache;		/* --no-cache: no DWARF index */
	pid_t pid;		/* -p PID: exec= as that process sees it */
	struct bp_cflags cflags;	/* --cflags, -I, -D: PROG.c's compile */
};

enum { OPT_VMLINUX = 256, OPT_NO_CACHE, OPT_CFLAGS };

static const struct bp_cli_cmd resolve_cmd = {
	.name = "resolve",
	.operands = "OBJ.o|PROG.c|'SEC text'",
	.what = "Shows what load would do, loading nothing (no privileges needed): each\n"
		"annotated program's probe points, each argument's C type, location and\n"
		"fetch, the instance each point runs and its prologue as BPF assembly.\n"
		"PROG.c is compiled first, as load does; 'SEC text' is one annotation\n"
		"(\"exec=/bin/app;func=f a\"). With -p, exec= is looked up as process PID\n"
		"sees it, as load -p does.",
};

static int parse_own(int key, const char *arg, void *ctx)
{
	struct resolve_args *a = ctx;

	if (key == OPT_VMLINUX) {
		a->vmlinux = arg;
		return 0;
	}
	if (key == OPT_NO_CACHE) {
		a->no_cache = true;
		return 0;
	}
	if (key == 'p')
		return bp_cli__parse_pid("resolve", arg, &a->pid);
	return bp_cflags__option(&a->cflags, key, OPT_CFLAGS, arg) ? -EINVAL : 0;
}

static int parse_args(int argc, char **argv, struct resolve_args *a)
{
	static const struct bp_cli_opt own[] = {
		BP_VIEW_PID_OPTION,
		{ "vmlinux", OPT_VMLINUX, required_argument, "PATH",
		  "a vmlinux with DWARF for kernel probes" },
		BP_NO_CACHE_OPTION(OPT_NO_CACHE),
		BP_CFLAGS_OPTIONS(OPT_CFLAGS),
		{}
	};
	const struct bp_cli_extra_opts extra = { .extra = own, .on_extra = parse_own, .ctx = a };

	if (bp_cli_format__parse_args(&a->fmt, argc, argv, &resolve_cmd, &extra))
		return -EINVAL;
	if (optind + 1 != argc) {
		fprintf(stderr, "bpfprobe resolve: %s\n",
			optind == argc ? "missing the BPF object or SEC text" :
			"one BPF object or SEC text at a time");
		bp_cli__usage(&resolve_cmd);
		return -EINVAL;
	}
	a->target = argv[optind];
	if (a->cflags.n && !bp_is_c_source(a->target)) {
		fprintf(stderr, "bpfprobe resolve: --cflags, -I and -D are for a C source (PROG.c), not '%s'\n",
			a->target);
		return -EINVAL;
	}
	return 0;
}

/*
 * An existing file is an object; otherwise text with '=', ';' or a space
 * is SEC text ("exec=/bin/app;func=f a"); anything else is a missing
 * object, which opening reports.
 */
static bool is_sec_text(const char *target)
{
	struct stat st;

	if (!stat(target, &st))
		return false;
	return strpbrk(target, "=; \t") != NULL;
}

static struct bpfprobe_object *open_target(const char *target, const struct resolve_args *a)
{
	struct bpfprobe_open_opts opts = {
		.sz = sizeof(opts), .vmlinux = a->vmlinux, .no_cache = a->no_cache,
		.view_pid = a->pid,
	};
	struct bpfprobe_object *obj;

	if (is_sec_text(target))
		return bp_inspect__resolve_sec(target, &opts, &obj) ? NULL : obj;
	obj = bpfprobe_object__open(target, &opts);
	if (!obj)
		return NULL;
	if (bp_inspect__resolve(obj)) {
		bpfprobe_object__destroy(obj);
		return NULL;
	}
	return obj;
}

/* --- text ----------------------------------------------------------------- */

static void emit_text(int slot, const char *text, void *ctx)
{
	printf("      %3d: %s\n", slot, text);
}

/* An argument's name: NAME= or its expression; $params gives each
 * parameter's name. */
static const char *arg_name(const struct bp_point *pt, int k)
{
	return pt->arg_name[k];
}

/* The argument as written, when the point's arguments are the SEC's
 * (no $params expanded); else its name. */
static const char *arg_expr(const struct bp_inspect_program *p, const struct bp_point *pt,
			    int k)
{
	return p->arg_expr[k] ? p->arg_expr[k] : arg_name(pt, k);
}

static void print_point(const struct bpfprobe_object *obj, const struct bp_inspect_program *p,
			int prog, int j)
{
	const struct bp_point *pt = &p->points[j];
	struct bp_inspect_instance inst;
	int idx = bp_inspect__point_instance(obj, prog, j);
	const char *name;
	char fetch[256];

	printf("  point %d: %s%s in %s\n", j, pt->func, pt->is_return ? "%return" : "",
	       pt->binary);
	if (pt->seen_as)
		printf("    %s as process %d sees it (in its root)\n", pt->seen_as, (int)pt->seen_by);
	printf("    address 0x%" PRIx64 ", %s 0x%" PRIx64 ", CU %s, %s, %s\n",
	       pt->addr, pt->kernel ? "offset in function" : "file offset", pt->offset,
	       pt->cu ? pt->cu : "?", pt->is_inline ? "inline" : "out-of-line",
	       pt->is_return ? "return" : "entry");
	if (pt->symbol || pt->caller || pt->src_file)
		printf("   %s%s%s%s%s%s%s:%d\n", pt->symbol ? " symbol " : "",
		       pt->symbol ? pt->symbol : "", pt->caller ? " inlined in " : "",
		       pt->caller ? pt->caller : "", pt->symbol || pt->caller ? "," : "",
		       " source ", pt->src_file ? pt->src_file : "?", pt->src_line);
	if (pt->kernel)
		printf("    kernel%s%s, types and locations from %s\n",
		       pt->module ? " module " : "", pt->module ? pt->module : "",
		       pt->source ? pt->source : "?");
	if (pt->map.on)
		printf("    traces map %u '%s' (the program runs only when the id at +%d of argument %d is %u), with %s; called by %s\n",
		       pt->map.id, pt->map.name, pt->map.id_off, pt->map.map_arg + 1,
		       pt->map.id, pt->map.fentry ? "fentry (kprobes where refused)" : "a kprobe",
		       pt->map.via ? pt->map.via : "?");
	if (!bp_inspect__instance(obj, idx, &inst))
		printf("    instance %d '%s'\n", idx, inst.name);
	for (int k = 0; k < pt->plan.nargs; k++) {
		bp_inspect__fetch_text(&pt->plan.args[k], fetch, sizeof(fetch));
		name = arg_name(pt, k);
		printf("    arg%d %s: %s, at %s: %s\n", k + 1, name ? name : "?",
		       pt->type_name[k] ? pt->type_name[k] : "?",
		       pt->loc_desc[k] ? pt->loc_desc[k] : "?", fetch);
	}
}

static int print_instances_text(const struct bpfprobe_object *obj,
				const struct bp_inspect_program *p, int prog)
{
	struct bp_inspect_instance inst;

	for (size_t i = 0; !bp_inspect__instance(obj, i, &inst); i++) {
		const char *sep = "";

		if (inst.program != prog)
			continue;
		printf("  instance %zu '%s', used by point", i, inst.name);
		for (int j = 0; j < p->npoints; j++) {
			if (bp_inspect__point_instance(obj, prog, j) == (int)i) {
				printf("%s %d", sep, j);
				sep = ",";
			}
		}
		printf(", prologue:\n");
		if (bp_inspect__prologue(obj, i, emit_text, NULL) < 0)
			return -EINVAL;
	}
	return 0;
}

static bool is_annotated(const struct bpfprobe_object *obj, const struct bpf_program *prog)
{
	struct bp_inspect_program p;

	for (size_t i = 0; !bp_inspect__program(obj, i, &p); i++) {
		if (!strcmp(p.name, bpf_program__name(prog)))
			return true;
	}
	return false;
}

/* Programs in standard libbpf sections: load leaves them to libbpf. */
static void for_each_standard(const struct bpfprobe_object *obj,
			      void (*cb)(const struct bpf_program *prog, void *ctx), void *ctx)
{
	struct bpf_object *bobj = bpfprobe_object__bpf_object(obj);
	struct bpf_program *prog;

	if (!bobj)
		return;
	bpf_object__for_each_program(prog, bobj) {
		if (!is_annotated(obj, prog))
			cb(prog, ctx);
	}
}

static void print_standard(const struct bpf_program *prog, void *ctx)
{
	printf("\nprogram %s: SEC(\"%s\"): a standard libbpf section, loaded and attached by libbpf\n",
	       bpf_program__name(prog), bpf_program__section_name(prog));
}

static int print_text(const struct bpfprobe_object *obj)
{
	struct bp_inspect_program p;

	for (size_t i = 0; !bp_inspect__program(obj, i, &p); i++) {
		printf("%sprogram %s: SEC(\"%s\")\n", i ? "\n" : "", p.name, p.sec);
		for (int j = 0; j < p.npoints; j++)
			print_point(obj, &p, i, j);
		if (print_instances_text(obj, &p, i))
			return -EINVAL;
	}
	for_each_standard(obj, print_standard, NULL);
	return 0;
}

/* --- JSON ----------------------------------------------------------------- */

static void json_args(struct bp_json *j, const struct bp_inspect_program *p,
		      const struct bp_point *pt)
{
	bp_json__key(j, "args");
	bp_json__begin_array(j);
	for (int k = 0; k < pt->plan.nargs; k++) {
		bp_json__begin_object(j);
		bp_json__kv_string(j, "name", arg_name(pt, k));
		bp_json__kv_string(j, "expr", arg_expr(p, pt, k));
		bp_json__kv_string(j, "type", pt->type_name[k]);
		bp_json__kv_string(j, "location", pt->loc_desc[k]);
		bp_json__key(j, "fetch");
		bp_inspect__fetch_json(&pt->plan.args[k], j);
		bp_json__end_object(j);
	}
	bp_json__end_array(j);
}

static void json_point(struct bp_json *j, const struct bpfprobe_object *obj,
		       const struct bp_inspect_program *p, int prog, int idx)
{
	const struct bp_point *pt = &p->points[idx];

	bp_json__begin_object(j);
	bp_json__kv_int(j, "index", idx);
	bp_json__kv_string(j, "binary", pt->binary);
	bp_json__kv_string(j, "seen_as", pt->seen_as);
	if (pt->seen_as)
		bp_json__kv_int(j, "seen_by", pt->seen_by);
	else
		bp_json__kv_null(j, "seen_by");
	bp_json__kv_string(j, "func", pt->func);
	bp_json__kv_string(j, "symbol", pt->symbol ? pt->symbol : pt->func);
	bp_json__kv_string(j, "cu", pt->cu);
	bp_json__kv_string(j, "src_file", pt->src_file);
	bp_json__kv_int(j, "src_line", pt->src_line);
	bp_json__kv_uint(j, "addr", pt->addr);
	/* exact where a reader's numbers are doubles (kernel addresses) */
	bp_json__key(j, "addr_hex");
	bp_json__stringf(j, "0x%" PRIx64, pt->addr);
	bp_json__kv_uint(j, "offset", pt->offset);
	bp_json__kv_bool(j, "inline", pt->is_inline);
	bp_json__kv_string(j, "caller", pt->caller);
	bp_json__kv_bool(j, "return", pt->is_return);
	bp_json__kv_bool(j, "kernel", pt->kernel);
	if (pt->kernel) {
		bp_json__kv_string(j, "module", pt->module);
		bp_json__kv_uint(j, "kaddr", pt->kaddr);
		bp_json__kv_string(j, "source", pt->source);
	}
	bp_json__key(j, "map");
	if (pt->map.on) {
		bp_json__begin_object(j);
		bp_json__kv_uint(j, "id", pt->map.id);
		bp_json__kv_string(j, "name", pt->map.name);
		bp_json__kv_string(j, "op", pt->map.update ? "update" : "delete");
		bp_json__kv_int(j, "id_offset", pt->map.id_off);
		bp_json__kv_string(j, "attach", pt->map.fentry ? "fentry" : "kprobe");
		bp_json__kv_uint(j, "btf_id", pt->map.btf_id);
		bp_json__kv_string(j, "via", pt->map.via);
		bp_json__end_object(j);
	} else {
		bp_json__null(j);
	}
	bp_json__kv_int(j, "instance", bp_inspect__point_instance(obj, prog, idx));
	json_args(j, p, pt);
	bp_json__end_object(j);
}

static void emit_json(int slot, const char *text, void *ctx)
{
	bp_json__string(ctx, text);
}

static int json_instances(struct bp_json *j, const struct bpfprobe_object *obj,
			  const struct bp_inspect_program *p, int prog)
{
	struct bp_inspect_instance inst;
	int n;

	bp_json__key(j, "instances");
	bp_json__begin_array(j);
	for (size_t i = 0; !bp_inspect__instance(obj, i, &inst); i++) {
		if (inst.program != prog)
			continue;
		bp_json__begin_object(j);
		bp_json__kv_int(j, "id", i);
		bp_json__kv_string(j, "name", inst.name);
		bp_json__key(j, "points");
		bp_json__begin_array(j);
		for (int k = 0; k < p->npoints; k++) {
			if (bp_inspect__point_instance(obj, prog, k) == (int)i)
				bp_json__int(j, k);
		}
		bp_json__end_array(j);
		bp_json__key(j, "prologue");
		bp_json__begin_array(j);
		n = bp_inspect__prologue(obj, i, emit_json, j);
		if (n < 0)
			return n;
		bp_json__end_array(j);
		bp_json__kv_int(j, "insns", n);
		bp_json__end_object(j);
	}
	bp_json__end_array(j);
	return 0;
}

static int json_program(struct bp_json *j, const struct bpfprobe_object *obj,
			const struct bp_inspect_program *p, int prog)
{
	int err;

	bp_json__begin_object(j);
	bp_json__kv_string(j, "name", p->name);
	bp_json__kv_string(j, "sec", p->sec);
	bp_json__kv_string(j, "event", p->event);
	bp_json__kv_string(j, "func", p->func);
	bp_json__kv_bool(j, "return", p->is_return);
	bp_json__key(j, "points");
	bp_json__begin_array(j);
	for (int k = 0; k < p->npoints; k++)
		json_point(j, obj, p, prog, k);
	bp_json__end_array(j);
	err = json_instances(j, obj, p, prog);
	bp_json__end_object(j);
	return err;
}

static void json_standard(const struct bpf_program *prog, void *ctx)
{
	struct bp_json *j = ctx;

	bp_json__begin_object(j);
	bp_json__kv_string(j, "name", bpf_program__name(prog));
	bp_json__kv_string(j, "sec", bpf_program__section_name(prog));
	bp_json__end_object(j);
}

static int print_json(const struct bpfprobe_object *obj, const char *target, bool compact)
{
	struct bp_json_opts opts = { .sz = sizeof(opts), .pretty = !compact };
	struct bp_json *j = bp_json__new(stdout, &opts);
	struct bp_inspect_program p;
	int err = 0;

	if (!j)
		return -ENOMEM;
	bp_json__begin_object(j);
	bp_json__kv_string(j, "object", bp_inspect__is_sec_text(obj) ? NULL : target);
	bp_json__kv_string(j, "sec", bp_inspect__is_sec_text(obj) ? target : NULL);
	bp_json__key(j, "programs");
	bp_json__begin_array(j);
	for (size_t i = 0; !bp_inspect__program(obj, i, &p) && !err; i++)
		err = json_program(j, obj, &p, i);
	bp_json__end_array(j);
	bp_json__key(j, "standard_programs");
	bp_json__begin_array(j);
	for_each_standard(obj, json_standard, j);
	bp_json__end_array(j);
	bp_json__end_object(j);
	if (err) {
		bp_json__free(j);
		return err;
	}
	err = bp_json__free(j);
	/* a failed write to stdout is said at the end (std_streams.h) */
	if (err && !bp_stdio__out_error())
		fprintf(stderr, "bpfprobe resolve: writing JSON failed: %s\n", strerror(-err));
	return err;
}

int cmd_resolve(int argc, char **argv)
{
	struct resolve_args a = {};
	struct bpfprobe_object *obj;
	char compiled[PATH_MAX];
	const char *path;
	int err = 2;

	if (parse_args(argc, argv, &a))
		goto out;
	err = 1;
	path = a.target;
	/* a C source is compiled as load compiles it (same cache) */
	if (bp_is_c_source(a.target) && !is_sec_text(a.target)) {
		if (bp_compile_c(a.target, bp_cflags__list(&a.cflags), a.no_cache, compiled,
				 sizeof(compiled)))
			goto out;
		path = compiled;
	}
	/* SIGINT, SIGTERM: the resolve stops, and so do we, with 128 + it */
	bp_session__install_stop_signals();
	obj = open_target(path, &a);
	if (bp_session__interrupted(&err)) {
		bpfprobe_object__destroy(obj);
		goto out;
	}
	if (!obj)
		goto out;
	if (!bp_inspect__program_cnt(obj))
		fprintf(stderr, "'%s' has no annotated program: nothing to resolve\n", a.target);
	err = a.fmt.json ? print_json(obj, a.target, a.fmt.compact) : print_text(obj);
	err = err ? 1 : 0;
	bpfprobe_object__destroy(obj);
out:
	bp_cflags__free(&a.cflags);
	return err;
}
