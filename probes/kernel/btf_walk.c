// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A member chain walked through kernel BTF types (kernel.h: the
 * compile_value functions): the value is built as the DWARF walker
 * builds it (struct bp_val, probes/dwarf/member.c), through the same walk
 * and final read (probes/value/chain.c), so both compile alike.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "probes/value/chain.h"
#include "probes/value/value.h"
#include "probes/kernel/kernel.h"
#include "probes/record_plan.h"
#include "prologue/arch.h"

#define MAX_ANON_DEPTH	8

/* --- the walk -------------------------------------------------------------- */

struct bwalk {
	struct bp_chain ch;	/* the value, the path, the last bitfield */
	const struct btf *btf;
	__u32 type;		/* current type as declared; 0 is void */
	char from[160];		/* a forward declaration completed, for resolve */
};

static struct bwalk *bwalk_of(struct bp_chain *ch)
{
	return (struct bwalk *)((char *)ch - offsetof(struct bwalk, ch));
}

struct member {
	__u32 type;
	int64_t bit_pos;	/* from the record start */
	int bit_size;		/* 0: not a bitfield */
};

/* A member in the legacy bitfield encoding: an INT narrower than its size. */
static void legacy_bitfield(const struct btf *btf, struct member *m)
{
	const struct btf_type *t = btf__type_by_id(btf, m->type);
	__u32 info;

	if (!t || !btf_is_int(t))
		return;
	info = *(const __u32 *)(t + 1);
	if (BTF_INT_BITS(info) != t->size * 8 || BTF_INT_OFFSET(info)) {
		m->bit_size = BTF_INT_BITS(info);
		m->bit_pos += BTF_INT_OFFSET(info);
	}
}

static int find_member(const struct btf *btf, __u32 rec, const char *name,
		       int64_t base, struct member *out, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, rec);
	const struct btf_member *m;
	int i;

	if (!t || depth > MAX_ANON_DEPTH)
		return -ENOENT;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);
		int64_t pos = base + btf_member_bit_offset(t, i);
		__u32 mt;

		if (n && *n) {
			if (strcmp(n, name))
				continue;
			out->type = m->type;
			out->bit_pos = pos;
			out->bit_size = btf_member_bitfield_size(t, i);
			if (!btf_kflag(t))
				legacy_bitfield(btf, out);
			return 0;
		}
		/* anonymous struct/union: its members are ours */
		mt = bp_kbtf__peel(btf, m->type);
		if (bp_kbtf__is_record(bp_kbtf__kind(btf, mt)) &&
		    !find_member(btf, mt, name, pos, out, depth + 1))
			return 0;
	}
	return -ENOENT;
}

/* Member names, flattening anonymous members. */
static void list_members(const struct btf *btf, __u32 rec, struct bp_names *l, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, rec);
	const struct btf_member *m;
	int i;

	if (!t || depth > MAX_ANON_DEPTH)
		return;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t) && bp_names__room(l); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);

		if (!n || !*n) {
			__u32 mt = bp_kbtf__peel(btf, m->type);

			if (bp_kbtf__is_record(bp_kbtf__kind(btf, mt)))
				list_members(btf, mt, l, depth + 1);
			continue;
		}
		bp_names__add(l, n);
	}
}

static int no_member(struct bwalk *w, __u32 rec, const char *field)
{
	struct bp_names l = {};
	char tname[128];

	bp_kbtf__type_name(w->btf, rec, tname, sizeof(tname));
	list_members(w->btf, rec, &l, 0);
	return bp_chain__no_member(&w->ch, tname, field, &l);
}

/* Moves w to member field of record rec (the lvalue is already set up). */
static int enter_member(struct bwalk *w, __u32 rec, const char *field)
{
	struct member m = {};

	if (find_member(w->btf, rec, field, 0, &m, 0))
		return no_member(w, rec, field);
	w->type = m.type;
	if (m.bit_size)
		return bp_chain__bitfield(&w->ch, btf__resolve_size(w->btf, m.type),
					  m.bit_pos, m.bit_size);
	w->ch.val->off += m.bit_pos / 8;
	return 0;
}

/* The pointer the current value holds becomes the current rvalue. */
static int load_pointer(struct bp_chain *ch)
{
	return ch->val->lvalue ? bp_val__deref(ch->c, ch->val) : 0;
}

/* A forward declaration completed from its definition (btf_complete.c). */
static int complete(struct bwalk *w, __u32 *rec)
{
	return bp_kbtf__complete(w->btf, *rec, w->ch.c, rec, w->from, sizeof(w->from));
}

