// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The user-space resolver's driver: a parsed spec and an opened binary ->
 * every probe point the spec names there, each with its address, file
 * offset and fetch plan. (Kernel specs with vmlinux DWARF come here too,
 * through probes/kernel/kernel_resolve.c.) The layers below record what goes
 * wrong (probes/diag.h); this one says it, naming the point and argument.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/binary/debuginfo_cache.h"
#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/types.h"
#include "probes/report.h"
#include "util/log.h"

/* --- one point ------------------------------------------------------------ */

struct point_ctx {
	const struct bp_debuginfo *di;
	const struct bp_spec *spec;
	struct bp_site *site;	/* where (sites.c) */
	struct bp_func *fn;	/* &site->fn */
	char where[512];	/* "FUNC in BINARY" or "FUNC (CU) in BINARY" */
	/* this point's arguments: spec's with $params expanded */
	struct bp_arg_spec *args;
	int nargs;
	struct bp_report *rep;	/* NULL: say it (bp_err) */
	struct bp_diag diag;	/* what the layers below record, said at once */
	struct bp_arg_dwarf dw;	/* the DWARF side of its arguments' contexts */
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
	memset(&p->dw, 0, sizeof(p->dw));
	c->dw = &p->dw;
	c->dw->di = p->di;
	c->dw->func = &p->fn->die;
	/* an inlined copy's frame is its caller's */
	c->dw->frame = p->fn->is_inline ? &p->fn->frame : NULL;
	c->frame_name = bp_die_name(c->dw->frame ? c->dw->frame : c->dw->func);
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
	c->diag = &p->diag;
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

/* $retval of a function with DWARF: rax, typed by its return type. */
static int retval_typed(struct point_ctx *p, struct bp_arg_ctx *c,
			const struct bp_arg_spec *arg, struct bp_fetch *f,
			char **type_name, char *desc, size_t desclen)
{
	Dwarf_Die tmem, *type;
	struct bp_val val;
	int err;

	type = bp_die_type(&p->fn->die, &tmem);
	err = bp_retval__value(c, p->spec, ret_kind(type), &val, desc, desclen);
	if (err)
		return err;
	c->user = c->user || arg->user;
	err = bp_member__compile(c, arg, type, &val, f, type_name);
	if (err)
		bp_arg__where_else(c);
	else
		bp_arg__type_from(c, desc, desclen);
	return err;
}

static int resolve_arg(struct point_ctx *p, uint64_t addr, int i, struct bp_point *pt)
{
	const struct bp_arg_spec *arg = &p->args[i];
	struct bp_arg_ctx c = {};
	char desc[400];
	int err;

	arg_ctx(p, arg, addr, &c);
	pt->arg_name[i] = strdup(arg->name ? arg->name : arg_text(arg));
	if (!pt->arg_name[i])
		return -ENOMEM;
	if (bp_perf_arg__is(arg)) {
		/* $argN, %REG, +OFFS(...), @SYM: DWARF or not */
		struct bp_perf_point pp = {
			.di = p->di, .spec = p->spec, .fn = p->fn, .symbol = p->site->symbol,
		};

		err = bp_perf_arg__compile(&c, arg, &pp, &pt->plan.args[i], &pt->type_name[i],
					   desc, sizeof(desc));
	} else if (is_retval(arg) && !p->fn->has_die)
		err = retval_untyped(p, &c, arg, &pt->plan.args[i], &pt->type_name[i],
				     &pt->loc_desc[i]);
	else if (is_retval(arg))
		err = retval_typed(p, &c, arg, &pt->plan.args[i], &pt->type_name[i],
				   desc, sizeof(desc));
	else
		/* variables: parameters, locals, globals (arg.c) */
		err = bp_arg__compile(&c, arg, &pt->plan.args[i], &pt->type_name[i],
				      desc, sizeof(desc));
	/* what went wrong, or a warning, named with the point and argument */
	bp_report__diag(p->rep, &p->diag, p->where);
	if (err || pt->loc_desc[i])
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
		/* $retval, @globals and perf's fetch arguments are not in the frame */
		if (is_retval(&p->args[i]) || p->args[i].global ||
		    bp_perf_arg__is(&p->args[i]))
			continue;
		arg_ctx(p, &p->args[i], *addr, &c);
		err = bp_var__find(&c, p->args[i].var, &var);
		if (err) {
			bp_report__diag(p->rep, &p->diag, p->where);
			return err;
		}
		frame_based = bp_loc__frame_based(&c, &var);
	}
	if (!frame_based)
		return 0;
	if (bp_func__after_prologue(p->fn, &after)) {
		bp_report__line(p->rep, "%s: cannot find where the prologue ends (no line table?): probe %s+OFFS past it\n",
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

/* The entries the plan's entry values come from, as file offsets: where
 * the loader puts the companion probes that save them. */
static int entry_saves(struct point_ctx *p, struct bp_point *pt)
{
	uint64_t off;
	int i, k, j;

	for (i = 0; i < pt->plan.nargs; i++) {
		const struct bp_fetch *f = &pt->plan.args[i];

		for (k = 0; f->base == BP_BASE_EXPR && k < f->expr.nops; k++) {
			if (f->expr.ops[k].op != BP_XOP_ENTRY_REG)
				continue;
			if (bp_debuginfo__file_offset(p->di, (uint64_t)f->expr.ops[k].imm, &off)) {
				bp_report__line(p->rep, "%s: the function entry 0x%" PRIx64 " whose registers an argument needs is in no loadable segment\n",
						p->where, (uint64_t)f->expr.ops[k].imm);
				return -ENOENT;
			}
			for (j = 0; j < pt->nentries && pt->entry_offsets[j] != off; j++)
				;
			if (j < pt->nentries)
				continue;
			if (pt->nentries == BP_MAX_ENTRY_SAVES) {
				bp_report__line(p->rep, "%s: the arguments need entry values of more than %d functions: not supported\n",
						p->where, BP_MAX_ENTRY_SAVES);
				return -E2BIG;
			}
			pt->entry_offsets[pt->nentries++] = off;
		}
	}
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
	pt->die_off = p->fn->has_die ? dwarf_dieoffset(&p->fn->die) : 0;
	err = point_position(p, pt);
	if (err)
		return err;

	err = bp_args__expand(spec, p->fn->has_die ? &p->fn->die : NULL, p->where,
			      &p->args, &p->nargs, &p->diag);
	if (err) {
		bp_report__diag(p->rep, &p->diag, p->where);
		return err;
	}
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
		bp_report__line(p->rep, "%s: address 0x%" PRIx64 " is in no loadable segment of the file\n",
				p->where, pt->addr);
		return -ENOENT;
	}
	return entry_saves(p, pt);
}

/* --- every point of the spec ---------------------------------------------- */

/* The probe point for messages: as written, or the function. */
static const char *point_name(const struct bp_spec *spec)
{
	return spec->point ? spec->point : spec->func ? spec->func : "?";
}

/* force=yes: a point that cannot be resolved is left out, and said so. */
static bool skip_point(struct bp_report *rep, const struct bp_spec *spec,
		       const char *where, int err)
{
	if (!spec->force || err == -ENOMEM)
		return false;
	bp_report__line(rep, "SEC(\"%s\"): force=yes: skipping probe point %s\n",
			spec->text ? spec->text : point_name(spec), where);
	return true;
}

/*
 * Every copy and line the point names (sites.c); why those that cannot be
 * probed cannot, all said before the points are resolved. Returns how
 * many (>= 1) or a negative errno.
 */
static int find_sites(const struct bp_debuginfo *di, const struct bp_spec *spec,
		      struct bp_report *rep, struct bp_site **sites)
{
	struct bp_diag d = {};
	int i, n = 0, err;

	err = bp_sites__find(di, spec, sites, &n, &d);
	bp_report__diag(rep, &d, NULL);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		if ((*sites)[i].msg)
			bp_report__line(rep, "%s\n", (*sites)[i].msg);
	}
	return n;
}

int bp_dwarf__resolve(const struct bp_debuginfo *di, const struct bp_spec *spec,
		      struct bp_point **points, int *npoints, struct bp_report *rep)
{
	struct point_ctx p = { .spec = spec, .rep = rep };
	struct bp_site *sites = NULL;
	struct bp_point *pts = NULL;
	int i, n = 0, np = 0, err;

