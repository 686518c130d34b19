// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#define _GNU_SOURCE		/* asprintf */
/*
 * SDT markers as probe points (usdt.h): the sites of the markers a spec
 * names, each with its arguments' fetches. A marker argument argN is its
 * N-th operand: a register, a constant, or memory (at registers plus a
 * displacement, or at a symbol), N bytes, signed or not, as the note says;
 * perf's +OFFS(argN), :TYPE and :string apply to it as to $argN.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/record_plan.h"
#include "probes/usdt/sdt_notes.h"
#include "probes/usdt/sdt_operand.h"
#include "probes/usdt/usdt.h"
#include "probes/value/fetcharg.h"
#include "prologue/arch.h"
#include "prologue/expr.h"

struct site_ctx {
	const struct bp_debuginfo *di;
	const struct bp_spec *spec;
	const struct bp_sdt_site *site;
	char where[512];	/* "provider:name at 0xADDR in BIN" */
	struct bp_report *rep;
	struct bp_diag diag;
};

static bool matches(const struct bp_spec *spec, const struct bp_sdt_site *s)
{
	return !fnmatch(spec->provider, s->provider, 0) && !fnmatch(spec->func, s->name, 0);
}

/* "provider:name, ..." of the markers there are (each once), at most len. */
static void marker_list(const struct bp_sdt_site *sites, int n, char *buf, size_t len)
{
	size_t pos = 0;
	int shown = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && pos < len; i++) {
		bool seen = false;

		for (int k = 0; k < i && !seen; k++)
			seen = !strcmp(sites[k].provider, sites[i].provider) &&
			       !strcmp(sites[k].name, sites[i].name);
		if (seen)
			continue;
		if (shown == 20) {
			snprintf(buf + pos, len - pos, ", ... (bpfprobe markers lists them)");
			return;
		}
		pos += snprintf(buf + pos, len - pos, "%s%s:%s", shown ? ", " : "",
				sites[i].provider, sites[i].name);
		shown++;
	}
}

/* An index register, scaled, added to the base (a fetch expression). */
static int add_index(const struct bp_arg_ctx *c, const struct bp_sdt_operand *op,
		     struct bp_val *v)
{
	struct bp_val idx = { .f = { .base = BP_BASE_REG, .reg = (uint8_t)op->index } };
	struct bp_val scale = { .f = { .base = BP_BASE_CONST, .add = op->scale } };
	int err;

	if (op->scale > 1) {
		err = bp_val__binary(c, &idx, &scale, BP_XOP_MUL, 0);
		if (err)
			return err;
	}
	if (op->base < 0) {
		*v = idx;
		return 0;
	}
	return bp_val__binary(c, v, &idx, BP_XOP_ADD, 0);
}

/* The operand's value: a register or constant (an rvalue), or memory (an
 * lvalue), with where it is in desc. */
static int operand_value(struct site_ctx *sc, const struct bp_arg_ctx *c,
			 const struct bp_sdt_operand *op, struct bp_val *v)
{
	struct bp_elf_sym sym;
	int count, err;

	memset(v, 0, sizeof(*v));
	switch (op->kind) {
	case BP_SDT_REG: {
		char desc[64];

		return bp_fetcharg__reg(c, op->reg, v, desc, sizeof(desc));
	}
	case BP_SDT_IMM:
		v->f.base = BP_BASE_CONST;
		v->f.add = op->imm;
		return 0;
	case BP_SDT_MEM:
		break;
	}
	if (op->sym[0]) {
		err = bp_debuginfo__data_symbol(sc->di, op->sym, &sym, &count);
		if (err < 0) {
			bp_arg_fail(c, "symbol '%s' names %d addresses in %s's symbol table", op->sym,
				    count, sc->di->path);
			return err;
		}
		if (!err) {
			bp_arg_fail(c, "symbol '%s' is not in %s's symbol table", op->sym,
				    sc->di->path);
			return -ENOENT;
		}
		return bp_fetcharg__addr(c, sym.addr + (uint64_t)op->disp, v);
	}
	if (op->base < 0 && op->index < 0)
		/* an absolute address: the binary's, moved as globals are */
		return bp_fetcharg__addr(c, (uint64_t)op->disp, v);
	if (op->base >= 0) {
		v->f.base = BP_BASE_REG;
		v->f.reg = (uint8_t)op->base;
	}
	if (op->index >= 0) {
		err = add_index(c, op, v);
		if (err)
			return err;
	}
	v->off += op->disp;
	v->lvalue = true;
	return 0;
}