static int step_arrow(struct bp_chain *ch, const char *field)
{
	struct bwalk *w = bwalk_of(ch);
	const struct btf_type *t;
	__u32 p = bp_kbtf__peel(w->btf, w->type), rec;
	int err;

	if (bp_kbtf__kind(w->btf, p) != BTF_KIND_PTR)
		return bp_chain__bad_step(ch, "'->' on non-pointer", "");
	t = btf__type_by_id(w->btf, p);
	rec = bp_kbtf__peel(w->btf, t->type);
	if (bp_kbtf__kind(w->btf, rec) == BTF_KIND_FWD && (err = complete(w, &rec)))
		return err;
	if (!bp_kbtf__is_record(bp_kbtf__kind(w->btf, rec)))
		return bp_chain__bad_step(ch, "'->' on",
					  ", which does not point to a struct or union");
	err = bp_chain__follow(ch);
	if (err)
		return err;
	return enter_member(w, rec, field);
}

static int step_dot(struct bp_chain *ch, const char *field)
{
	struct bwalk *w = bwalk_of(ch);
	__u32 rec = bp_kbtf__peel(w->btf, w->type);
	int kind = bp_kbtf__kind(w->btf, rec), err;

	if (kind == BTF_KIND_PTR)
		return bp_chain__bad_step(ch, "'.' on pointer", ": use '->'");
	if (kind == BTF_KIND_FWD && (err = complete(w, &rec)))
		return err;
	kind = bp_kbtf__kind(w->btf, rec);
	if (!bp_kbtf__is_record(kind))
		return bp_chain__bad_step(ch, "'.' on non-struct", "");
	if (!ch->val->lvalue) {
		bp_arg_fail(ch->c, "'%s' is a struct held in registers: reading its members is not supported yet",
			    ch->path);
		return -EOPNOTSUPP;
	}
	return enter_member(w, rec, field);
}

static int index_array(struct bwalk *w, const struct btf_type *t, long index)
{
	const struct btf_array *a = btf_array(t);
	__s64 size = btf__resolve_size(w->btf, a->type);

	if (!w->ch.val->lvalue) {
		bp_arg_fail(w->ch.c, "'%s' is an array held in registers: not supported",
			    w->ch.path);
		return -EOPNOTSUPP;
	}
	if (size <= 0) {
		bp_arg_fail(w->ch.c, "cannot index '%s': unknown element size", w->ch.path);
		return -EINVAL;
	}
	/* a known bound is checked; [] and [0] trailing arrays are not */
	if (a->nelems && (index < 0 || index >= (long)a->nelems)) {
		bp_arg_fail(w->ch.c, "index %ld is out of bounds of '%s' (%u elements)",
			    index, w->ch.path, a->nelems);
		return -ERANGE;
	}
	if (bp_chain__add_index(&w->ch, index, size))
		return -ERANGE;
	w->type = a->type;
	return 0;
}

static int index_pointer(struct bwalk *w, const struct btf_type *t, long index)
{
	__s64 size = t->type ? btf__resolve_size(w->btf, t->type) : -1;
	int err;

	err = bp_chain__index_pointer(&w->ch, index, size);
	if (err)
		return err;
	w->type = t->type;
	return 0;
}

static int step_index(struct bp_chain *ch, long index)
{
	struct bwalk *w = bwalk_of(ch);
	__u32 id = bp_kbtf__peel(w->btf, w->type);
	const struct btf_type *t = id ? btf__type_by_id(w->btf, id) : NULL;

	if (t && btf_is_array(t))
		return index_array(w, t, index);
	if (t && btf_is_ptr(t))
		return index_pointer(w, t, index);
	return bp_chain__bad_step(ch, "'[]' on", ", which is neither an array nor a pointer");
}

/* Size and signedness of the final value from its BTF type. */
static int scalar(struct bp_chain *ch, long *bytes, bool *is_signed)
{
	struct bwalk *w = bwalk_of(ch);
	__u32 id = bp_kbtf__peel(w->btf, w->type);
	const struct btf_type *t = id ? btf__type_by_id(w->btf, id) : NULL;

	if (!t)
		return bp_chain__cannot_fetch(ch, "void");
	*bytes = t->size;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		*is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		/* the kernel marks enums with negative values signed (kflag) */
		*is_signed = btf_kflag(t);
		break;
	case BTF_KIND_PTR:
		*is_signed = false;
		*bytes = 8;
		break;
	case BTF_KIND_FLOAT:
		/* in memory its raw bits are readable, not in a register */
		if (!ch->val->lvalue)
			return bp_chain__cannot_fetch(ch, "a floating-point value in a register, which is not readable from a probe");
		*is_signed = false;
		break;
	case BTF_KIND_STRUCT:
		return bp_chain__cannot_fetch(ch, "a struct; name a member");
	case BTF_KIND_UNION:
		return bp_chain__cannot_fetch(ch, "a union; name a member");
	case BTF_KIND_ARRAY:
		return bp_chain__cannot_fetch(ch, "an array; index it ([N])");
	case BTF_KIND_FWD:
		return bp_chain__cannot_fetch(ch, "an incomplete type");
	default:
		return bp_chain__cannot_fetch(ch, "not a scalar");
	}
	return 0;
}

