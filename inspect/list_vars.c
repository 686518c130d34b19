// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `bpfprobe vars`: the parameters and locals at each probe point of a spec,
 * with their types, where they live there, and whether they can be fetched
 * (and if not, the resolver's reason and where they would be available).
 *
 * The points come from bp_resolver__resolve(); each variable is put through
 * what an argument goes through (bp_var__find must name this very variable,
 * then bp_arg__compile), set up as the resolver's driver does, with the
 * same -O0 rule: a variable in a frame slot the prologue has not filled at
 * the entry is read past the prologue. So "fetchable" answers "would
 * `FUNC VAR` load?" and "why" is what the loader would say (the failure
 * the resolver's layers record, without the point and argument the loader
 * would name). At a return, "FUNC%return $retval" is resolved as is, what
 * the resolver says kept instead of printed.
 */
#define _GNU_SOURCE		/* asprintf */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/loclist.h"
#include "probes/dwarf/types.h"
#include "probes/resolve.h"
#include "inspect/funcs_vars.h"
#include "probes/report.h"
#include "util/log.h"
#include "util/grow.h"
#include "util/stop.h"

#define MAX_AVAIL	64

struct vars_ctx {
	const struct bp_spec *spec;
	const struct bp_debuginfo *di;
	const struct bp_var_point *pt;	/* the point (binary, func, addr, ...) */
	uint64_t daddr;		/* the point's DWARF address */
	Dwarf_Die *scopes;	/* concrete scopes around daddr, innermost first */
	int nscopes;
	int fi;			/* index of the point's function in scopes */
	Dwarf_Die outer;	/* the out-of-line function holding it (frame base) */
	char where[512];
	struct bp_var_point *vp;
	size_t cap;
	struct bp_arg_dwarf dw;	/* the DWARF side of the arguments' contexts */
};

const char *bp_var_kind__name(enum bp_var_kind kind)
{
	switch (kind) {
	case BP_VAR_PARAM:	return "param";
	case BP_VAR_LOCAL:	return "local";
	case BP_VAR_RETVAL:	return "retval";
	default:		return "?";
	}
}

const char *bp_var_class__name(enum bp_var_class cls)
{
	switch (cls) {
	case BP_VAR_FETCHABLE:	return "fetchable";
	case BP_VAR_ABSENT:	return "absent";
	case BP_VAR_AGGREGATE:	return "aggregate";
	case BP_VAR_IMPLICIT:	return "implicit";
	case BP_VAR_FP_REG:	return "fp_register";
	default:		return "refused";
	}
}

/* --- messages ------------------------------------------------------------ */

/*
 * Why a variable cannot be read, from the resolver's diagnosis: the
 * failure as the loader would say it, without its "FUNC in BIN: argument
 * 'x': " prefix. NULL when out of memory.
 */
static char *reason(const struct bp_diag *d)
{
	char *why;

	if (!d->failed)
		return strdup("");
	if (asprintf(&why, "%s%s", d->msg, d->avail) < 0)
		return NULL;
	return why;
}

/* --- scopes -------------------------------------------------------------- */

/*
 * The scopes around addr, from the unit whose code holds it: by ranges, as
 * clang emits no .debug_aranges for dwarf_addrdie() to use, and with gcc's
 * LTO several units may claim an address (the first found is not always
 * the one whose functions hold it). Returns how many, -ENOENT when no
 * unit covers addr, -ESRCH when those that do have no scope there.
 */
static int scopes_at(Dwarf *dwarf, uint64_t addr, int views, Dwarf_Die **scopes)
{
	Dwarf_Die cudie, subdie, *unit;
	Dwarf_CU *cu = NULL;
	uint8_t unit_type;
	bool covered = false;
	int n;

	if (dwarf_addrdie(dwarf, addr, &cudie) && dwarf_haspc(&cudie, addr) > 0) {
		covered = true;
		n = bp_scopes__at(&cudie, addr, views, scopes);
		if (n > 0)
			return n;
	}
	while (!dwarf_get_units(dwarf, cu, &cu, NULL, &unit_type, &cudie, &subdie)) {
		unit = unit_type == DW_UT_skeleton ? &subdie : &cudie;
		if (!dwarf_tag(unit) || dwarf_haspc(unit, addr) <= 0)
			continue;
		covered = true;
		n = bp_scopes__at(unit, addr, views, scopes);
		if (n > 0)
			return n;
	}
	return covered ? -ESRCH : -ENOENT;
}

