// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Probe points, plans and instances without loading anything: the first
 * half of bpfprobe_object__load() (loader/object.c), for `bpfprobe
 * resolve`, and the views the tool reads them through (inspect.h). libbpf
 * only opened the object (no bpf() calls); the resolver reads files;
 * instances are grouped by bp_instances__build(), so their numbering is
 * the loader's.
 */
#define _GNU_SOURCE		/* asprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "loader/cpu_v4.h"
#include "loader/entry_values.h"
#include "inspect/inspect.h"
#include "loader/object.h"
#include "prologue/prologue.h"
#include "util/log.h"
#include "util/opts.h"

/*
 * What the prologues set, from the instructions as compiled: libbpf's
 * relocations change immediates, offsets and access sizes, not which
 * registers an instruction uses, and subprograms are appended only at the
 * load, but calls to them count as reading r1..r5 anyway. So this is what
 * the load finds from the final instructions (where libbpf poisons an
 * instruction it cannot relocate, the load sets more). A bare SEC text
 * has no body: its prototype is unknown, every register is set.
 */
static void set_compiled_body(struct bpfprobe_object *obj, struct bp_program *p)
{
	if (p->prog && p->npoints)
		bp_instances__set_body(obj, p, bpf_program__insns(p->prog),
				       bpf_program__insn_cnt(p->prog));
}

int bp_inspect__resolve(struct bpfprobe_object *obj)
{
	int err;

	if (!obj)
		return -EINVAL;
	if (obj->loaded || obj->aps)
		return -EBUSY;
	err = bp_object__resolve_programs(obj);
	if (!err)
		err = bp_instances__build(obj);
	for (int i = 0; i < obj->nprogs && !err; i++)
		set_compiled_body(obj, &obj->progs[i]);
	if (err == -ENOMEM)
		bp_err("out of memory resolving '%s'\n", obj->path);
	return err;
}

/* A SEC text's object, resolved; with btf, its program receives the
 * record of struct struct_id (the record ABI). */
static int resolve_sec(const char *text, const struct bpfprobe_open_opts *opts,
		       const struct btf *btf, __u32 struct_id, struct bpfprobe_object **out)
{
	const char *vmlinux = opts && opts->vmlinux ? opts->vmlinux : NULL;
	struct bpfprobe_object *obj;
	struct bp_program *p;
	char msg[512];
	int err;

	*out = NULL;
	obj = calloc(1, sizeof(*obj));
	if (obj) {
		bp_follow__init(&obj->follow);
		obj->stack_samples_fd = obj->stack_map_fd = -1;
	}
	if (obj)
		obj->progs = calloc(1, sizeof(*obj->progs));
	/* path holds the text: the program's sec points into it */
	if (obj && obj->progs)
		obj->path = strdup(text);
	if (obj && vmlinux)
		obj->vmlinux = strdup(vmlinux);
	if (obj)
		obj->no_cache = opts && opts->no_cache;
	if (obj && OPTS_HAS(opts, view_pid) && opts->view_pid > 0)
		obj->view_pid = opts->view_pid;
	if (!obj || !obj->progs || !obj->path || (vmlinux && !obj->vmlinux)) {
		bp_err("out of memory resolving SEC(\"%s\")\n", text);
		bpfprobe_object__destroy(obj);
		return -ENOMEM;
	}
	p = &obj->progs[obj->nprogs++];
	p->record_map_fd = -1;
	p->record.err_member = -1;
	p->sec = obj->path;
	err = bp_spec__parse(text, &p->spec, msg, sizeof(msg));
	if (err) {
		bp_err("%s\n", msg);
		bpfprobe_object__destroy(obj);
		return err;
	}
	/* the spec's strings live as long as the object */
	p->name = p->spec.event ? p->spec.event : p->spec.func ? p->spec.func : "probe";
	if (btf) {
		/* what the loader does for int prog(void *ctx, struct S *a) */
		p->preamble_len = BP_RECORD_PREAMBLE_LEN;
		err = bp_record_abi__setup(btf, struct_id, p);
		if (err) {
			bpfprobe_object__destroy(obj);
			return err;
		}
	}
	err = bp_inspect__resolve(obj);
	if (err) {
		bpfprobe_object__destroy(obj);
		return err;
	}
	*out = obj;
	return 0;
}

