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

static int resolve_programs(struct bpfprobe_object *obj)
{
	struct bp_resolver *r = bp_resolver__new();
	int err = 0;

	if (!r)
		return -ENOMEM;
	for (int i = 0; i < obj->nprogs && !err; i++) {
		struct bp_program *p = &obj->progs[i];

		if (obj->obj)
			err = bp_btf__check_prototype(obj->obj, p);
		if (err)
			break;
		err = bp_resolver__resolve(r, &p->spec, &p->points, &p->npoints);
		if (err)
			bp_err("program '%s': cannot resolve SEC(\"%s\")\n", p->name, p->sec);
	}
	bp_resolver__free(r);
	return err;
}

int bp_object__resolve_only(struct bpfprobe_object *obj)
{
	int err;

	if (!obj)
		return -EINVAL;
	if (obj->loaded || obj->aps)
		return -EBUSY;
	err = resolve_programs(obj);
	if (!err)
		err = bp_instances__build(obj);
	if (err == -ENOMEM)
		bp_err("out of memory resolving '%s'\n", obj->path);
	return err;
}

int bp_object__resolve_sec(const char *text, struct bpfprobe_object **out)
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
	if (!obj || !obj->progs || !obj->path) {
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