/* Why this point's variables cannot be listed: kept in the point, said
 * by the caller; the other points are listed. */
__attribute__((format(printf, 2, 3)))
static int point_error(struct vars_ctx *v, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&v->vp->error, fmt, ap);
	va_end(ap);
	if (n < 0) {
		v->vp->error = NULL;
		return -ENOMEM;
	}
	return -ENOENT;
}

/* The concrete scopes around the point, innermost first. */
static int point_scopes(struct vars_ctx *v, int views)
{
	int n = scopes_at(v->di->dwarf, v->daddr, views, &v->scopes);

	if (n == -ENOENT)
		return point_error(v, "no debug info covers 0x%" PRIx64 " (built without -g?): its variables are unknown",
				   v->pt->addr);
	if (n <= 0)
		return point_error(v, "no DWARF scope holds 0x%" PRIx64, v->pt->addr);
	v->nscopes = n;
	return 0;
}

static bool is_func_scope(const struct vars_ctx *v, Dwarf_Die *d)
{
	const char *name;

	if (v->pt->die_off)
		return dwarf_dieoffset(d) == v->pt->die_off;
	if (!v->pt->is_inline)
		return dwarf_tag(d) == DW_TAG_subprogram;
	name = bp_die_name(d);
	return dwarf_tag(d) == DW_TAG_inlined_subroutine && name &&
	       !strcmp(name, v->pt->func);
}

static int find_func(struct vars_ctx *v)
{
	int i;

	v->fi = -1;
	for (i = 0; i < v->nscopes && v->fi < 0; i++) {
		if (is_func_scope(v, &v->scopes[i]))
			v->fi = i;
	}
	for (i = v->fi < 0 ? v->nscopes : v->fi; i < v->nscopes; i++) {
		if (dwarf_tag(&v->scopes[i]) == DW_TAG_subprogram) {
			v->outer = v->scopes[i];
			return 0;
		}
	}
	return point_error(v, "no DWARF function holds 0x%" PRIx64, v->pt->addr);
}

/* --- collecting variables ------------------------------------------------ */

struct cand {
	Dwarf_Die die;
	enum bp_var_kind kind;
	const char *name;
	bool dropped;
};

struct cands {
	struct cand *c;
	int n;
	size_t cap;
};

static int cand_add(struct cands *cs, Dwarf_Die *die, enum bp_var_kind kind)
{
	const char *name = bp_die_name(die);
	int i;

	if (!name)
		return 0;	/* no name, nothing to ask for */
	for (i = 0; i < cs->n; i++) {
		if (cs->c[i].dropped || strcmp(cs->c[i].name, name))
			continue;
		/* the resolver looks at parameters first, then the innermost
		 * local: an inner local shadows an outer one */
		if (cs->c[i].kind == BP_VAR_PARAM)
			return 0;
		cs->c[i].dropped = true;
	}
	if (bp_grow((void **)&cs->c, cs->n, &cs->cap, sizeof(*cs->c), 16))
		return -ENOMEM;
	cs->c[cs->n++] = (struct cand){ .die = *die, .kind = kind, .name = name };
	return 0;
}