/* "8@%rdi" and the operand's kind, for resolve's output. */
static void operand_desc(const char *args, int i, char *buf, size_t len)
{
	const char *p = args;

	for (int k = 0; k <= i; k++) {
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (k == i) {
			snprintf(buf, len, "%.*s", (int)n, p);
			return;
		}
		p += n;
	}
	snprintf(buf, len, "?");
}

/* argN of the site, whole (its +OFFS reads, :TYPE, :string), into *out. */
static int compile_arg(struct site_ctx *sc, const struct bp_arg_spec *arg, struct bp_point *pt,
		       int i)
{
	struct bp_arg_ctx c = {
		.where = sc->where,
		.addr = sc->site->addr,
		.arg = arg->text ? arg->text : arg->var,
		.user = true,
		.diag = &sc->diag,
	};
	struct bp_arg_spec a = *arg;
	struct bp_sdt_operand op;
	char why[256], desc[160];
	struct bp_val v;
	int err;

	if (arg->farg == BP_FARG_USTACK || arg->farg == BP_FARG_KSTACK) {
		err = bp_fetcharg__stack(arg, &pt->plan.args[i], &pt->type_name[i], desc,
					 sizeof(desc));
		pt->loc_desc[i] = strdup(desc);
		pt->arg_name[i] = strdup(arg->name ? arg->name : arg->var);
		return err ?: pt->loc_desc[i] && pt->arg_name[i] ? 0 : -ENOMEM;
	}
	if (arg->farg != BP_FARG_SDT) {
		bp_arg_fail(&c, "a marker's arguments are arg1, arg2, ... (its operands; perf's +OFFS(argN), :TYPE and :string apply): %s is none",
			    arg->farg == BP_FARG_ARGN ? "$argN (a function's calling convention)" :
			    arg->farg == BP_FARG_REG || arg->farg == BP_FARG_SYM ? "this fetch argument" :
			    "a variable");
		return -EINVAL;
	}
	err = bp_sdt_operand__parse(sc->site->args, arg->argn - 1, &op, why, sizeof(why));
	if (err == -ENOENT) {
		bp_arg_fail(&c, "%s:%s has %d argument%s (%s): there is no arg%d",
			    sc->site->provider, sc->site->name, bp_sdt__nargs(sc->site->args),
			    bp_sdt__nargs(sc->site->args) == 1 ? "" : "s",
			    *sc->site->args ? sc->site->args : "none", arg->argn);
		return err;
	}
	if (err) {
		bp_arg_fail(&c, "operand %d of %s:%s %s", arg->argn, sc->site->provider,
			    sc->site->name, why);
		return err;
	}
	err = operand_value(sc, &c, &op, &v);
	if (err)
		return err;
	/* the note's size and sign, unless :TYPE or +OFFS(...) says */
	if (!a.has_type && !a.nreads && !a.string && !a.ustring) {
		a.has_type = true;
		a.type_size = (uint8_t)op.size;
		a.type_signed = op.is_signed;
	}
	operand_desc(sc->site->args, arg->argn - 1, desc, sizeof(desc));
	err = bp_fetcharg__compile(&c, &a, &v, true, &pt->plan.args[i], &pt->type_name[i], desc,
				   sizeof(desc));
	if (err)
		return err;
	/* %ah and its kin: the byte above the lowest */
	if (op.kind == BP_SDT_REG && op.reg_bit_off && !a.nreads &&
	    pt->plan.args[i].kind == BP_FETCH_VALUE && !pt->plan.args[i].bit_size) {
		pt->plan.args[i].bit_off = (uint8_t)op.reg_bit_off;
		pt->plan.args[i].bit_size = (uint8_t)(pt->plan.args[i].size * 8);
		pt->plan.args[i].size = 8;
	}
	pt->loc_desc[i] = strdup(desc);
	pt->arg_name[i] = strdup(arg->name ? arg->name : arg->var);
	return pt->loc_desc[i] && pt->arg_name[i] ? 0 : -ENOMEM;
}

/* $params: arg1..argK of the site, each a marker argument. */
static int expand(const struct bp_spec *spec, const struct bp_sdt_site *site, const char *where,
		  struct bp_arg_spec **out, int *nargs, struct bp_diag *d)
{
	int n = 0, k = bp_sdt__nargs(site->args), total = 0;
	struct bp_arg_spec *v;

