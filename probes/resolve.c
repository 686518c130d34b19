// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The resolver's driver: a parsed spec -> every probe point it names, each
 * with its address, file offset and fetch plan.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf_resolve.h"
#include "probes/dwarf_types.h"
#include "probes/resolve.h"
#include "util/log.h"

struct bp_resolver {
	/* opened binaries by path: specs often share one */
	struct bp_debuginfo *cache;
};

struct bp_resolver *bp_resolver__new(void)
{
	return calloc(1, sizeof(struct bp_resolver));
}

void bp_resolver__free(struct bp_resolver *r)
{
	struct bp_debuginfo *di, *next;

	if (!r)
		return;
	for (di = r->cache; di; di = next) {
		next = di->next;
		bp_debuginfo__free(di);
	}
	free(r);
}

static int get_debuginfo(struct bp_resolver *r, const char *path,
			 struct bp_debuginfo **out)
{
	struct bp_debuginfo *di;
	int err;

	for (di = r->cache; di; di = di->next) {
		if (!strcmp(di->path, path)) {
			*out = di;
			return 0;
		}
	}
	err = bp_debuginfo__open(path, &di);
	if (err)
		return err;
	di->next = r->cache;
	r->cache = di;
	*out = di;
	return 0;
}

void bp_points__free(struct bp_point *points, int npoints)
{
	int i, j;

	if (!points)
		return;
	for (i = 0; i < npoints; i++) {
		free(points[i].binary);
		free(points[i].func);
		free(points[i].cu);
		for (j = 0; j < BP_MAX_ARGS; j++) {
			free(points[i].loc_desc[j]);
			free(points[i].type_name[j]);
		}
	}
	free(points);
}

/* --- one point ------------------------------------------------------------ */

struct point_ctx {
	const struct bp_debuginfo *di;
	const struct bp_spec *spec;
	struct bp_func *fn;
	char where[512];	/* "FUNC in BINARY" or "FUNC (CU) in BINARY" */
};

static const char *arg_text(const struct bp_arg_spec *arg)
{
	return arg->text ? arg->text : arg->name ? arg->name : arg->var;
}

static bool is_retval(const struct bp_arg_spec *arg)
{
	return !strcmp(arg->var, "$retval");
}

static void arg_ctx(struct point_ctx *p, const struct bp_arg_spec *arg,
		    uint64_t addr, struct bp_arg_ctx *c)
{
	c->di = p->di;
	c->func = &p->fn->die;
	c->where = p->where;
	c->addr = addr;
	c->arg = arg_text(arg);
	/* exec= probes read the probed process's memory */
	c->user = p->spec->exec || arg->user;
}

/* $retval: rax at the return, typed by the function's return type. */
static int retval_value(struct point_ctx *p, const struct bp_arg_ctx *c,
			Dwarf_Die *tmem, Dwarf_Die **type, struct bp_val *val,
			char *desc, size_t desclen)
{
	Dwarf_Die pmem, *t;

	if (!p->spec->is_return) {
		bp_arg_err(c, "$retval is only known in a return probe (%s%%return)",
			   p->spec->func);
		return -EINVAL;
	}
	*type = bp_die_type(&p->fn->die, tmem);
	if (!*type) {
		bp_arg_err(c, "%s returns void: there is no $retval", p->spec->func);
		return -EINVAL;
	}
	t = bp_type_peel(*type, &pmem);
	if (t && dwarf_tag(t) == DW_TAG_base_type) {
		Dwarf_Attribute attr;
		Dwarf_Word enc;

		if (dwarf_attr_integrate(t, DW_AT_encoding, &attr) &&
		    !dwarf_formudata(&attr, &enc) && enc == DW_ATE_float) {
			bp_arg_err(c, "%s returns a floating-point value (in xmm0): floating-point registers are not readable from a probe",
				   p->spec->func);
			return -EOPNOTSUPP;
		}
	}
	memset(val, 0, sizeof(*val));
	val->f.base = BP_BASE_REG;
	val->f.reg = BP_REG_RAX;
	snprintf(desc, desclen, "reg rax (return value)");
	return 0;
}

static int resolve_arg(struct point_ctx *p, uint64_t addr, int i, struct bp_point *pt)
{
	const struct bp_arg_spec *arg = &p->spec->args[i];
	Dwarf_Die var, tmem, *type;
	struct bp_arg_ctx c;
	struct bp_val val;
	char desc[128];
	int err;

	arg_ctx(p, arg, addr, &c);
	if (is_retval(arg)) {
		err = retval_value(p, &c, &tmem, &type, &val, desc, sizeof(desc));
	} else if (p->spec->is_return) {
		/* its registers and stack slots are reused by then */
		bp_arg_err(&c, "a return probe can only fetch $retval");
		err = -EINVAL;
	} else {
		err = bp_var__find(&c, arg->var, &var);
		if (!err)
			err = bp_loc__var(&c, &var, &val, desc, sizeof(desc));
		if (!err)
			type = bp_die_type(&var, &tmem);
	}
	if (err)
		return err;
	err = bp_member__compile(&c, arg, type, &val, &pt->plan.args[i],
				 &pt->type_name[i]);
	if (err)
		return err;
	pt->loc_desc[i] = strdup(desc);
	return pt->loc_desc[i] ? 0 : -ENOMEM;
}

/*
 * At the entry of unoptimized code the parameters are still in registers
 * while DWARF already points at their frame slots: probe after the
 * prologue when any argument lives in such a slot.
 */