static bool find_named_child(Dwarf_Die *parent, int tag, const char *name, Dwarf_Die *out)
{
	Dwarf_Die child;
	const char *n;

	if (dwarf_child(parent, &child))
		return false;
	do {
		n = dwarf_tag(&child) == tag ? bp_die_name(&child) : NULL;
		if (n && !strcmp(n, name)) {
			*out = child;
			return true;
		}
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

static int add_children(struct cands *cs, Dwarf_Die *parent, int tag, enum bp_var_kind kind)
{
	Dwarf_Die child;
	int err = 0;

	if (dwarf_child(parent, &child))
		return 0;
	do {
		if (dwarf_tag(&child) == tag)
			err = cand_add(cs, &child, kind);
	} while (!err && !dwarf_siblingof(&child, &child));
	return err;
}

/*
 * Parameters in declaration order. A concrete copy (out-of-line copy of an
 * inline function, inlined call) may omit some: those come from the
 * abstract origin, with no location.
 */
static int add_params(struct cands *cs, Dwarf_Die *func)
{
	Dwarf_Attribute attr;
	Dwarf_Die origin, child, concrete;
	const char *name;
	int err = 0;

	if (!dwarf_attr(func, DW_AT_abstract_origin, &attr) ||
	    !dwarf_formref_die(&attr, &origin))
		return add_children(cs, func, DW_TAG_formal_parameter, BP_VAR_PARAM);
	if (dwarf_child(&origin, &child))
		return 0;
	do {
		if (dwarf_tag(&child) != DW_TAG_formal_parameter)
			continue;
		name = bp_die_name(&child);
		if (name && find_named_child(func, DW_TAG_formal_parameter, name, &concrete))
			err = cand_add(cs, &concrete, BP_VAR_PARAM);
		else
			err = cand_add(cs, &child, BP_VAR_PARAM);
	} while (!err && !dwarf_siblingof(&child, &child));
	return err;
}

/* Parameters, the function's locals, then those of the lexical blocks
 * around the point, outer to inner (blocks of calls inlined into it are
 * another function's): the order bp_var__find looks in, reversed. */
static int collect_cands(struct vars_ctx *v, struct cands *cs)
{
	int i, first, err;

	bp_scopes__blocks(v->scopes, v->nscopes, &v->scopes[v->fi], &first);
	err = add_params(cs, &v->scopes[v->fi]);
	if (!err)
		err = add_children(cs, &v->scopes[v->fi], DW_TAG_variable, BP_VAR_LOCAL);
	for (i = v->fi - 1; i >= first && !err; i--) {
		if (dwarf_tag(&v->scopes[i]) == DW_TAG_lexical_block)
			err = add_children(cs, &v->scopes[i], DW_TAG_variable, BP_VAR_LOCAL);
	}
	return err;
}

/* --- one variable -------------------------------------------------------- */

/* Where var has a location (as the resolver's messages count it). */
static int var_ranges(const struct vars_ctx *v, Dwarf_Die *var, struct bp_var_entry *e)
{
	struct bp_loclist_ops buf;
	Dwarf_Addr base, start, end;
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	ptrdiff_t off = 0;
	size_t nops;

	e->navail = 0;
	if (!dwarf_attr_integrate(var, DW_AT_location, &attr)) {
		if (dwarf_hasattr_integrate(var, DW_AT_const_value))
			e->navail = -1;
		return 0;
	}
	while ((off = bp_loclist__next(&attr, off, &base, &start, &end, &ops, &nops, &buf)) > 0) {
		struct bp_addr_range *r;

		/* a single expression: valid throughout the scope */
		if (start == 0 && end == (Dwarf_Addr)-1) {
			e->navail = -1;
			return 0;
		}
		/* entry values count: the entry probe saves them */
		if (!nops || e->navail == MAX_AVAIL)
			continue;
		start = bp_debuginfo__elf_addr(v->di, start);
		end = bp_debuginfo__elf_addr(v->di, end);
		if (e->navail && e->avail[e->navail - 1].end == start) {
			e->avail[e->navail - 1].end = end;
			continue;
		}
		if (!e->avail) {
			e->avail = calloc(MAX_AVAIL, sizeof(*e->avail));
			if (!e->avail)
				return -ENOMEM;
		}
		r = &e->avail[e->navail++];
		r->start = start;
		r->end = end;
	}
	/* kept for long: no more room than the ranges take */
	if (e->avail && e->navail < MAX_AVAIL) {
		struct bp_addr_range *n = realloc(e->avail, (e->navail ? e->navail : 1) * sizeof(*n));

		if (n)
			e->avail = n;
	}
	return 0;
}

/* The resolver reads at the entry unless the variable sits in a frame slot
 * the prologue has yet to fill (unoptimized code): then past the prologue. */
static bool entry_rule_applies(struct vars_ctx *v)
{
	uint64_t entry, end;

	return !v->spec->has_offset && !v->pt->is_return && !v->pt->is_inline &&
	       bp_list__code_range(&v->outer, &entry, &end) && entry == v->daddr;
}

static int read_addr(struct vars_ctx *v, struct bp_arg_ctx *c, Dwarf_Die *var)
{
	struct bp_func fn = { .die = v->outer, .has_die = true };
	uint64_t after;

	if (!entry_rule_applies(v) || !bp_loc__frame_based(c, var))
		return 0;
	if (!bp_list__code_range(&v->outer, &fn.entry, &fn.end) ||
	    bp_func__after_prologue(&fn, &after)) {
		bp_arg_fail(c, "in a frame slot the prologue fills, and where the prologue ends is unknown (no line table?): probe %s+OFFS past it",
			    v->pt->func);
		return -ENOENT;
	}
	c->addr = after;
	return 0;
}

static bool same_die(Dwarf_Die *a, Dwarf_Die *b)
{
	return a->cu == b->cu && dwarf_dieoffset(a) == dwarf_dieoffset(b);
}

/*
 * Whether the resolver's own lookup of the name lands on this variable: a
 * parameter beats a local of the same name, and a lookup may miss what
 * this listing sees.
 */
static int check_lookup(struct bp_arg_ctx *c, struct cand *cd)
{
	Dwarf_Die found;
	int err;

	err = bp_var__find(c, cd->name, &found);
	if (err || same_die(&found, &cd->die))
		return err;
	bp_arg_fail(c, "the name '%s' means another variable at this point (a parameter or local of the same name)",
		    cd->name);
	return -ENOENT;
}

/* Set up as the resolver's driver does for an argument at this point;
 * what fails is recorded in d. */
static void arg_ctx(struct vars_ctx *v, const char *name, struct bp_arg_ctx *c,
		    struct bp_diag *d)
{
	uint64_t entry = 0, end;

	memset(c, 0, sizeof(*c));
	memset(&v->dw, 0, sizeof(v->dw));
	c->dw = &v->dw;
	c->dw->di = v->di;
	c->dw->func = &v->scopes[v->fi];
	/* an inlined copy's frame is its caller's */
	c->dw->frame = v->pt->is_inline ? &v->outer : NULL;
	c->frame_name = bp_die_name(c->dw->frame ? c->dw->frame : c->dw->func);
	c->where = v->where;
	c->addr = v->daddr;
	c->arg = name;
	c->user = true;		/* exec=: the probed process's memory */
	c->diag = d;
	if (bp_list__code_range(&v->outer, &entry, &end))
		c->func_entry = entry;
}

/* Where it lives at c->addr, even when it cannot be fetched as a whole. */
static char *location(struct bp_arg_ctx *c, struct cand *cd)
{
	struct bp_arg_ctx q = *c;
	struct bp_diag scratch = {};
	struct bp_val val;
	char desc[160] = "";

	/* the expression as written even when it cannot be compiled */
	q.diag = &scratch;
	if (bp_loc__var(&q, &cd->die, &val, desc, sizeof(desc)) && !desc[0])
		return NULL;
	return strdup(desc);
}

static bool is_aggregate(Dwarf_Die *var)
{
	Dwarf_Die tmem, pmem, *t = bp_type_peel(bp_die_type(var, &tmem), &pmem);
	int tag = t ? dwarf_tag(t) : 0;

	return bp_tag_is_record(tag) || tag == DW_TAG_array_type;
}

/*
 * Why a variable is not fetchable, as a class: no value here, a floating-
 * point register, an aggregate (it has a location: its members may be
 * fetchable), an implicit pointer whose target is readable here.
 */
static enum bp_var_class not_fetchable(struct bp_arg_ctx *c, struct cand *cd,
				       struct bp_diag *d, char **desc)
{
	struct bp_arg_ctx q = *c;
	struct bp_diag scratch = {};
	struct bp_val val;
	char buf[160];
	const char *target;
	Dwarf_Die tdie;

	/* in an xmm register, or computed in floating point: present */
	if (d->fp_register)
		return is_aggregate(&cd->die) ? BP_VAR_AGGREGATE : BP_VAR_FP_REG;
	if (d->unavailable)
		return BP_VAR_ABSENT;
	q.diag = &scratch;
	if (bp_loc__var(&q, &cd->die, &val, buf, sizeof(buf)))
		return is_aggregate(&cd->die) ? BP_VAR_AGGREGATE : BP_VAR_REFUSED;
	if (val.implicit.set) {
		bp_implicit__die(&val.implicit, &tdie);
		target = bp_die_name(&tdie);
		/* why its target cannot be read is the reason */
		if (bp_loc__implicit_target(&q, &val)) {
			*d = scratch;
			/* its target is in an xmm register: present */
			if (scratch.fp_register)
				return BP_VAR_FP_REG;
			return scratch.unavailable ? BP_VAR_ABSENT : BP_VAR_REFUSED;
		}
		free(*desc);
		if (asprintf(desc, "implicit pointer to %s%s", target ? "" : "an object",
			     target ? target : "") < 0)
			*desc = NULL;
		return BP_VAR_IMPLICIT;
	}
	return is_aggregate(&cd->die) ? BP_VAR_AGGREGATE : BP_VAR_REFUSED;
}

static int eval_var(struct vars_ctx *v, struct cand *cd, struct bp_var_entry *e)
{
	struct bp_arg_spec arg = { .text = e->name, .name = e->name, .var = e->name };
	struct bp_fetch fetch;
	struct bp_diag d = {};
	struct bp_arg_ctx c;
	char desc[160], *tname = NULL;
	int err;

	arg_ctx(v, e->name, &c, &d);
	err = read_addr(v, &c, &cd->die);
	if (!err)
		err = check_lookup(&c, cd);
	/* the resolver's whole path for one argument: this is the verdict */
	if (!err)
		err = bp_arg__compile(&c, &arg, &fetch, &tname, desc, sizeof(desc));
	free(tname);
	e->addr = bp_debuginfo__elf_addr(v->di, c.addr);
	e->fetchable = !err;
	if (err == -ENOMEM)
		return err;
	e->loc_desc = err ? location(&c, cd) : strdup(desc);
	e->cls = BP_VAR_FETCHABLE;
	if (!err) {
		e->fetch = malloc(sizeof(*e->fetch));
		if (!e->fetch)
			return -ENOMEM;
		*e->fetch = fetch;
	}
	if (err) {
		e->cls = not_fetchable(&c, cd, &d, &e->loc_desc);
		e->why = reason(&d);
		if (!e->why)
			return -ENOMEM;
	} else if (!e->loc_desc) {
		return -ENOMEM;
	}
	return var_ranges(v, &cd->die, e);
}

static struct bp_var_entry *new_var(struct vars_ctx *v)
{
	struct bp_var_point *vp = v->vp;
	struct bp_var_entry *e;

	if (bp_grow((void **)&vp->vars, vp->nvars, &v->cap, sizeof(*vp->vars), 8))
		return NULL;
	e = &vp->vars[vp->nvars++];
	memset(e, 0, sizeof(*e));
	return e;
}

static int add_var(struct vars_ctx *v, struct cand *cd)
{
	struct bp_var_entry *e = new_var(v);
	Dwarf_Die tmem;
	char tname[256];
	int line = 0;

	if (!e)
		return -ENOMEM;
	e->kind = cd->kind;
	e->name = strdup(cd->name);
	bp_type_name(bp_die_type(&cd->die, &tmem), tname, sizeof(tname));
	e->type_name = strdup(tname);
	if (!dwarf_decl_line(&cd->die, &line))
		e->decl_line = line;
	if (!e->name || !e->type_name)
		return -ENOMEM;
	return eval_var(v, cd, e);
}

static int point_vars(struct vars_ctx *v)
{
	struct cands cs = {};
	int i, err;

	err = collect_cands(v, &cs);
	for (i = 0; i < cs.n && !err; i++) {
		if (!cs.c[i].dropped)
			err = add_var(v, &cs.c[i]);
	}
	free(cs.c);
	return err;
}

/* --- $retval --------------------------------------------------------------- */

/* At a return probe only $retval can be read: the resolver's own answer for
 * "POINT $retval", one for all points (they share its fate). */
struct retval_res {
	struct bp_point *pts;
	int n;
	char *why;		/* NULL: fetchable at every point */
};

static int retval_resolve(struct bp_resolver *r, const struct bp_spec *spec,
			  int npoints, struct retval_res *res)
{
	struct bp_report said = {};
	struct bp_spec rspec;
	char *text, msg[256];
	int err;

	if (asprintf(&text, "%s $retval", spec->text) < 0)
		return -ENOMEM;
	err = bp_spec__parse(text, &rspec, msg, sizeof(msg));
	free(text);
	if (err) {
		bp_spec__free(&rspec);
		res->why = strdup(msg);
		return res->why ? 0 : -ENOMEM;
	}
	/* what it says is the reason, as data */
	err = bp_resolver__resolve_report(r, &rspec, &res->pts, &res->n, &said);
	bp_spec__free(&rspec);
	if (err)
		res->why = strdup(said.text);
	else if (res->n != npoints)
		res->why = strdup("its probe points differ from those without $retval");
	else
		return 0;
	return res->why ? 0 : -ENOMEM;
}

static int add_retval(struct vars_ctx *v, const struct retval_res *res, int i)
{
	struct bp_var_entry *e = new_var(v);
	Dwarf_Die tmem;
	char tname[256];

	if (!e)
		return -ENOMEM;
	bp_type_name(bp_die_type(&v->scopes[v->fi], &tmem), tname, sizeof(tname));
	e->kind = BP_VAR_RETVAL;
	e->name = strdup("$retval");
	e->type_name = strdup(tname);
	e->addr = v->pt->addr;
	e->navail = -1;
	e->fetchable = !res->why;
	e->cls = e->fetchable ? BP_VAR_FETCHABLE : BP_VAR_REFUSED;
	if (e->fetchable) {
		const char *desc = res->pts[i].loc_desc[0];

		e->fetch = malloc(sizeof(*e->fetch));
		if (!e->fetch)
			return -ENOMEM;
		*e->fetch = res->pts[i].plan.args[0];
		e->loc_desc = strdup(desc ? desc : "reg rax");
	} else {
		e->why = strdup(res->why);
	}
	if (!e->name || !e->type_name || (e->fetchable ? !e->loc_desc : !e->why))
		return -ENOMEM;
	return 0;
}

/* --- the list ------------------------------------------------------------- */

static int copy_point(struct bp_var_point *vp, const struct bp_point *pt)
{
	vp->binary = strdup(pt->binary);
	vp->seen_as = pt->seen_as ? strdup(pt->seen_as) : NULL;
	vp->seen_by = pt->seen_by;
	vp->func = strdup(pt->func);
	vp->cu = pt->cu ? strdup(pt->cu) : NULL;
	vp->addr = pt->addr;
	vp->offset = pt->offset;
	vp->is_return = pt->is_return;
	vp->is_inline = pt->is_inline;
	vp->die_off = pt->die_off;
	return vp->binary && vp->func && (!pt->cu || vp->cu) && (!pt->seen_as || vp->seen_as) ?
	       0 : -ENOMEM;
}

static int open_di(const char *path, const char *debug_dir, struct bp_debuginfo **di)
{
	struct bp_diag d = {};
	int err;

	if (*di && !strcmp((*di)->path, path))
		return 0;
	bp_debuginfo__free(*di);
	*di = NULL;
	err = bp_debuginfo__open_in(path, debug_dir, di, &d);
	bp_report__diag(NULL, &d, NULL);
	if (err)
		return err;
	if (!(*di)->dwarf) {
		bp_err("binary %s has no debug info (DWARF), which knows its variables: rebuild it with -g, or install its debug info (the -dbg/-dbgsym package, or set DEBUGINFOD_URLS for debuginfod)\n",
		       path);
		return -ENODATA;
	}
	return 0;
}

/* One point; what keeps its variables from being listed is kept in its
 * error, and only running out of memory stops the listing. */
static int one_point(struct vars_ctx *v, const struct retval_res *res, int i)
{
	Dwarf_Die die;
	int err, n;

	/* the copy the resolver found: the scopes around it, the blocks
	 * inside it (views included) */
	if (v->pt->die_off && dwarf_offdie(v->di->dwarf, v->pt->die_off, &die) &&
	    (n = bp_scopes__around(&die, v->daddr, &v->scopes)) > 0) {
		v->nscopes = n;
		err = find_func(v);
	} else {
		free(v->scopes);
		v->scopes = NULL;
		err = point_scopes(v, BP_SCOPES_VIEWS);
		if (!err)
			err = find_func(v);
	}
	if (!err)
		err = v->spec->is_return ? add_retval(v, res, i) : point_vars(v);
	return err == -ENOMEM ? err : 0;
}

static int points_vars(const struct bp_spec *spec, const char *debug_dir,
		       const struct retval_res *res, struct bp_var_list *l)
{
	struct bp_debuginfo *di = NULL;
	int i, err = 0;

	for (i = 0; i < l->npoints && !err; i++) {
		const struct bp_var_point *pt = &l->points[i];
		struct vars_ctx v = { .spec = spec, .pt = pt, .vp = &l->points[i] };

		if (bp_stop__requested()) {
			err = -EINTR;
			break;
		}
		err = open_di(pt->binary, debug_dir, &di);
		if (err)
			break;
		v.di = di;
		/* the inverse of bp_debuginfo__elf_addr */
		v.daddr = pt->addr - di->dwarf_bias + di->elf_bias;
		if (l->npoints > 1 && pt->cu)
			snprintf(v.where, sizeof(v.where), "%s (%s) in %s", pt->func,
				 pt->cu, pt->binary);
		else
			snprintf(v.where, sizeof(v.where), "%s in %s", pt->func,
				 pt->binary);
		err = one_point(&v, res, i);
		free(v.scopes);
	}
	bp_debuginfo__free(di);
	return err;
}

int bp_var_list__collect(struct bp_var_list *l, const struct bp_spec *spec, bool no_cache,
			 int view_pid)
{
	struct bp_resolver *r = bp_resolver__new();
	struct retval_res res = {};
	struct bp_point *pts = NULL;
	int i, n = 0, err;

	memset(l, 0, sizeof(*l));
	if (!r)
		return -ENOMEM;
	bp_resolver__set_no_cache(r, no_cache);
	if (spec->nargs) {
		bp_err("%s: arguments given ('%s'): list variables of a probe point without them\n",
		       spec->func ? spec->func : "?", spec->args[0].text);
		err = -EINVAL;
		goto out;
	}
	if (view_pid > 0) {
		char why[PATH_MAX + 256];

		err = bp_resolver__set_view(r, view_pid, why, sizeof(why));
		if (err) {
			bp_err("%s\n", why);
			goto out;
		}
	}
	err = bp_resolver__resolve(r, spec, &pts, &n);
	if (err)
		goto out;
	l->points = calloc(n, sizeof(*l->points));
	if (!l->points) {
		err = -ENOMEM;
		goto out;
	}
	l->npoints = n;
	for (i = 0; i < n && !err; i++)
		err = copy_point(&l->points[i], &pts[i]);
	/* the copies say all that is needed: the plans go (a '*' has many) */
	bp_points__free(pts, n);
	pts = NULL;
	n = 0;
	if (!err && spec->is_return)
		err = retval_resolve(r, spec, l->npoints, &res);
	if (!err)
		err = points_vars(spec, bp_resolver__debug_dir(r), &res, l);
out:
	if (err == -ENOMEM)
		bp_err("%s: out of memory listing variables\n", spec->func ? spec->func : "?");
	bp_points__free(res.pts, res.n);
	free(res.why);
	bp_points__free(pts, n);
	bp_resolver__free(r);
	return err;
}

static void free_var(struct bp_var_entry *e)
{
	free(e->name);
	free(e->type_name);
	free(e->loc_desc);
	free(e->why);
	free(e->avail);
	free(e->fetch);
}

void bp_var_list__free(struct bp_var_list *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->npoints; i++) {
		struct bp_var_point *vp = &l->points[i];

		for (int j = 0; j < vp->nvars; j++)
			free_var(&vp->vars[j]);
		free(vp->vars);
		free(vp->error);
		free(vp->binary);
		free(vp->seen_as);
		free(vp->func);
		free(vp->cu);
	}
	free(l->points);
	memset(l, 0, sizeof(*l));
}
