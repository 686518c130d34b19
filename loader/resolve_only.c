// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Probe points, plans and instances without loading anything: the first
 * half of bpfprobe_object__load() (loader/object.c), for `bpfprobe
 * resolve`. libbpf only opened the object (no bpf() calls); the resolver
 * reads files; instances are grouped by bp_instances__build(), so their
 * numbering is the loader's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/resolve_only.h"
#include "util/log.h"

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

int bp_object__resolve_only(struct bpfprobe_object *obj)
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

int bp_object__resolve_sec(const char *text, const char *vmlinux,
			   struct bpfprobe_object **out)
{
	struct bpfprobe_object *obj;
	struct bp_program *p;
	char msg[512];
	int err;

	*out = NULL;
	obj = calloc(1, sizeof(*obj));
	if (obj)
		obj->progs = calloc(1, sizeof(*obj->progs));
	/* path holds the text: the program's sec points into it */
	if (obj && obj->progs)
		obj->path = strdup(text);
	if (obj && vmlinux)
		obj->vmlinux = strdup(vmlinux);
	if (!obj || !obj->progs || !obj->path || (vmlinux && !obj->vmlinux)) {
		bp_err("out of memory resolving SEC(\"%s\")\n", text);
		bpfprobe_object__destroy(obj);
		return -ENOMEM;
	}
	p = &obj->progs[obj->nprogs++];
	p->sec = obj->path;
	err = bp_spec__parse(text, &p->spec, msg, sizeof(msg));
	if (err) {
		bp_err("%s\n", msg);
		bpfprobe_object__destroy(obj);
		return err;
	}
	/* the spec's strings live as long as the object */
	p->name = p->spec.event ? p->spec.event : p->spec.func ? p->spec.func : "probe";
	err = bp_object__resolve_only(obj);
	if (err) {
		bpfprobe_object__destroy(obj);
		return err;
	}
	*out = obj;
	return 0;
}
