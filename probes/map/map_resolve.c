// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The map-tracing resolver's driver: map=MAP;update|delete ARG... -> one
 * probe point per kernel function that does it to the map (funcs.c), each
 * guarded by the map's id, with key, value and flags compiled as fetches.
 *
 * key and value are pointers to the map's key and value types, from the
 * map's own BTF (a map without BTF: u8 pointers), so key[0], key->port and
 * value->hits walk them like any BTF type (probes/kernel/btf.c); flags is
 * the function's u64 parameter. Plans are made in fentry form, reading the
 * function's arguments from ctx slots; bp_map_points__to_kprobes() turns
 * them into registers for kernels that refuse fentry.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <bpf/btf.h>

#include "probes/kernel/kallsyms.h"
#include "probes/kernel/kernel.h"
#include "probes/map/map.h"
#include "prologue/arch.h"

#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"

struct bp_map_resolver {
	struct bp_kallsyms *ksyms;
	struct btf *vmlinux;
	int id_off;
	struct utsname uts;
};

struct bp_map_resolver *bp_map_resolver__new(void)
{
	return calloc(1, sizeof(struct bp_map_resolver));
}

void bp_map_resolver__free(struct bp_map_resolver *r)
{
	if (!r)
		return;
	bp_kallsyms__free(r->ksyms);
	btf__free(r->vmlinux);
	free(r);
}

static int load_kernel(struct bp_map_resolver *r, struct bp_diag *d)
{
	int err;

	if (r->vmlinux)
		return 0;
	if (uname(&r->uts))
		snprintf(r->uts.release, sizeof(r->uts.release), "?");
	err = bp_kallsyms__load(BP_KALLSYMS_PATH, &r->ksyms, d);
	if (err)
		return err;
	r->vmlinux = btf__parse(VMLINUX_BTF, NULL);
	if (!r->vmlinux) {
		err = -errno;
		bp_diag__set(d, "map tracing needs the kernel's BTF: cannot read %s: %s (CONFIG_DEBUG_INFO_BTF)",
			     VMLINUX_BTF, strerror(-err));
		return err;
	}
	r->id_off = bp_map_funcs__id_offset(r->vmlinux);
	if (r->id_off < 0) {
		bp_diag__set(d, "kernel BTF (%s) has no struct bpf_map with a member 'id': the traced map cannot be told from others",
			     VMLINUX_BTF);
		return r->id_off;
	}
	return 0;
}

/* --- the map's key and value types ---------------------------------------- */

struct map_types {
	struct btf *btf;	/* the map's BTF (or an empty one), plus: */
	__u32 key_ptr;		/* a pointer to its key type */
	__u32 value_ptr;	/* and to its value type */
};

/* A pointer to type (0: u8, for maps without BTF). */
static int add_ptr(struct btf *btf, __u32 type, __u32 *u8, __u32 *out)
{
	int id;

	if (!type) {
		if (!*u8) {
			id = btf__add_int(btf, "u8", 1, 0);
			if (id < 0)
				return id;
			*u8 = id;
		}
		type = *u8;
	}
	id = btf__add_ptr(btf, type);
	if (id < 0)
		return id;
	*out = id;
	return 0;
}

static int load_types(const struct bp_map_target *t, struct map_types *mt, struct bp_diag *d)
{
	__u32 u8 = 0;
	int err;

	memset(mt, 0, sizeof(*mt));
	if (t->info.btf_id) {
		mt->btf = btf__load_from_kernel_by_id(t->info.btf_id);
		if (!mt->btf) {
			err = -errno;
			bp_diag__set(d, "cannot read the BTF (id %u) of map %u: %s", t->info.btf_id,
				     t->info.id, strerror(-err));
			return err;
		}
	} else {
		mt->btf = btf__new_empty();
		if (!mt->btf)
			return -ENOMEM;
	}
	err = add_ptr(mt->btf, t->info.btf_key_type_id, &u8, &mt->key_ptr);
	if (!err)
		err = add_ptr(mt->btf, t->info.btf_value_type_id, &u8, &mt->value_ptr);
	return err;
}

/* --- points ---------------------------------------------------------------- */

static int param_type(const struct btf *btf, __u32 func_id, int i)
{
	const struct btf_type *fn = btf__type_by_id(btf, func_id);
	const struct btf_type *proto = fn ? btf__type_by_id(btf, fn->type) : NULL;

	return proto && i >= 0 && i < btf_vlen(proto) ? (int)btf_params(proto)[i].type : -1;
}

static int compile_arg(const struct bp_map_resolver *r, const struct map_types *mt,
		       const struct bp_map_func *f, const struct bp_arg_spec *arg,
		       const char *where, struct bp_point *pt, int i, struct bp_diag *d)
{
	struct bp_fetch base = { .base = BP_BASE_CTX, .size = 8 };
	const struct btf *btf = mt->btf;
	const char *what;
	char desc[256];
	int type;

	if (!strcmp(arg->var, "key")) {
		base.reg = f->key_arg;
		type = mt->key_ptr;
		what = "the key";
	} else if (!strcmp(arg->var, "value")) {
		base.reg = f->value_arg;
		type = mt->value_ptr;
		what = f->value_percpu ? "the value (CPU 0's of the per-CPU values)" : "the value";
	} else {
		base.reg = f->flags_arg;
		btf = r->vmlinux;
		type = param_type(r->vmlinux, f->btf_id, f->flags_arg);
		what = "the flags";
	}
	if (type < 0) {
		bp_diag__set_arg(d, arg->text, "%s takes no %s", f->name, arg->var);
		return -EINVAL;
	}
	snprintf(desc, sizeof(desc), "%s: argument %d of %s", what, base.reg + 1, f->name);
	pt->arg_name[i] = strdup(arg->name);
	pt->loc_desc[i] = strdup(desc);
	if (!pt->arg_name[i] || !pt->loc_desc[i])
		return -ENOMEM;
	return bp_kbtf__compile_value(btf, type, &base, arg, where, &pt->plan.args[i],
				      &pt->type_name[i], d);
}

