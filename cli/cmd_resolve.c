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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <bpfprobe/bpfprobe.h>

#include "cli/commands.h"
#include "cli/json_opts.h"
#include "loader/resolve_only.h"
#include "cli/plan_json.h"
#include "prologue/prologue.h"
#include "util/json.h"

#define RESOLVE_USAGE "usage: bpfprobe resolve [-v] [--json [--compact]] [--vmlinux PATH] OBJ.o|'SEC text'\n"

struct resolve_args {
	const char *target;
	struct bp_cli_format fmt;
	const char *vmlinux;	/* --vmlinux PATH: kernel DWARF */
};

/* --vmlinux PATH */
static int parse_vmlinux(int val, const char *arg, void *ctx)
{
	struct resolve_args *a = ctx;

	a->vmlinux = arg;
	return 0;
}

static int parse_args(int argc, char **argv, struct resolve_args *a)
{
	static const struct option own[] = {
		{ "vmlinux", required_argument, NULL, 'V' },
		{}
	};
	const struct bp_cli_extra_opts extra = { .extra = own, .on_extra = parse_vmlinux, .ctx = a };

	if (bp_cli_format__parse_args(&a->fmt, argc, argv, RESOLVE_USAGE, &extra))
		return -EINVAL;
	if (optind + 1 != argc) {
		fprintf(stderr, "bpfprobe resolve: %s\n%s",
			optind == argc ? "missing the BPF object or SEC text" :
			"one BPF object or SEC text at a time", RESOLVE_USAGE);
		return -EINVAL;
	}
	a->target = argv[optind];
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

static struct bpfprobe_object *open_target(const char *target, const char *vmlinux)
{
	struct bpfprobe_open_opts opts = { .sz = sizeof(opts), .vmlinux = vmlinux };
	struct bpfprobe_object *obj;

	if (is_sec_text(target))
		return bp_object__resolve_sec(target, vmlinux, &obj) ? NULL : obj;
	obj = bpfprobe_object__open(target, &opts);
	if (!obj)
		return NULL;
	if (bp_object__resolve_only(obj)) {
		bpfprobe_object__destroy(obj);
		return NULL;
	}
	return obj;
}

/* The points of p are obj->aps[first .. first + p->npoints). */
static int first_ap(const struct bpfprobe_object *obj, const struct bp_program *p)
{
	for (int i = 0; i < obj->naps; i++) {
		if (obj->aps[i].owner == p)
			return i;
	}
	return 0;
}

static bool is_ldimm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

/* Calls emit for each instruction of inst's prologue; returns the count of
 * instruction slots, or a negative errno after a message. */
static int prologue(const struct bp_instance *inst,
		    void (*emit)(int slot, const char *text, void *ctx), void *ctx)
{
	struct bpf_insn insns[BP_PROLOGUE_MAX_INSNS];
	char line[128];
	int n, i;

	n = bp_prologue__gen(&inst->plan, insns, BP_PROLOGUE_MAX_INSNS);
	if (n < 0) {
		fprintf(stderr, "program '%s': cannot generate the prologue: %s\n",
			inst->owner->name, strerror(-n));
		return n;
	}
	for (i = 0; i < n; i++) {
		const struct bpf_insn *next = i + 1 < n ? &insns[i + 1] : NULL;

		bp_insn__format(&insns[i], next, line, sizeof(line));
		emit(i, line, ctx);
		if (is_ldimm64(&insns[i]))
			i++;	/* its second slot */
	}
	return n;
}

/* --- text ----------------------------------------------------------------- */

static void emit_text(int slot, const char *text, void *ctx)
{
	printf("      %3d: %s\n", slot, text);
}

/* An argument's name: NAME= or its expression; $params gives each
 * parameter's name. */
static const char *arg_name(const struct bp_program *p, const struct bp_point *pt, int k)
{
	if (pt->arg_name[k])
		return pt->arg_name[k];
	return k < p->spec.nargs ? p->spec.args[k].name : NULL;
}

/* The argument as written, when the point's arguments are the spec's
 * (no $params expanded); else its name. */
static const char *arg_expr(const struct bp_program *p, const struct bp_point *pt, int k)
{
	for (int i = 0; i < p->spec.nargs; i++) {
		if (!strcmp(p->spec.args[i].var, "$params"))
			return arg_name(p, pt, k);
	}
	return k < p->spec.nargs ? p->spec.args[k].text : arg_name(p, pt, k);
}

static void print_point(const struct bpfprobe_object *obj, const struct bp_program *p,
			int j, const struct bp_attach_point *ap)
{
	const struct bp_point *pt = &p->points[j];
	const char *name;
	char fetch[256];

	printf("  point %d: %s%s in %s\n", j, pt->func, pt->is_return ? "%return" : "",
	       pt->binary);
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
	printf("    instance %d '%s'\n", ap->instance, obj->insts[ap->instance].name);
	for (int k = 0; k < pt->plan.nargs; k++) {
		bp_fetch__format(&pt->plan.args[k], fetch, sizeof(fetch));
		name = arg_name(p, pt, k);
		printf("    arg%d %s: %s, at %s: %s\n", k + 1, name ? name : "?",
		       pt->type_name[k] ? pt->type_name[k] : "?",
		       pt->loc_desc[k] ? pt->loc_desc[k] : "?", fetch);
	}
}

static int print_instances_text(const struct bpfprobe_object *obj, const struct bp_program *p)
{
	int first = first_ap(obj, p);

	for (int i = 0; i < obj->ninsts; i++) {
		const struct bp_instance *inst = &obj->insts[i];
		const char *sep = "";

		if (inst->owner != p)
			continue;
		printf("  instance %d '%s', used by point", i, inst->name);
		for (int j = 0; j < p->npoints; j++) {
			if (obj->aps[first + j].instance == i) {
				printf("%s %d", sep, j);
				sep = ",";
			}
		}
		printf(", prologue:\n");
		if (prologue(inst, emit_text, NULL) < 0)
			return -EINVAL;
	}
	return 0;
}

static bool is_annotated(const struct bpfprobe_object *obj, const struct bpf_program *prog)
{
	for (int i = 0; i < obj->nprogs; i++) {
		if (obj->progs[i].prog == prog)
			return true;
	}
	return false;
}

/* Programs in standard libbpf sections: load leaves them to libbpf. */
static void for_each_standard(const struct bpfprobe_object *obj,
			      void (*cb)(const struct bpf_program *prog, void *ctx), void *ctx)
{
	struct bpf_program *prog;

	if (!obj->obj)
		return;
	bpf_object__for_each_program(prog, obj->obj) {
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
	for (int i = 0; i < obj->nprogs; i++) {
		const struct bp_program *p = &obj->progs[i];
		int first = first_ap(obj, p);

		printf("%sprogram %s: SEC(\"%s\")\n", i ? "\n" : "", p->name, p->sec);
		for (int j = 0; j < p->npoints; j++)
			print_point(obj, p, j, &obj->aps[first + j]);
		if (print_instances_text(obj, p))
			return -EINVAL;
	}
	for_each_standard(obj, print_standard, NULL);
	return 0;
}

/* --- JSON ----------------------------------------------------------------- */

static void json_args(struct bp_json *j, const struct bp_program *p, const struct bp_point *pt)
{
	bp_json__key(j, "args");
	bp_json__begin_array(j);
	for (int k = 0; k < pt->plan.nargs; k++) {
		bp_json__begin_object(j);
		bp_json__kv_string(j, "name", arg_name(p, pt, k));
		bp_json__kv_string(j, "expr", arg_expr(p, pt, k));
		bp_json__kv_string(j, "type", pt->type_name[k]);
		bp_json__kv_string(j, "location", pt->loc_desc[k]);
		bp_json__key(j, "fetch");
		bp_fetch__json(&pt->plan.args[k], j);
		bp_json__end_object(j);
	}
	bp_json__end_array(j);
}

static void json_point(struct bp_json *j, const struct bp_program *p, int idx,
		       const struct bp_attach_point *ap)
{
	const struct bp_point *pt = &p->points[idx];

	bp_json__begin_object(j);
	bp_json__kv_int(j, "index", idx);
	bp_json__kv_string(j, "binary", pt->binary);
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
	bp_json__kv_int(j, "instance", ap->instance);
	json_args(j, p, pt);
	bp_json__end_object(j);
}

static void emit_json(int slot, const char *text, void *ctx)
{
	bp_json__string(ctx, text);
}

static int json_instances(struct bp_json *j, const struct bpfprobe_object *obj,
			  const struct bp_program *p)
{
	int first = first_ap(obj, p), n;

	bp_json__key(j, "instances");
	bp_json__begin_array(j);
	for (int i = 0; i < obj->ninsts; i++) {
		const struct bp_instance *inst = &obj->insts[i];

		if (inst->owner != p)
			continue;
		bp_json__begin_object(j);
		bp_json__kv_int(j, "id", i);
		bp_json__kv_string(j, "name", inst->name);
		bp_json__key(j, "points");
		bp_json__begin_array(j);
		for (int k = 0; k < p->npoints; k++) {
			if (obj->aps[first + k].instance == i)
				bp_json__int(j, k);
		}
		bp_json__end_array(j);
		bp_json__key(j, "prologue");
		bp_json__begin_array(j);
		n = prologue(inst, emit_json, j);
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
			const struct bp_program *p)
{
	int first = first_ap(obj, p), err;

	bp_json__begin_object(j);
	bp_json__kv_string(j, "name", p->name);
	bp_json__kv_string(j, "sec", p->sec);
	bp_json__kv_string(j, "event", p->spec.event);
	bp_json__kv_string(j, "func", p->spec.func);
	bp_json__kv_bool(j, "return", p->spec.is_return);
	bp_json__key(j, "points");
	bp_json__begin_array(j);
	for (int k = 0; k < p->npoints; k++)
		json_point(j, p, k, &obj->aps[first + k]);
	bp_json__end_array(j);
	err = json_instances(j, obj, p);
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
	int err = 0;

	if (!j)
		return -ENOMEM;
	bp_json__begin_object(j);
	bp_json__kv_string(j, "object", obj->obj ? target : NULL);
	bp_json__kv_string(j, "sec", obj->obj ? NULL : target);
	bp_json__key(j, "programs");
	bp_json__begin_array(j);
	for (int i = 0; i < obj->nprogs && !err; i++)
		err = json_program(j, obj, &obj->progs[i]);
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
	if (err)
		fprintf(stderr, "bpfprobe resolve: writing JSON failed: %s\n", strerror(-err));
	return err;
}

int cmd_resolve(int argc, char **argv)
{
	struct resolve_args a = {};
	struct bpfprobe_object *obj;
	int err;

	if (parse_args(argc, argv, &a))
		return 2;
	obj = open_target(a.target, a.vmlinux);
	if (!obj)
		return 1;
	if (!obj->nprogs)
		fprintf(stderr, "'%s' has no annotated program: nothing to resolve\n", a.target);
	err = a.fmt.json ? print_json(obj, a.target, a.fmt.compact) : print_text(obj);
	bpfprobe_object__destroy(obj);
	return err ? 1 : 0;
}