static void current_type_name(struct bp_chain *ch, char *buf, size_t len)
{
	struct bwalk *w = bwalk_of(ch);

	bp_kbtf__type_name(w->btf, w->type, buf, len);
}

static bool is_byte(const struct btf *btf, __u32 id)
{
	const struct btf_type *t;

	id = bp_kbtf__peel(btf, id);
	t = id ? btf__type_by_id(btf, id) : NULL;
	return t && btf_is_int(t) && t->size == 1;
}

/* The record ABI: a char pointer or array (a string), another pointer,
 * or any other object, and its size. */
static int object(struct bp_chain *ch, int *cls, long *size)
{
	struct bwalk *w = bwalk_of(ch);
	__u32 id = bp_kbtf__peel(w->btf, w->type);
	const struct btf_type *t = id ? btf__type_by_id(w->btf, id) : NULL;

	if (!t)
		return bp_chain__cannot_fetch(ch, "void");
	*size = btf__resolve_size(w->btf, id);
	*cls = BP_OBJ_OTHER;
	if (btf_is_ptr(t)) {
		*cls = is_byte(w->btf, t->type) ? BP_OBJ_CHAR_POINTER : BP_OBJ_POINTER;
		*size = 8;
	} else if (btf_is_array(t) && is_byte(w->btf, btf_array(t)->type)) {
		*cls = BP_OBJ_CHAR_ARRAY;
	}
	return 0;
}

/* :string: a pointer to char, or a char array */
static int string_of(struct bp_chain *ch, bool *is_array)
{
	struct bwalk *w = bwalk_of(ch);
	__u32 id = bp_kbtf__peel(w->btf, w->type), elem = 0;
	const struct btf_type *t = id ? btf__type_by_id(w->btf, id) : NULL, *e;

	if (t && btf_is_ptr(t)) {
		elem = t->type;
		*is_array = false;
	} else if (t && btf_is_array(t)) {
		elem = btf_array(t)->type;
		*is_array = true;
	}
	elem = bp_kbtf__peel(w->btf, elem);
	e = elem ? btf__type_by_id(w->btf, elem) : NULL;
	if (!e || !btf_is_int(e) || e->size != 1)
		return bp_chain__cannot_fetch(ch, "not a string (:string takes a pointer to char or a char array)");
	return 0;
}

static const struct bp_chain_ops btf_ops = {
	.object = object,
	.arrow = step_arrow,
	.dot = step_dot,
	.index = step_index,
	.load_pointer = load_pointer,
	.scalar = scalar,
	.type_name = current_type_name,
	.string = string_of,
};


int bp_kbtf__compile_value(const struct btf *btf, __u32 type, const struct bp_fetch *base,
			   const struct bp_arg_spec *arg, const char *where,
			   struct bp_fetch *out, char **type_name, struct bp_diag *d)
{
	struct bp_arg_ctx c = {
		.where = where,
		.arg = arg->text ? arg->text : arg->name ? arg->name : arg->var,
		.diag = d,
		.user = arg->user,
		.kernel = true,
	};
	struct bp_val val = { .f = *base };
	struct bwalk w = { .ch = { .ops = &btf_ops, .c = &c, .val = &val }, .btf = btf,
			   .type = type };

	return bp_chain__compile(&w.ch, arg, out, type_name);
}

int bp_kbtf__compile_chain(const struct btf *btf, __u32 type, const struct bp_arg_ctx *c,
			   const struct bp_arg_spec *arg, struct bp_val *val,
			   struct bp_fetch *out, char **type_name, char *from, size_t fromlen)
{
	struct bwalk w = { .ch = { .ops = &btf_ops, .c = c, .val = val }, .btf = btf,
			   .type = type };
	int err = bp_chain__compile(&w.ch, arg, out, type_name);

	if (from && fromlen)
		snprintf(from, fromlen, "%s", w.from);
	return err;
}

int bp_kbtf__compile_val(const struct btf *btf, __u32 type, const struct bp_arg_ctx *c,
			 const struct bp_arg_spec *arg, struct bp_val *val,
			 struct bp_fetch *out, char **type_name)
{
	return bp_kbtf__compile_chain(btf, type, c, arg, val, out, type_name, NULL, 0);
}

/* One argument per named parameter, for $params. */