	n = find_sites(di, spec, rep, &sites);
	if (n < 0)
		return n;

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
		/* a copy bp_sites__find could not place: said already */
		err = sites[i].err ? sites[i].err : resolve_point(&p, &pts[np]);
		if (!err) {
			np++;
			continue;
		}
		/* the slot is reused for the next point */
		bp_point__clear(&pts[np]);
		if (!skip_point(rep, spec, sites[i].where, err))
			goto out;
		err = 0;
	}
	if (!np) {
		bp_report__line(rep, "SEC(\"%s\"): every probe point was skipped: nothing to probe\n",
				spec->text ? spec->text : point_name(spec));
		err = -ENOENT;
	} else if (np < n) {
		bp_info("SEC(\"%s\"): %d of %d probe points resolved (force=yes)\n",
			spec->text ? spec->text : point_name(spec), np, n);
	}
out:
	bp_sites__free(sites, n);
	if (err) {
		if (err == -ENOMEM)
			bp_report__line(rep, "%s: out of memory\n", point_name(spec));
		bp_points__free(pts, np);
		return err;
	}
	*points = pts;
	*npoints = np;
	return 0;
}

int bp_dwarf__resolve_path(void *cache, const char *path, const struct bp_spec *spec,
			   const char *where, struct bp_point **points, int *npoints,
			   struct bp_report *rep)
{
	struct bp_debuginfo *di;
	struct bp_diag d = {};
	int err;

	err = bp_debuginfo_cache__get(cache, path, &di, &d);
	bp_report__diag(rep, &d, where);
	return err ?: bp_dwarf__resolve(di, spec, points, npoints, rep);
}
