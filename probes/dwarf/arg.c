// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One variable argument from name to fetch (variable, location, member
 * chain); where in its function an argument that cannot be read here could
 * be (the locations say only that it cannot: loc.c records the failure,
 * this file adds the ranges); and $params, expanded into a function's
 * parameters.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/types.h"
#include "probes/record_plan.h"

#define MAX_LISTED_RANGES	4

/* Location and member chain of var, with nothing else to decide. */
static int compile_var(struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
		       Dwarf_Die *var, struct bp_fetch *out, char **type_name,
		       char *desc, size_t desclen)
{
	Dwarf_Die tmem, *type;
	struct bp_val val;
	bool user = c->user;
	int err;

	err = bp_loc__var(c, var, &val, desc, desclen);
	if (err)
		return err;
	type = bp_die_type(var, &tmem);
	/* the chain past the variable's own location may be user memory */
	c->user = c->user || arg->user;
	/* in the kernel, reading the variable from its slot is not part of it */
	if (c->kernel)
		c->first_user_deref = val.f.nderef + (val.lvalue ? 1 : 0);
	err = bp_member__compile(c, arg, type, &val, out, type_name);
	c->user = user;
	c->first_user_deref = 0;
	return err;
}

int bp_arg__compile(struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
		    struct bp_fetch *out, char **type_name, char *desc,
		    size_t desclen)
{
	Dwarf_Die var;
	int err;

	err = arg->global ? bp_var__find_global(c, arg->var, &var)
			  : bp_var__find(c, arg->var, &var);
	if (err)
		return err;
	if (c->at_return && !bp_var__is_static(&var)) {
		/* its registers and stack slots are reused by then */
		bp_arg_fail(c, "a return probe can only fetch $retval and variables at fixed addresses (globals, statics): '%s' lives in registers or the stack frame the function has left",
			    arg->var);
		return -EINVAL;
	}
	c->dw->var = &var;
	c->spec_arg = arg;
	c->dw->type_from[0] = '\0';
	err = compile_var(c, arg, &var, out, type_name, desc, desclen);
	if (err)
		bp_arg__where_else(c);
	else
		bp_arg__type_from(c, desc, desclen);
	c->dw->var = NULL;
	c->spec_arg = NULL;
	return err;
}

void bp_arg__type_from(const struct bp_arg_ctx *c, char *desc, size_t desclen)
{
	size_t l = strlen(desc);

	if (c->dw->type_from[0] && l + 2 < desclen)
		snprintf(desc + l, desclen - l, "; %s", c->dw->type_from);
}

/* --- where else ----------------------------------------------------------- */

struct avail {
	const struct bp_arg_ctx *c;
	uint64_t start[MAX_LISTED_RANGES + 1];
	uint64_t end[MAX_LISTED_RANGES + 1];
	int n;
	bool more;
};

/* Whether the argument compiles at addr (why not is of no interest). */
static bool readable_at(const struct bp_arg_ctx *c, uint64_t addr)
{
	struct bp_arg_ctx t = *c;
	struct bp_diag scratch = {};
	struct bp_fetch f;
	char *type_name = NULL, desc[160];
	int err;

	t.diag = &scratch;
	t.addr = addr;
	err = compile_var(&t, c->spec_arg, c->dw->var, &f, &type_name, desc, sizeof(desc));
	free(type_name);
	return !err;
}

static void avail_add(struct avail *a, uint64_t start, uint64_t end)
{
	/* adjacent ranges read as one */
	if (a->n && a->end[a->n - 1] == start) {
		a->end[a->n - 1] = end;
		return;
	}
	if (a->n == MAX_LISTED_RANGES) {
		a->more = true;
		return;
	}
	a->start[a->n] = start;
	a->end[a->n] = end;
	a->n++;
}

static void avail_range(uint64_t start, uint64_t end, bool entry_value, void *ctx)
{
	struct avail *a = ctx;

	/* entry values included: the entry probe saves them */
	if (readable_at(a->c, start))
		avail_add(a, start, end);
}

/* "0x1157-0x115a (by_pt+0x7..+0xa)", or "0x1150 (by_pt+0x0)" for one byte */
static size_t format_range(const struct bp_arg_ctx *c, const char *fname,
			   uint64_t start, uint64_t end, char *buf, size_t len)
{
	uint64_t entry = c->func_entry;

	if (end == start + 1)
		return snprintf(buf, len, "0x%" PRIx64 " (%s+0x%" PRIx64 ")", start,
				fname, start - entry);
	if (!entry || start < entry)
		return snprintf(buf, len, "0x%" PRIx64 "-0x%" PRIx64, start, end);
	return snprintf(buf, len, "0x%" PRIx64 "-0x%" PRIx64 " (%s+0x%" PRIx64 "..+0x%" PRIx64 ")",
			start, end, fname, start - entry, end - 1 - entry);
}