static int skip_prologue(struct point_ctx *p, uint64_t *addr)
{
	const struct bp_spec *spec = p->spec;
	bool frame_based = false;
	struct bp_arg_ctx c;
	Dwarf_Die var;
	uint64_t after;
	int i, err;

	for (i = 0; i < spec->nargs && !frame_based; i++) {
		if (is_retval(&spec->args[i]))
			continue;
		arg_ctx(p, &spec->args[i], *addr, &c);
		err = bp_var__find(&c, spec->args[i].var, &var);
		if (err)
			return err;
		frame_based = bp_loc__frame_based(&c, &var);
	}
	if (!frame_based)
		return 0;
	if (bp_func__after_prologue(p->fn, &after)) {
		bp_err("%s: cannot find where the prologue ends (no line table?): probe %s+OFFS past it\n",
		       p->where, spec->func);
		return -ENOENT;
	}
	if (after != *addr)
		bp_info("%s: probing 0x%" PRIx64 ", past the prologue (entry 0x%" PRIx64 "), where the arguments are in their frame slots\n",
			p->where, after, *addr);
	*addr = after;
	return 0;
}

static int probe_addr(struct point_ctx *p, uint64_t *addr)
{
	const struct bp_spec *spec = p->spec;
	uint64_t size = p->fn->end - p->fn->entry;

	*addr = p->fn->entry;
	if (spec->has_offset) {
		/* symbol-table functions may have size 0: nothing to check */
		if (size && spec->offset >= size) {
			bp_err("%s: offset +%" PRIu64 " is past the end of the function (%" PRIu64 " bytes)\n",
			       p->where, spec->offset, size);
			return -ERANGE;
		}
		*addr += spec->offset;
		return 0;
	}
	if (spec->is_return || !spec->nargs)
		return 0;
	return skip_prologue(p, addr);
}

static int resolve_point(struct point_ctx *p, struct bp_point *pt)
{
	const struct bp_spec *spec = p->spec;
	uint64_t addr;
	int i, err;

	pt->binary = strdup(p->di->path);
	pt->func = strdup(spec->func);
	pt->cu = p->fn->cu_name ? strdup(p->fn->cu_name) : NULL;
	if (!pt->binary || !pt->func || (p->fn->cu_name && !pt->cu))
		return -ENOMEM;
	pt->is_return = spec->is_return;

	err = probe_addr(p, &addr);
	if (err)
		return err;
	pt->plan.nargs = spec->nargs;
	for (i = 0; i < spec->nargs; i++) {
		err = resolve_arg(p, addr, i, pt);
		if (err)
			return err;
	}
	pt->addr = bp_debuginfo__elf_addr(p->di, addr);
	if (bp_debuginfo__file_offset(p->di, addr, &pt->offset)) {
		bp_err("%s: address 0x%" PRIx64 " is in no loadable segment of the file\n",
		       p->where, pt->addr);
		return -ENOENT;
	}
	return 0;
}

/* --- the spec ------------------------------------------------------------- */

static int check_spec(const struct bp_spec *spec)
{
	if (!spec->exec) {
		bp_err("%s: kernel probes are not supported by this resolver yet (exec= is missing)\n",
		       spec->func ? spec->func : "?");
		return -EOPNOTSUPP;
	}
	if (!spec->func || !*spec->func) {
		bp_err("SEC(\"%s\"): no function named\n", spec->text ? spec->text : "");
		return -EINVAL;
	}
	if (spec->nargs < 0 || spec->nargs > BP_MAX_ARGS) {
		bp_err("%s: %d arguments requested, at most %d can be fetched\n",
		       spec->func, spec->nargs, BP_MAX_ARGS);
		return -E2BIG;
	}
	return 0;
}

static int open_binary(struct bp_resolver *r, const struct bp_spec *spec,
		       struct bp_debuginfo **di)
{
	char *path;
	int err;

	path = bp_find_binary(spec->exec);
	if (!path) {
		bp_err("%s: binary '%s' not found\n", spec->func, spec->exec);
		return -ENOENT;
	}
	err = get_debuginfo(r, path, di);
	free(path);
	if (err)
		return err;
	if (spec->nargs && !(*di)->dwarf) {
		bp_err("%s: binary %s has no debug info (DWARF), needed to find argument '%s': rebuild it with -g, or install its debug info (the -dbg/-dbgsym package, or set DEBUGINFOD_URLS for debuginfod)\n",
		       spec->func, (*di)->path, arg_text(&spec->args[0]));
		return -ENODATA;
	}
	return 0;
}

int bp_resolver__resolve(struct bp_resolver *r, const struct bp_spec *spec,
			 struct bp_point **points, int *npoints)
{
	struct point_ctx p = { .spec = spec };
	struct bp_debuginfo *di;
	struct bp_func *funcs = NULL;
	struct bp_point *pts = NULL;
	int i, n = 0, err;

	err = check_spec(spec);
	if (!err)
		err = open_binary(r, spec, &di);
	if (!err)
		err = bp_funcs__find(di, spec->func, spec->nargs > 0, &funcs, &n);
	if (err)
		return err;

	pts = calloc(n, sizeof(*pts));
	if (!pts) {
		err = -ENOMEM;
		goto out;
	}
	p.di = di;
	for (i = 0; i < n; i++) {
		p.fn = &funcs[i];
		/* the CU tells the copies of a static function apart */
		if (n > 1 && funcs[i].cu_name)
			snprintf(p.where, sizeof(p.where), "%s (%s) in %s", spec->func,
				 funcs[i].cu_name, di->path);
		else
			snprintf(p.where, sizeof(p.where), "%s in %s", spec->func, di->path);
		err = resolve_point(&p, &pts[i]);
		if (err)
			goto out;
	}
out:
	free(funcs);
	if (err) {
		if (err == -ENOMEM)
			bp_err("%s: out of memory\n", spec->func);
		bp_points__free(pts, n);
		return err;
	}
	*points = pts;
	*npoints = n;
	return 0;
}
