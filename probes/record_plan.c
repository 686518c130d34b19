// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The record ABI's record: its members and what fills them (record_plan.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/record_plan.h"
#include "prologue/plan.h"

void bp_record__free(struct bp_record *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nmembers; i++) {
		free(r->members[i].name);
		free(r->members[i].type_name);
	}
	free(r->members);
	free(r->type_name);
	memset(r, 0, sizeof(*r));
	r->err_member = -1;
}

const struct bp_record_member *bp_record__find(const struct bp_record *r, const char *name)
{
	for (int i = 0; r && name && i < r->nmembers; i++)
		if (!strcmp(r->members[i].name, name))
			return &r->members[i];
	return NULL;
}

void bp_record__member_names(const struct bp_record *r, char *buf, size_t len)
{
	size_t pos = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < r->nmembers && pos < len; i++)
		pos += snprintf(buf + pos, len - pos, "%s%s", i ? ", " : "", r->members[i].name);
}

void bp_record__arg_name(const struct bp_arg_spec *a, char *buf, size_t len)
{
	if (len && !bp_arg_spec__c_name(a, buf, len))
		buf[0] = '\0';
}

int bp_record__want(const struct bp_record *r, struct bp_arg_spec *arg, const char *where,
		    struct bp_diag *d)
{
	const struct bp_record_member *m;
	char name[128], members[512];

	bp_record__arg_name(arg, name, sizeof(name));
	m = bp_record__find(r, name);
	if (!m) {
		bp_record__member_names(r, members, sizeof(members));
		bp_diag__set(d, "%s: argument '%s' fills member '%s' of %s, which has none (members: %s): add it, or name the argument (NAME=%s)",
			     where, arg->text ? arg->text : name, name, r->type_name, members,
			     arg->text ? arg->text : name);
		return -ENOENT;
	}
	if ((arg->string || arg->ustring) && m->kind != BP_FETCH_STRING) {
		bp_diag__set(d, "%s: argument '%s' is a string, but its member '%s' is %s: make it a char array (char %s[N])",
			     where, arg->text ? arg->text : name, name, m->type_name, name);
		return -EINVAL;
	}
	arg->want = m->kind;
	arg->want_len = m->kind == BP_FETCH_VALUE ? 0 : (uint16_t)m->size;
	return 0;
}

/* What the fetch of argument name is, in words, for messages. */
static const char *kind_words(uint8_t kind)
{
	return kind == BP_FETCH_STRING ? "a string" : kind == BP_FETCH_BYTES ? "bytes of an object" :
	       "a value";
}

/* Puts fetch f (of argument name, at point pt) in member m. */
static int place_fetch(const struct bp_record_member *m, const char *name, bool user,
		       struct bp_fetch *f, char *why, size_t len)
{
	switch (m->kind) {
	case BP_FETCH_VALUE:
		if ((f->kind == BP_FETCH_USTACK || f->kind == BP_FETCH_KSTACK) && m->size != 8) {
			snprintf(why, len, "argument '%s' is a stack's id, 8 bytes, but member '%s' is %s: make it bpfprobe_stack_t (bpfprobe/bpf.h)",
				 name, m->name, m->type_name);
			return -EINVAL;
		}
		if (f->kind == BP_FETCH_STRING || f->kind == BP_FETCH_BYTES) {
			snprintf(why, len, "argument '%s' is %s, but member '%s' is %s (%s): make it a char array or the object's type",
				 name, kind_words(f->kind), m->name, m->type_name, kind_words(m->kind));
			return -EINVAL;
		}
		f->store_size = (uint8_t)m->size;
		break;
	case BP_FETCH_STRING:
		if (f->kind == BP_FETCH_VALUE) {
			/* a value that is an address ($retval, %di, $arg1): the
			 * string is read there */
			if (f->size != 8 || f->bit_size) {
				snprintf(why, len, "argument '%s' is a %u-byte value, not an address: member '%s' (%s) wants a string it points to",
					 name, f->bit_size ? 0 : f->size, m->name, m->type_name);
				return -EINVAL;
			}
			if (f->nderef >= BP_MAX_DEREFS) {
				snprintf(why, len, "argument '%s' reads memory %d times before its string: at most %d reads",
					 name, f->nderef, BP_MAX_DEREFS - 1);
				return -E2BIG;
			}
			f->deref_off[f->nderef] = 0;
			if (user)
				f->user_mask |= 1U << f->nderef;
			f->nderef++;
			f->kind = BP_FETCH_STRING;
			f->size = 8;
			f->is_signed = false;
		}
		if (f->kind != BP_FETCH_STRING) {
			snprintf(why, len, "argument '%s' is %s, but member '%s' (%s) wants a string",
				 name, kind_words(f->kind), m->name, m->type_name);
			return -EINVAL;
		}
		f->len = (uint16_t)m->size;
		break;
	case BP_FETCH_BYTES:
		if (f->kind != BP_FETCH_BYTES) {
			snprintf(why, len, "argument '%s' is %s, but member '%s' (%s) wants the bytes of an object: name one (a variable, *ptr, ptr->member)",
				 name, kind_words(f->kind), m->name, m->type_name);
			return -EINVAL;
		}
		f->len = (uint16_t)m->size;
		break;
	}
	f->rec_off = m->off;
	return 0;
}