void bp_arg__where_else(const struct bp_arg_ctx *c)
{
	struct avail a = { .c = c };
	/* offsets count from the entry of the function that has the frame */
	const char *fname;
	char *ranges;
	size_t pos = 0, len;
	int i, n = 0;

	if (!c->diag || !c->diag->unavailable || c->diag->avail[0])
		return;
	fname = bp_arg__frame_name(c);
	ranges = c->diag->avail;
	len = sizeof(c->diag->avail);
	if (c->dw->var && c->spec_arg) {
		n = bp_loc__ranges(c->dw->var, avail_range, &a);
		/* one expression for the whole function: only an entry value
		 * can differ, at the entry */
		if (!n && c->func_entry && c->addr != c->func_entry &&
		    readable_at(c, c->func_entry))
			avail_add(&a, c->func_entry, c->func_entry + 1);
	}
	if (!a.n) {
		snprintf(ranges, len, "; it is readable nowhere in %s", fname);
		return;
	}
	pos = snprintf(ranges, len, "; available at ");
	for (i = 0; i < a.n && pos < len; i++) {
		if (i)
			pos += snprintf(ranges + pos, len - pos, ", ");
		if (pos < len)
			pos += format_range(c, fname, a.start[i], a.end[i], ranges + pos,
					    len - pos);
	}
	if (a.more && pos < len)
		snprintf(ranges + pos, len - pos, ", ...");
}

/* --- $params ------------------------------------------------------------- */

static bool is_params(const struct bp_arg_spec *arg)
{
	return arg->var && !strcmp(arg->var, "$params");
}

/* The function's named parameters, from its abstract instance when it has
 * one (a concrete copy may omit those it optimized away). */
static int param_list(Dwarf_Die *func, const char **names, int max)
{
	Dwarf_Attribute attr;
	Dwarf_Die origin, child, *f = func;
	const char *n;
	int count = 0;

	if (dwarf_attr(func, DW_AT_abstract_origin, &attr) &&
	    dwarf_formref_die(&attr, &origin))
		f = &origin;
	if (dwarf_child(f, &child))
		return 0;
	do {
		if (dwarf_tag(&child) != DW_TAG_formal_parameter)
			continue;
		n = bp_die_name(&child);
		if (!n)
			continue;	/* int f(int): nothing to name it by */
		if (count < max)
			names[count] = n;
		count++;
	} while (!dwarf_siblingof(&child, &child));
	return count;
}

static int copy_arg(struct bp_arg_spec *dst, const struct bp_arg_spec *src)
{
	int i;

	*dst = *src;
	dst->text = src->text ? strdup(src->text) : NULL;
	dst->name = src->name ? strdup(src->name) : NULL;
	dst->var = src->var ? strdup(src->var) : NULL;
	dst->steps = NULL;
	dst->nsteps = 0;
	if ((src->text && !dst->text) || (src->name && !dst->name) ||
	    (src->var && !dst->var))
		return -ENOMEM;
	if (!src->nsteps)
		return 0;
	dst->steps = calloc(src->nsteps, sizeof(*dst->steps));
	if (!dst->steps)
		return -ENOMEM;
	for (i = 0; i < src->nsteps; i++) {
		dst->steps[i] = src->steps[i];
		dst->steps[i].field = NULL;
		dst->nsteps++;
		if (src->steps[i].field) {
			dst->steps[i].field = strdup(src->steps[i].field);
			if (!dst->steps[i].field)
				return -ENOMEM;
		}
	}
	return 0;
}

static int param_arg(struct bp_arg_spec *dst, const char *name)
{
	memset(dst, 0, sizeof(*dst));
	dst->text = strdup(name);
	dst->name = strdup(name);
	dst->var = strdup(name);
	return dst->text && dst->name && dst->var ? 0 : -ENOMEM;
}

void bp_args__free(struct bp_arg_spec *args, int nargs)
{
	int i, j;

	if (!args)
		return;
	for (i = 0; i < nargs; i++) {
		for (j = 0; j < args[i].nsteps; j++)
			free(args[i].steps[j].field);
		free(args[i].steps);
		free(args[i].text);
		free(args[i].name);
		free(args[i].var);
	}
	free(args);
}

/* "a, b, c, d" */
static void join_names(const char **names, int n, char *buf, size_t len)
{
	size_t pos = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && pos < len; i++)
		pos += snprintf(buf + pos, len - pos, "%s%s", i ? ", " : "", names[i]);
}

int bp_args__expand(const struct bp_spec *spec, Dwarf_Die *func, const char *where,
		    struct bp_arg_spec **args, int *nargs, struct bp_diag *d)
{
	const char *names[32];
	struct bp_arg_spec *out;
	int i, k, nparams = 0, total = 0, n = 0, err = 0;
	bool expand = false;
	char list[256];

	for (i = 0; i < spec->nargs; i++) {
		if (is_params(&spec->args[i])) {
			expand = true;
			nparams = func ? param_list(func, names, 32) : 0;
			total += nparams;
		} else {
			total++;
		}
	}
	if (expand && total > bp_spec__max_args(spec)) {
		join_names(names, nparams < 32 ? nparams : 32, list, sizeof(list));
		bp_diag__set(d, "%s: $params expands to %d parameter%s (%s), %d argument%s in all; at most %d fit in %s: name the ones you need",
			     where, nparams, nparams == 1 ? "" : "s", list, total,
			     total == 1 ? "" : "s", bp_spec__max_args(spec),
			     spec->record ? "a record" : "R3..R5");
		return -E2BIG;
	}
	out = calloc(total ? total : 1, sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (i = 0; i < spec->nargs && !err; i++) {
		if (!is_params(&spec->args[i])) {
			err = copy_arg(&out[n++], &spec->args[i]);
			continue;
		}
		for (k = 0; k < nparams && !err; k++) {
			err = param_arg(&out[n], names[k]);
			/* the record ABI: what its member wants */
			if (!err && spec->record)
				err = bp_record__want(spec->record, &out[n], where, d);
			n++;
		}
	}
	if (err) {
		bp_args__free(out, n);
		return err;
	}
	*args = out;
	*nargs = n;
	return 0;
}
