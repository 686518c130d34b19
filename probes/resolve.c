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
#include "probes/resolve_kernel.h"
#include "util/log.h"

struct bp_resolver {
	/* opened binaries by path: specs often share one */
	struct bp_debuginfo *cache;
	/* kallsyms and kernel BTF, loaded by the first kernel spec */
	struct bp_kernel *kernel;
	/* --vmlinux: kernel DWARF to use instead of the usual places */
	char *vmlinux;
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
	bp_kernel__free(r->kernel);
	free(r->vmlinux);
	free(r);
}

int bp_resolver__set_vmlinux(struct bp_resolver *r, const char *path)
{
	free(r->vmlinux);
	r->vmlinux = path ? strdup(path) : NULL;
	return path && !r->vmlinux ? -ENOMEM : 0;
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

int bp_resolver__debuginfo(struct bp_resolver *r, const char *path,
			   struct bp_debuginfo **out)
{
	return get_debuginfo(r, path, out);
}

/* Frees what one point holds (not the point itself). */
static void point_free_fields(struct bp_point *pt)
{
	int j;

	free(pt->binary);
	free(pt->func);
	free(pt->cu);
	free(pt->module);
	free(pt->source);
	free(pt->src_file);
	free(pt->caller);
	free(pt->symbol);
	for (j = 0; j < BP_MAX_ARGS; j++) {
		free(pt->arg_name[j]);
		free(pt->loc_desc[j]);
		free(pt->type_name[j]);
	}
}

void bp_points__free(struct bp_point *points, int npoints)
{
	int i;

	if (!points)
		return;
	for (i = 0; i < npoints; i++)
		point_free_fields(&points[i]);
	free(points);
}

/* --- one point ------------------------------------------------------------ */

struct point_ctx {
	const struct bp_debuginfo *di;
	const struct bp_spec *spec;
	struct bp_site *site;	/* where (resolve_func.c) */
	struct bp_func *fn;	/* &site->fn */
	char where[512];	/* "FUNC in BINARY" or "FUNC (CU) in BINARY" */
	/* this point's arguments: spec's with $params expanded */
	struct bp_arg_spec *args;
	int nargs;
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
	memset(c, 0, sizeof(*c));
	c->di = p->di;
	c->func = &p->fn->die;
	/* an inlined copy's frame is its caller's */
	c->frame = p->fn->is_inline ? &p->fn->frame : NULL;
	c->where = p->where;
	c->addr = addr;
	c->arg = arg_text(arg);
	/*
	 * exec= probes read the probed process's memory. In the kernel the
	 * argument's own location (e.g. a stack slot) is kernel memory and
	 * only its member chain is user memory with @user (resolve_arg).
	 */
	c->user = p->spec->exec != NULL;
	c->func_entry = p->fn->frame_entry;
	c->at_return = p->spec->is_return;
	c->kernel = !p->spec->exec;
}

/* What the function of DWARF return type (NULL: void) returns, for
 * $retval: only a float is told apart (a struct is refused later). */
static enum bp_ret_kind ret_kind(Dwarf_Die *type)
{
	Dwarf_Die pmem, *t;
	Dwarf_Attribute attr;
	Dwarf_Word enc;

	if (!type)
		return BP_RET_VOID;
	t = bp_type_peel(type, &pmem);
	if (t && dwarf_tag(t) == DW_TAG_base_type &&
	    dwarf_attr_integrate(t, DW_AT_encoding, &attr) &&
	    !dwarf_formudata(&attr, &enc) && enc == DW_ATE_float)
		return BP_RET_FLOAT;
	return BP_RET_VALUE;
}

/*
 * $retval of a function known only from the symbol table (bash's readline,
 * say): rax as an untyped 64-bit value, unless :TYPE says otherwise. This
 * is what bpftrace's retval gives, and enough to read a returned pointer.
 */
static int retval_untyped(const struct point_ctx *p, const struct bp_arg_ctx *c,
			  const struct bp_arg_spec *arg, struct bp_fetch *f,
			  char **type_name, char **loc_desc)
{
	struct bp_val val;
	char desc[128];
	int err;

	err = bp_retval__value(c, p->spec, BP_RET_VALUE, &val, desc, sizeof(desc));
	if (err)
		return err;
	*f = val.f;
	f->size = arg->has_type ? arg->type_size : 8;
	f->is_signed = arg->has_type && arg->type_signed;
	*type_name = strdup("u64 (no debug info: raw rax)");
	*loc_desc = strdup(desc);
	return *type_name && *loc_desc ? 0 : -ENOMEM;
}

static int resolve_arg(struct point_ctx *p, uint64_t addr, int i, struct bp_point *pt)
{
	const struct bp_arg_spec *arg = &p->args[i];
	Dwarf_Die tmem, *type;
	struct bp_arg_ctx c = {};
	struct bp_val val;
	char desc[128];
	int err;

	arg_ctx(p, arg, addr, &c);
	pt->arg_name[i] = strdup(arg->name ? arg->name : arg_text(arg));
	if (!pt->arg_name[i])
		return -ENOMEM;
	if (is_retval(arg) && !p->fn->has_die)
		return retval_untyped(p, &c, arg, &pt->plan.args[i], &pt->type_name[i],
				      &pt->loc_desc[i]);
	if (is_retval(arg)) {
		type = bp_die_type(&p->fn->die, &tmem);
		err = bp_retval__value(&c, p->spec, ret_kind(type), &val, desc, sizeof(desc));
		if (err)
			return err;
		c.user = c.user || arg->user;
		err = bp_member__compile(&c, arg, type, &val, &pt->plan.args[i],
					 &pt->type_name[i]);
	} else {
		/* variables: parameters, locals, globals (resolve_arg.c) */
		err = bp_arg__compile(&c, arg, &pt->plan.args[i], &pt->type_name[i],
				      desc, sizeof(desc));
	}
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

	for (i = 0; i < p->nargs && !frame_based; i++) {
		/* $retval and @globals are not in the frame */
		if (is_retval(&p->args[i]) || p->args[i].global)
			continue;
		arg_ctx(p, &p->args[i], *addr, &c);
		err = bp_var__find(&c, p->args[i].var, &var);
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
	/* the entry, +OFFS or a source line's address (bp_sites__find) */
	*addr = p->site->addr;
	if (!p->site->at_entry || p->spec->is_return || !p->nargs)
		return 0;
	return skip_prologue(p, addr);
}

/* Where the point is, as bp_sites__find found it, for tools and -v. */
static int point_position(const struct point_ctx *p, struct bp_point *pt)
{
	const struct bp_site *s = p->site;
	const char *caller;

	pt->is_inline = s->fn.is_inline;
	pt->src_line = s->line;
	if (s->file && !(pt->src_file = strdup(s->file)))
		return -ENOMEM;
	if (s->symbol && !(pt->symbol = strdup(s->symbol)))
		return -ENOMEM;
	caller = s->fn.is_inline ? bp_die_name(&p->fn->frame) : NULL;
	if (caller && !(pt->caller = strdup(caller)))
		return -ENOMEM;
	return 0;
}

static int resolve_point(struct point_ctx *p, struct bp_point *pt)
{
	const struct bp_spec *spec = p->spec;
	uint64_t addr;
	int i, err;

	pt->binary = strdup(p->di->path);
	pt->func = strdup(p->fn->name ? p->fn->name : spec->func ? spec->func : "?");
	pt->cu = p->fn->cu_name ? strdup(p->fn->cu_name) : NULL;
	if (!pt->binary || !pt->func || (p->fn->cu_name && !pt->cu))
		return -ENOMEM;
	pt->is_return = spec->is_return;
	err = point_position(p, pt);
	if (err)
		return err;

	err = bp_args__expand(spec, p->fn->has_die ? &p->fn->die : NULL, p->where,
			      &p->args, &p->nargs);
	if (err)
		return err;
	err = probe_addr(p, &addr);
	pt->plan.nargs = p->nargs;
	for (i = 0; i < p->nargs && !err; i++)
		err = resolve_arg(p, addr, i, pt);
	bp_args__free(p->args, p->nargs);
	p->args = NULL;
	p->nargs = 0;
	if (err)
		return err;
	pt->addr = bp_debuginfo__elf_addr(p->di, addr);
	if (!spec->exec) {
		/* a kprobe goes on the function's symbol plus an offset */
		pt->kernel = true;
		pt->offset = addr - p->fn->entry;
		return 0;
	}
	if (bp_debuginfo__file_offset(p->di, addr, &pt->offset)) {
		bp_err("%s: address 0x%" PRIx64 " is in no loadable segment of the file\n",
		       p->where, pt->addr);
		return -ENOENT;
	}
	return 0;
}

/* --- the spec ------------------------------------------------------------- */

/* The probe point for messages: as written, or the function. */
static const char *point_name(const struct bp_spec *spec)
{
	return spec->point ? spec->point : spec->func ? spec->func : "?";
}

static int check_spec(const struct bp_spec *spec)
{
	if ((!spec->func || !*spec->func) && !spec->src) {
		bp_err("SEC(\"%s\"): no function or source line named\n", spec->text ? spec->text : "");
		return -EINVAL;
	}
	if (spec->nargs < 0 || spec->nargs > BP_MAX_ARGS) {
		bp_err("%s: %d arguments requested, at most %d can be fetched\n",
		       point_name(spec), spec->nargs, BP_MAX_ARGS);
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
		bp_err("%s: binary '%s' not found%s\n", point_name(spec), spec->exec,
		       strchr(spec->exec, '/') ? "" :
		       " (a bare name is looked up in PATH and, like the dynamic loader, in LD_LIBRARY_PATH, /etc/ld.so.cache, /lib and /usr/lib)");
		return -ENOENT;
	}
	err = get_debuginfo(r, path, di);
	free(path);
	if (err)
		return err;
	if (spec->nargs && !(*di)->dwarf && !bp_spec__only_plain_retval(spec)) {
		bp_err("%s: binary %s has no debug info (DWARF), needed to find argument '%s': rebuild it with -g, or install its debug info (the -dbg/-dbgsym package, or set DEBUGINFOD_URLS for debuginfod)\n",
		       point_name(spec), (*di)->path, arg_text(&spec->args[0]));
		return -ENODATA;
	}
	return 0;
}

int bp_resolver__resolve(struct bp_resolver *r, const struct bp_spec *spec,
			 struct bp_point **points, int *npoints)
{
	struct bp_debuginfo *di;
	int err;

	if (!spec->exec) {
		if (!r->kernel) {
			struct bp_kernel_paths paths = { .vmlinux = r->vmlinux };

			r->kernel = bp_kernel__new();
			if (r->kernel)
				bp_kernel__set_paths(r->kernel, &paths);
		}
		if (!r->kernel)
			return -ENOMEM;
		return bp_kernel__resolve(r->kernel, r, spec, points, npoints);
	}
	err = check_spec(spec);
	if (!err)
		err = open_binary(r, spec, &di);
	if (err)
		return err;
	return bp_dwarf__resolve(di, spec, points, npoints);
}

/* force=yes: a point that cannot be resolved is left out, and said so. */
static bool skip_point(const struct bp_spec *spec, const char *where, int err)
{
	if (!spec->force || err == -ENOMEM)
		return false;
	bp_err("SEC(\"%s\"): force=yes: skipping probe point %s\n",
	       spec->text ? spec->text : point_name(spec), where);
	return true;
}

int bp_dwarf__resolve(const struct bp_debuginfo *di, const struct bp_spec *spec,
		      struct bp_point **points, int *npoints)
{
	struct point_ctx p = { .spec = spec };
	struct bp_site *sites = NULL;
	struct bp_point *pts = NULL;
	int i, n = 0, np = 0, err;

	/* every copy and line the point names (resolve_func.c) */
	err = bp_sites__find(di, spec, &sites, &n);
	if (err)
		return err;

	pts = calloc(n, sizeof(*pts));
	if (!pts) {
		err = -ENOMEM;
		goto out;
	}
	p.di = di;
	for (i = 0; i < n; i++) {
		p.site = &sites[i];
		p.fn = &sites[i].fn;
		snprintf(p.where, sizeof(p.where), "%s", sites[i].where);
		/* a copy bp_sites__find could not place has said why */
		err = sites[i].err ? sites[i].err : resolve_point(&p, &pts[np]);
		if (!err) {
			np++;
			continue;
		}
		/* the slot is reused for the next point */
		point_free_fields(&pts[np]);
		memset(&pts[np], 0, sizeof(pts[np]));
		if (!skip_point(spec, sites[i].where, err))
			goto out;
		err = 0;
	}
	if (!np) {
		bp_err("SEC(\"%s\"): every probe point was skipped: nothing to probe\n",
		       spec->text ? spec->text : point_name(spec));
		err = -ENOENT;
	} else if (np < n) {
		bp_info("SEC(\"%s\"): %d of %d probe points resolved (force=yes)\n",
			spec->text ? spec->text : point_name(spec), np, n);
	}
out:
	free(sites);
	if (err) {
		if (err == -ENOMEM)
			bp_err("%s: out of memory\n", point_name(spec));
		bp_points__free(pts, np);
		return err;
	}
	*points = pts;
	*npoints = np;
	return 0;
}