int bp_inspect__resolve_sec(const char *text, const struct bpfprobe_open_opts *opts,
			    struct bpfprobe_object **out)
{
	return resolve_sec(text, opts, NULL, 0, out);
}

int bp_inspect__resolve_sec_record(const char *text, const struct bpfprobe_open_opts *opts,
				   const struct btf *btf, __u32 struct_id,
				   struct bpfprobe_object **out)
{
	const struct btf_type *t = btf ? btf__type_by_id(btf, struct_id) : NULL;

	*out = NULL;
	if (!t || !btf_is_struct(t))
		return -EINVAL;
	return resolve_sec(text, opts, btf, struct_id, out);
}

bool bp_inspect__is_sec_text(const struct bpfprobe_object *obj)
{
	return !obj->obj;
}

size_t bp_inspect__program_cnt(const struct bpfprobe_object *obj)
{
	return obj->nprogs;
}

size_t bp_inspect__instance_cnt(const struct bpfprobe_object *obj)
{
	return obj->ninsts;
}

static bool has_params(const struct bp_spec *spec)
{
	for (int i = 0; i < spec->nargs; i++)
		if (!strcmp(spec->args[i].var, "$params"))
			return true;
	return false;
}

int bp_inspect__program(const struct bpfprobe_object *obj, size_t i,
			struct bp_inspect_program *out)
{
	const struct bp_program *p;

	if (i >= (size_t)obj->nprogs)
		return -ENOENT;
	p = &obj->progs[i];
	memset(out, 0, sizeof(*out));
	out->name = p->name;
	out->sec = p->sec;
	out->event = p->spec.event;
	out->func = p->spec.func;
	out->is_return = p->spec.is_return;
	for (int k = 0; k < p->spec.nargs && k < BP_MAX_ARGS && !has_params(&p->spec); k++)
		out->arg_expr[k] = p->spec.args[k].text;
	out->points = p->points;
	out->npoints = p->npoints;
	return 0;
}

int bp_inspect__point_instance(const struct bpfprobe_object *obj, size_t i, int j)
{
	int at = j;

	/* bp_instances__build() fills aps program by program, point by
	 * point: found at once, not by a scan per point (a glob of 100k) */
	for (size_t k = 0; k < i && k < (size_t)obj->nprogs; k++)
		at += obj->progs[k].npoints;
	if (at >= 0 && at < obj->naps && obj->aps[at].owner == &obj->progs[i] &&
	    obj->aps[at].point == &obj->progs[i].points[j])
		return obj->aps[at].instance;
	for (int k = 0; k < obj->naps; k++) {
		if (obj->aps[k].owner == &obj->progs[i] &&
		    obj->aps[k].point == &obj->progs[i].points[j])
			return obj->aps[k].instance;
	}
	return -ENOENT;
}

int bp_inspect__instance(const struct bpfprobe_object *obj, size_t i,
			 struct bp_inspect_instance *out)
{
	const struct bp_instance *inst;

	if (i >= (size_t)obj->ninsts)
		return -ENOENT;
	inst = &obj->insts[i];
	out->name = inst->name;
	out->program = (int)(inst->owner - obj->progs);
	out->plan = &inst->plan;
	return 0;
}

static bool is_ldimm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