	for (int i = 0; i < spec->nargs; i++)
		total += strcmp(spec->args[i].var, "$params") ? 1 : k;
	if (total > bp_spec__max_args(spec)) {
		bp_diag__set(d, "%s: $params expands to the marker's %d arguments, %d in all; at most %d fit in %s",
			     where, k, total, bp_spec__max_args(spec),
			     spec->record ? "a record" : "R3..R5");
		return -E2BIG;
	}
	v = calloc(total ? total : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < spec->nargs; i++) {
		if (strcmp(spec->args[i].var, "$params")) {
			v[n++] = spec->args[i];
			continue;
		}
		for (int j = 1; j <= k; j++) {
			char name[16];
			int err;

			snprintf(name, sizeof(name), "arg%d", j);
			memset(&v[n], 0, sizeof(v[n]));
			v[n].farg = BP_FARG_SDT;
			v[n].argn = j;
			/* the expanded names live in the point (arg_name) */
			v[n].var = v[n].text = v[n].name = strdup(name);
			if (!v[n].var) {
				free(v);
				return -ENOMEM;
			}
			err = spec->record ? bp_record__want(spec->record, &v[n], where, d) : 0;
			n++;
			if (err) {
				/* the caller frees what there is */
				*out = v;
				*nargs = n;
				return err;
			}
		}
	}
	*out = v;
	*nargs = n;
	return 0;
}

/* Frees what expand() allocated: the names of $params' arguments. */
static void expanded_free(const struct bp_spec *spec, struct bp_arg_spec *args, int n)
{
	for (int i = 0; i < n; i++) {
		bool own = true;

		for (int k = 0; k < spec->nargs && own; k++)
			own = args[i].var != spec->args[k].var;
		if (own)
			free(args[i].var);
	}
	free(args);
}

static int site_point(struct site_ctx *sc, struct bp_point *pt)
{
	const struct bp_sdt_site *s = sc->site;
	struct bp_arg_spec *args = NULL;
	int nargs = 0, err;

	snprintf(sc->where, sizeof(sc->where), "%s:%s at 0x%" PRIx64 " in %s", s->provider,
		 s->name, s->addr, sc->di->path);
	pt->binary = strdup(sc->di->path);
	if (asprintf(&pt->func, "%s:%s", s->provider, s->name) < 0)
		pt->func = NULL;
	pt->source = strdup("SDT note (.note.stapsdt)");
	if (!pt->binary || !pt->func || !pt->source)
		return -ENOMEM;
	pt->addr = s->addr;
	pt->offset = s->offset;
	pt->ref_ctr_offset = s->sem ? s->sem_offset : 0;
	err = expand(sc->spec, s, sc->where, &args, &nargs, &sc->diag);
	for (int i = 0; !err && i < nargs; i++)
		err = compile_arg(sc, &args[i], pt, i);
	if (!err)
		pt->plan.nargs = nargs;
	expanded_free(sc->spec, args, nargs);
	return err;
}

int bp_usdt__resolve(const struct bp_debuginfo *di, const struct bp_spec *spec,
		     struct bp_point **points, int *npoints, struct bp_report *rep)
{
	struct bp_sdt_site *sites = NULL;
	struct bp_point *pts = NULL;
	char why[512], list[1024];
	int n, np = 0, err = 0;

	n = bp_sdt_sites__read(di->path, &sites, why, sizeof(why));
	if (n < 0) {
		bp_report__line(rep, "%s: %s\n", spec->point, why);
		return n;
	}
	if (!n) {
		bp_report__line(rep, "%s: %s has no SDT markers (no .note.stapsdt notes)\n",
				spec->point, di->path);
		return -ENOENT;
	}
	for (int i = 0; i < n; i++)
		np += matches(spec, &sites[i]);
	if (!np) {
		marker_list(sites, n, list, sizeof(list));
		bp_report__line(rep, "%s: no marker %s:%s in %s (its markers: %s)\n", spec->point,
				spec->provider, spec->func, di->path, list);
		bp_sdt_sites__free(sites, n);
		return -ENOENT;
	}
	pts = calloc(np, sizeof(*pts));
	if (!pts) {
		bp_sdt_sites__free(sites, n);
		return -ENOMEM;
	}
	np = 0;
	for (int i = 0; i < n && !err; i++) {
		struct site_ctx sc = { .di = di, .spec = spec, .site = &sites[i], .rep = rep };

		if (!matches(spec, &sites[i]))
			continue;
		err = site_point(&sc, &pts[np++]);
		if (err == -ENOMEM)
			bp_report__line(rep, "%s: out of memory\n", spec->point);
		else if (err)
			bp_report__diag(rep, &sc.diag, sc.where);
	}
	bp_sdt_sites__free(sites, n);
	if (err) {
		bp_points__free(pts, np);
		return err;
	}
	*points = pts;
	*npoints = np;
	return 0;
}