/* "a, b, c": the point's argument names. */
static void arg_names(const struct bp_point *pt, char *buf, size_t len)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (int i = 0; i < pt->plan.nargs && pos < len; i++)
		pos += snprintf(buf + pos, len - pos, "%s%s", i ? ", " : "",
				pt->arg_name[i] ? pt->arg_name[i] : "?");
}

/* Whether pt's arguments are spec's own, one for one (no $params). */
static bool own_args(const struct bp_spec *spec, const struct bp_point *pt)
{
	if (spec->nargs != pt->plan.nargs)
		return false;
	for (int k = 0; k < spec->nargs; k++)
		if (!strcmp(spec->args[k].var, "$params"))
			return false;
	return true;
}

/* The member name argument i of pt fills ("len" for "req->len"). */
static void member_of(const struct bp_spec *spec, const struct bp_point *pt, int i,
		      char *buf, size_t len)
{
	if (own_args(spec, pt))
		bp_record__arg_name(&spec->args[i], buf, len);
	else
		snprintf(buf, len, "%s", pt->arg_name[i] ? pt->arg_name[i] : "");
}

/* Argument i of pt as written, for messages. */
static const char *arg_text(const struct bp_spec *spec, const struct bp_point *pt, int i)
{
	if (own_args(spec, pt) && spec->args[i].text)
		return spec->args[i].text;
	return pt->arg_name[i] ? pt->arg_name[i] : "?";
}

static int place_point(const struct bp_record *r, const struct bp_spec *spec,
		       struct bp_point *pt, char *why, size_t len)
{
	char names[BP_MAX_ARGS][128], list[512];
	bool err_is_arg = false;
	int i, k;

	for (i = 0; i < pt->plan.nargs; i++) {
		member_of(spec, pt, i, names[i], sizeof(names[i]));
		err_is_arg |= !strcmp(names[i], "err");
		for (k = 0; k < i; k++) {
			if (!strcmp(names[k], names[i])) {
				snprintf(why, len, "arguments '%.200s' and '%.200s' both fill member '%.127s': name one of them (NAME=EXPR)",
					 arg_text(spec, pt, k), arg_text(spec, pt, i), names[i]);
				return -EINVAL;
			}
		}
	}
	for (i = 0; i < pt->plan.nargs; i++) {
		const struct bp_record_member *m = bp_record__find(r, names[i]);
		int err;

		if (!m) {
			bp_record__member_names(r, list, sizeof(list));
			snprintf(why, len, "argument '%s' fills member '%s' of %s, which has none (members: %s)",
				 arg_text(spec, pt, i), names[i], r->type_name, list);
			return -ENOENT;
		}
		err = place_fetch(m, arg_text(spec, pt, i), !pt->kernel, &pt->plan.args[i], why, len);
		if (err)
			return err;
	}
	for (k = 0; k < r->nmembers; k++) {
		const struct bp_record_member *m = &r->members[k];
		bool named = false;

		if (k == r->err_member && !err_is_arg)
			continue;
		for (i = 0; i < pt->plan.nargs && !named; i++)
			named = !strcmp(names[i], m->name);
		if (named)
			continue;
		arg_names(pt, list, sizeof(list));
		if (!strcmp(m->name, "err"))
			snprintf(why, len, "member 'err' of %s is %s: the fetch-error bits need a __u64 (or an argument named err)",
				 r->type_name, m->type_name);
		else
			snprintf(why, len, "member '%s' of %s is filled by no argument (arguments: %s): add an argument of that name, or remove the member",
				 m->name, r->type_name, list[0] ? list : "none");
		return -EINVAL;
	}
	pt->plan.record = true;
	pt->plan.rec_size = r->size;
	pt->plan.err_off = r->err_member >= 0 && !err_is_arg ?
			   (int32_t)r->members[r->err_member].off : -1;
	return 0;
}

int bp_record__place(const struct bp_record *r, const char *where, const struct bp_spec *spec,
		     struct bp_point *pts, int n, struct bp_report *rep)
{
	char why[1024];
	int err;

	for (int i = 0; i < n; i++) {
		err = place_point(r, spec, &pts[i], why, sizeof(why));
		if (err) {
			if (n > 1)
				bp_report__line(rep, "%s: at %s: %s\n", where,
						pts[i].func ? pts[i].func : "?", why);
			else
				bp_report__line(rep, "%s: %s\n", where, why);
			return err;
		}
	}
	return 0;
}