int bp_inspect__prologue(const struct bpfprobe_object *obj, size_t i,
			 void (*emit)(int slot, const char *text, void *ctx), void *ctx)
{
	struct bpf_insn insns[BP_GUARDS_MAX_INSNS + BP_PROLOGUE_MAX_INSNS];
	struct bp_prologue_opts opts = {};
	const struct bp_instance *inst;
	char line[128];
	int g, n, v4;

	if (i >= (size_t)obj->ninsts)
		return -ENOENT;
	inst = &obj->insts[i];
	/* the prologue as load makes it, with cpu v4 on kernels that have
	 * it, as their release tells: resolve calls no bpf() */
	v4 = bp_cpu_v4__expected();
	if (v4 < 0)
		return v4;
	/* the guards (a map-tracing instance's map id), then the prologue;
	 * before loading there is no entry-value map: shown as map fd 0 */
	g = bp_guards__gen(&inst->guards, insns, BP_GUARDS_MAX_INSNS);
	opts.entry_map_fd = obj->entry ? bp_entry_values__map_fd(obj) : 0;
	opts.cpu_v4 = v4;
	/* the record ABI: the record right below the prologue's own stack;
	 * a load puts it below the body's too, which only the verifier
	 * knows */
	if (g >= 0 && inst->plan.record)
		n = bp_prologue__gen_record(&inst->plan,
					    -((bp_prologue__stack_use(&inst->plan) +
					       (int)inst->plan.rec_size + 7) & ~7),
					    inst->unread, &opts, insns + g, BP_PROLOGUE_MAX_INSNS);
	else
		n = g < 0 ? g : bp_prologue__gen_opts(&inst->plan, inst->unread, &opts, insns + g,
						      BP_PROLOGUE_MAX_INSNS);
	if (n >= 0)
		n += g;
	if (n < 0) {
		bp_err("program '%s': cannot generate the prologue: %s\n",
		       inst->owner->name, strerror(-n));
		return n;
	}
	for (int k = 0; k < n; k++) {
		const struct bpf_insn *next = k + 1 < n ? &insns[k + 1] : NULL;

		bp_insn__format(&insns[k], next, line, sizeof(line));
		emit(k, line, ctx);
		if (is_ldimm64(&insns[k]))
			k++;	/* its second slot */
	}
	return n;
}

int bp_inspect__fetch_text(const struct bp_fetch *f, char *buf, size_t len)
{
	return bp_fetch__format(f, buf, len);
}

int bp_inspect__funcs(struct bp_func_list *l, const char *binary, const char *glob)
{
	return bp_func_list__collect(l, binary, glob);
}

void bp_inspect__funcs_free(struct bp_func_list *l)
{
	bp_func_list__free(l);
}

void bp_inspect__vars_free(struct bp_var_list *l)
{
	bp_var_list__free(l);
}

const char *bp_inspect__var_kind(enum bp_var_kind kind)
{
	return bp_var_kind__name(kind);
}

const char *bp_inspect__var_class(enum bp_var_class cls)
{
	return bp_var_class__name(cls);
}

int bp_inspect__vars(struct bp_var_list *l, const char *binary, const char *point,
		     bool no_cache, pid_t view_pid)
{
	struct bp_spec spec;
	char *text, msg[512];
	int err;

	memset(l, 0, sizeof(*l));
	if (asprintf(&text, "exec=%s;%s", binary, point) < 0) {
		bp_err("bpfprobe vars: out of memory\n");
		return -ENOMEM;
	}
	/* POINT as the spec "exec=BIN;POINT"; the binary is BIN, never POINT's */
	err = bp_spec__parse(text, &spec, msg, sizeof(msg));
	free(text);
	if (err) {
		bp_err("bpfprobe vars: '%s': %s\n", point, msg);
		return err;
	}
	if (!spec.exec || strcmp(spec.exec, binary)) {
		bp_err("bpfprobe vars: '%s': give the binary as BIN, not with exec=\n", point);
		err = -EINVAL;
	}
	if (!err)
		err = bp_var_list__collect(l, &spec, no_cache, view_pid);
	bp_spec__free(&spec);
	return err;
}