static int make_point(const struct bp_map_resolver *r, const struct bp_map_target *t,
		      const struct map_types *mt, const struct bp_map_func *f,
		      const struct bp_spec *spec, struct bp_point *pt, struct bp_diag *d)
{
	char where[400], src[128];
	int err = 0;

	snprintf(where, sizeof(where), "map=%s;%s (map %u '%s'), in kernel function %s",
		 spec->map, spec->func, t->info.id, t->info.name, f->name);
	snprintf(src, sizeof(src), "BTF %s, the map's BTF%s", VMLINUX_BTF,
		 t->info.btf_id ? "" : " (none: u8 pointers)");
	pt->kernel = true;
	pt->binary = strdup("vmlinux");
	pt->func = strdup(f->name);
	pt->source = strdup(src);
	if (!pt->binary || !pt->func || !pt->source)
		return -ENOMEM;
	pt->addr = f->addr;
	pt->kaddr = f->unique ? 0 : f->addr;
	pt->map = (struct bp_map_trace){
		.on = true,
		.id = t->info.id,
		.type = t->info.type,
		.id_off = r->id_off,
		.map_arg = f->map_arg,
		.fentry = true,
		.btf_id = f->btf_id,
		.via = f->via,
		.update = f->op == BP_MAP_UPDATE,
		.value_percpu = f->value_percpu,
	};
	snprintf(pt->map.name, sizeof(pt->map.name), "%s", t->info.name);
	for (int i = 0; i < spec->nargs && !err; i++)
		err = compile_arg(r, mt, f, &spec->args[i], where, pt, i, d);
	pt->plan.nargs = spec->nargs;
	return err;
}

static int resolve(struct bp_map_resolver *r, const struct bp_spec *spec,
		   struct bp_point **points, int *npoints, struct bp_diag *d)
{
	struct bp_map_kernel k = { .release = r->uts.release };
	struct bp_map_target t;
	struct bp_map_func *fs = NULL;
	struct map_types mt = {};
	struct bp_point *pts = NULL;
	int n = 0, err;

	if (spec->nargs > bp_spec__max_args(spec))
		return -E2BIG;
	err = load_kernel(r, d);
	if (err)
		return err;
	k.ksyms = r->ksyms;
	k.vmlinux = r->vmlinux;
	k.release = r->uts.release;
	err = bp_map_target__find(spec->map, &t, d);
	if (err)
		return err;
	n = bp_map_funcs__find(&k, &t, strcmp(spec->func, "update") ? BP_MAP_DELETE : BP_MAP_UPDATE,
			       &fs, d);
	err = n < 0 ? n : load_types(&t, &mt, d);
	if (!err) {
		pts = calloc(n, sizeof(*pts));
		if (!pts)
			err = -ENOMEM;
	}
	for (int i = 0; !err && i < n; i++)
		err = make_point(r, &t, &mt, &fs[i], spec, &pts[i], d);
	btf__free(mt.btf);
	free(fs);
	bp_map_target__close(&t);
	if (err) {
		bp_points__free(pts, n > 0 ? n : 0);
		return err;
	}
	*points = pts;
	*npoints = n;
	return 0;
}

int bp_map_resolver__resolve(struct bp_map_resolver *r, const struct bp_spec *spec,
			     struct bp_point **points, int *npoints, struct bp_report *rep)
{
	struct bp_diag d = {};
	char where[300];
	int err;

	err = resolve(r, spec, points, npoints, &d);
	snprintf(where, sizeof(where), "map=%s;%s", spec->map, spec->func);
	bp_report__diag(rep, &d, where);
	return err;
}

void bp_map_point__guards(const struct bp_point *pt, struct bp_guards *gs)
{
	memset(gs, 0, sizeof(*gs));
	gs->refused_fd = -1;
	if (!pt->map.on)
		return;
	gs->n = 1;
	gs->v[0].kind = BP_GUARD_KERNEL_U32_EQ;
	gs->v[0].ctx_off = pt->map.fentry ? 8 * pt->map.map_arg :
			   bp_arch__pt_regs_off(bp_arch__arg_reg(pt->map.map_arg));
	gs->v[0].off = pt->map.id_off;
	gs->v[0].value = pt->map.id;
}

void bp_map_points__to_kprobes(struct bp_point *points, int npoints)
{
	for (int i = 0; i < npoints; i++) {
		struct bp_point *pt = &points[i];

		if (!pt->map.on || !pt->map.fentry)
			continue;
		pt->map.fentry = false;
		for (int k = 0; k < pt->plan.nargs; k++) {
			struct bp_fetch *f = &pt->plan.args[k];

			if (f->base != BP_BASE_CTX)
				continue;
			f->base = BP_BASE_REG;
			f->reg = bp_arch__arg_reg(f->reg);
		}
	}
}
