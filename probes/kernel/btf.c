// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Kernel function arguments from BTF. BTF has no locations, so parameters
 * are found where the calling convention puts them at the function's entry
 * (prologue/arch.h: on x86-64 rdi, rsi, rdx, rcx, r8, r9); member chains, array indexes and the
 * final type come from BTF types. The value is built as the DWARF walker
 * builds it (struct bp_val, probes/dwarf/member.c), through the same walk and
 * final read (probes/value/chain.c), so both compile alike.
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

#define MAX_TYPE_DEPTH	32
#define MAX_ANON_DEPTH	8

/* --- types ---------------------------------------------------------------- */

static bool is_modifier(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return true;
	default:
		return false;
	}
}

/* Strips typedefs, qualifiers and type tags: 0 is void. */
static __u32 peel(const struct btf *btf, __u32 id)
{
	int depth;

	for (depth = 0; id && depth < MAX_TYPE_DEPTH; depth++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!t || !is_modifier(t))
			break;
		id = t->type;
	}
	return id;
}

/* The kind of a peeled type id; 0 (BTF_KIND_UNKN) for void. */
static int kind_of(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;

	return t ? btf_kind(t) : BTF_KIND_UNKN;
}

static bool is_record_kind(int kind)
{
	return kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION;
}

static const char *type_str(const struct btf *btf, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(btf, t->name_off);

	return n && *n ? n : NULL;
}

static bool ends_with_star(const char *s)
{
	size_t n = strlen(s);

	return n && s[n - 1] == '*';
}

/* C-like names, as probes/dwarf/types.c writes them: "struct file *", "int[4]". */
static void type_name(const struct btf *btf, __u32 id, char *buf, size_t len, int depth)
{
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;
	char inner[256];
	const char *n, *kw = NULL;

	if (!t) {
		snprintf(buf, len, "void");
		return;
	}
	if (depth > MAX_TYPE_DEPTH) {
		snprintf(buf, len, "...");
		return;
	}
	n = type_str(btf, t);
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
		kw = "struct";
		break;
	case BTF_KIND_UNION:
		kw = "union";
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		kw = "enum";
		break;
	case BTF_KIND_FWD:
		kw = btf_kflag(t) ? "union" : "struct";
		break;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT: {
		const char *q = btf_is_const(t) ? "const" :
				btf_is_volatile(t) ? "volatile" : "restrict";

		type_name(btf, t->type, inner, sizeof(inner), depth + 1);
		if (ends_with_star(inner) || btf_is_restrict(t))
			snprintf(buf, len, "%s %s", inner, q);
		else
			snprintf(buf, len, "%s %s", q, inner);
		return;
	}
	case BTF_KIND_TYPE_TAG:
		type_name(btf, t->type, buf, len, depth + 1);
		return;
	case BTF_KIND_PTR: {
		const struct btf_type *target = btf__type_by_id(btf, t->type);

		if (target && btf_is_func_proto(target)) {
			type_name(btf, target->type, inner, sizeof(inner), depth + 1);
			snprintf(buf, len, "%s (*)(...)", inner);
			return;
		}
		type_name(btf, t->type, inner, sizeof(inner), depth + 1);
		snprintf(buf, len, "%s%s*", inner, ends_with_star(inner) ? "" : " ");
		return;
	}
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);

		type_name(btf, a->type, inner, sizeof(inner), depth + 1);
		snprintf(buf, len, "%s[%u]", inner, a->nelems);
		return;
	}
	case BTF_KIND_FUNC_PROTO:
		type_name(btf, t->type, inner, sizeof(inner), depth + 1);
		snprintf(buf, len, "%s (...)", inner);
		return;
	default:
		break;
	}
	if (kw)
		snprintf(buf, len, "%s %s", kw, n ? n : "<anonymous>");
	else
		snprintf(buf, len, "%s", n ? n : "?");
}

void bp_kbtf__type_name(const struct btf *btf, __u32 id, char *buf, size_t len)
{
	if (len)
		type_name(btf, id, buf, len, 0);
}

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
		mt = peel(btf, m->type);
		if (is_record_kind(kind_of(btf, mt)) &&
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
			__u32 mt = peel(btf, m->type);

			if (is_record_kind(kind_of(btf, mt)))
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
	__u32 p = peel(w->btf, w->type), rec;
	int err;

	if (kind_of(w->btf, p) != BTF_KIND_PTR)
		return bp_chain__bad_step(ch, "'->' on non-pointer", "");
	t = btf__type_by_id(w->btf, p);
	rec = peel(w->btf, t->type);
	if (kind_of(w->btf, rec) == BTF_KIND_FWD && (err = complete(w, &rec)))
		return err;
	if (!is_record_kind(kind_of(w->btf, rec)))
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
	__u32 rec = peel(w->btf, w->type);
	int kind = kind_of(w->btf, rec), err;

	if (kind == BTF_KIND_PTR)
		return bp_chain__bad_step(ch, "'.' on pointer", ": use '->'");
	if (kind == BTF_KIND_FWD && (err = complete(w, &rec)))
		return err;
	kind = kind_of(w->btf, rec);
	if (!is_record_kind(kind))
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
	__u32 id = peel(w->btf, w->type);
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
	__u32 id = peel(w->btf, w->type);
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

	id = peel(btf, id);
	t = id ? btf__type_by_id(btf, id) : NULL;
	return t && btf_is_int(t) && t->size == 1;
}

/* The record ABI: a char pointer or array (a string), another pointer,
 * or any other object, and its size. */
static int object(struct bp_chain *ch, int *cls, long *size)
{
	struct bwalk *w = bwalk_of(ch);
	__u32 id = peel(w->btf, w->type);
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
	__u32 id = peel(w->btf, w->type), elem = 0;
	const struct btf_type *t = id ? btf__type_by_id(w->btf, id) : NULL, *e;

	if (t && btf_is_ptr(t)) {
		elem = t->type;
		*is_array = false;
	} else if (t && btf_is_array(t)) {
		elem = btf_array(t)->type;
		*is_array = true;
	}
	elem = peel(w->btf, elem);
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

/* --- functions and parameters --------------------------------------------- */

int bp_kbtf__find_funcs(const struct btf *btf, const char *name, __u32 *ids, int max)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 id = base ? btf__type_cnt(base) : 1, cnt = btf__type_cnt(btf);
	int n = 0;

	for (; id < cnt && n < max; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *tn;

		if (!btf_is_func(t))
			continue;
		tn = btf__name_by_offset(btf, t->name_off);
		if (tn && !strcmp(tn, name))
			ids[n++] = id;
	}
	return n;
}

bool bp_kbtf__same_protos(const struct btf *btf, const __u32 *ids, int n)
{
	/* deduplicated BTF gives equal prototypes one id */
	for (int i = 1; i < n; i++)
		if (btf__type_by_id(btf, ids[i])->type != btf__type_by_id(btf, ids[0])->type)
			return false;
	return true;
}

/* How many integer registers a parameter of this type takes: 0 when it
 * travels in memory or in an SSE register. */
static int regs_needed(const struct btf *btf, __u32 type)
{
	__u32 id = peel(btf, type);
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;

	if (!t)
		return 0;
	switch (btf_kind(t)) {
	case BTF_KIND_FLOAT:
		return 0;
	case BTF_KIND_PTR:
		return 1;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		/* 16-byte scalars and small aggregates take two */
		return t->size > 16 ? 0 : (t->size + 7) / 8;
	default:
		return 1;
	}
}

static void param_names(const struct btf *btf, const struct btf_type *proto,
			char *buf, size_t len)
{
	const struct btf_param *p = btf_params(proto);
	size_t pos = 0;

	buf[0] = '\0';
	for (int i = 0; i < btf_vlen(proto) && pos < len; i++, p++) {
		const char *n = btf__name_by_offset(btf, p->name_off);

		if (!p->type)
			n = "...";
		pos += snprintf(buf + pos, len - pos, "%s%s", pos ? ", " : "",
				n && *n ? n : "<unnamed>");
	}
}

/* "rdi rsi rdx rcx r8 r9" */
static void arg_reg_names(char *buf, size_t len)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (int i = 0; i < bp_arch__nr_arg_regs() && pos < len; i++)
		pos += snprintf(buf + pos, len - pos, "%s%s", i ? " " : "",
				bp_arch__reg_name(bp_arch__arg_reg(i)));
}

/*
 * The parameter called name: its type and the register it arrives in,
 * counting the integer registers the parameters before it take.
 */
static int param_value(const struct btf *btf, const struct btf_type *proto,
		       const struct bp_arg_ctx *c, const char *name, __u32 *type,
		       struct bp_val *val, char *desc, size_t desclen)
{
	const struct btf_param *p = btf_params(proto);
	int i, slot = 0, need;
	char params[256];

	for (i = 0; i < btf_vlen(proto); i++, p++) {
		const char *n = btf__name_by_offset(btf, p->name_off);

		need = regs_needed(btf, p->type);
		/* an aggregate that no longer fits goes to memory whole */
		if (slot + need > bp_arch__nr_arg_regs() && need > 1)
			need = 0;
		if (p->type && n && !strcmp(n, name))
			break;
		slot += need;
	}
	if (i == btf_vlen(proto)) {
		param_names(btf, proto, params, sizeof(params));
		bp_arg_fail(c, "no parameter '%s' (parameters: %s)", name,
			    params[0] ? params : "none");
		return -ENOENT;
	}
	if (need == 0 || need > 1) {
		char tname[128];
		int kind = kind_of(btf, peel(btf, p->type));

		bp_kbtf__type_name(btf, p->type, tname, sizeof(tname));
		if (kind == BTF_KIND_FLOAT)
			bp_arg_fail(c, "parameter %d '%s' (type %s) arrives in an SSE register, which is not readable from a probe",
				    i + 1, name, tname);
		else if (is_record_kind(kind))
			bp_arg_fail(c, "parameter %d '%s' (type %s) is a struct passed by value: not supported",
				    i + 1, name, tname);
		else
			bp_arg_fail(c, "parameter %d '%s' (type %s) takes %d registers: not supported",
				    i + 1, name, tname, need);
		return -EOPNOTSUPP;
	}
	if (slot >= bp_arch__nr_arg_regs()) {
		arg_reg_names(params, sizeof(params));
		bp_arg_fail(c, "parameter %d '%s' is passed on the stack (only the first %d integer arguments arrive in registers, %s), and BTF says nothing about stack locations: install the kernel's debug info (vmlinux with DWARF) for it",
			    i + 1, name, bp_arch__nr_arg_regs(), params);
		return -EOPNOTSUPP;
	}
	memset(val, 0, sizeof(*val));
	val->f.base = BP_BASE_REG;
	val->f.reg = bp_arch__arg_reg(slot);
	*type = p->type;
	snprintf(desc, desclen, "reg %s (parameter %d)", bp_arch__reg_name(val->f.reg), i + 1);
	return 0;
}

/* What proto returns, for $retval. */
static enum bp_ret_kind ret_kind(const struct btf *btf, const struct btf_type *proto)
{
	int kind = kind_of(btf, peel(btf, proto->type));

	if (!proto->type)
		return BP_RET_VOID;
	if (kind == BTF_KIND_FLOAT)
		return BP_RET_FLOAT;
	return is_record_kind(kind) ? BP_RET_RECORD : BP_RET_VALUE;
}

static int resolve_arg(const struct btf *btf, const struct btf_type *proto,
		       const struct bp_spec *spec, const char *where,
		       const struct bp_arg_spec *arg, int i, struct bp_point *pt,
		       struct bp_diag *d)
{
	struct bp_arg_ctx c = {
		.where = where,
		.arg = arg->text ? arg->text : arg->name ? arg->name : arg->var,
		.diag = d,
	};
	struct bp_val val;
	struct bwalk w = { .ch = { .ops = &btf_ops, .c = &c, .val = &val }, .btf = btf };
	char desc[320];
	size_t l;
	int err;

	pt->arg_name[i] = strdup(arg->name ? arg->name : c.arg);
	if (!pt->arg_name[i])
		return -ENOMEM;
	if (arg->farg != BP_FARG_NONE) {
		err = bp_kbtf__fetcharg(btf, proto, spec, &c, arg, &pt->plan.args[i],
					&pt->type_name[i], desc, sizeof(desc));
		if (err)
			return err;
		pt->loc_desc[i] = strdup(desc);
		return pt->loc_desc[i] ? 0 : -ENOMEM;
	}
	if (!proto) {
		bp_arg_fail(&c, "the function's parameters are unknown (no BTF for it)");
		return -ENOENT;
	}
	if (!strcmp(arg->var, "$retval")) {
		w.type = proto->type;
		err = bp_retval__value(&c, spec, ret_kind(btf, proto), &val, desc, sizeof(desc));
	} else if (spec->is_return) {
		/* its registers are reused by then */
		bp_arg_fail(&c, "a return probe can only fetch $retval");
		err = -EINVAL;
	} else if (spec->has_offset && spec->offset) {
		bp_arg_fail(&c, "BTF says where parameters are only at the function's entry, not at +%" PRIu64 ": probe %s itself, or install the kernel's debug info (vmlinux with DWARF)",
			    spec->offset, spec->func);
		err = -EOPNOTSUPP;
	} else {
		err = param_value(btf, proto, &c, arg->var, &w.type, &val, desc, sizeof(desc));
	}
	if (err)
		return err;
	/* from here on, the member chain: user memory with @user */
	c.user = arg->user;
	err = bp_chain__compile(&w.ch, arg, &pt->plan.args[i], &pt->type_name[i]);
	if (err)
		return err;
	l = strlen(desc);
	if (w.from[0])
		snprintf(desc + l, sizeof(desc) - l, "; %s", w.from);
	pt->loc_desc[i] = strdup(desc);
	return pt->loc_desc[i] ? 0 : -ENOMEM;
}

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

int bp_kbtf__compile_val(const struct btf *btf, __u32 type, const struct bp_arg_ctx *c,
			 const struct bp_arg_spec *arg, struct bp_val *val,
			 struct bp_fetch *out, char **type_name)
{
	struct bwalk w = { .ch = { .ops = &btf_ops, .c = c, .val = val }, .btf = btf,
			   .type = type };

	return bp_chain__compile(&w.ch, arg, out, type_name);
}

/* One argument per named parameter, for $params. */
static int expand_params(const struct btf *btf, const struct btf_type *proto,
			 const struct bp_spec *spec, const char *where, int others,
			 struct bp_arg_spec *out, int max, struct bp_diag *d)
{
	const struct btf_param *p = btf_params(proto);
	char names[256];
	int n = 0;

	for (int i = 0; i < btf_vlen(proto); i++, p++) {
		const char *name = btf__name_by_offset(btf, p->name_off);

		if (!p->type || !name || !*name)
			continue;	/* "...", or nothing to name it by */
		if (n < max) {
			memset(&out[n], 0, sizeof(out[n]));
			/* BTF's strings outlive the resolution; never freed */
			out[n].text = out[n].name = out[n].var = (char *)name;
		}
		n++;
	}
	if (n + others > bp_spec__max_args(spec)) {
		param_names(btf, proto, names, sizeof(names));
		bp_diag__set(d, "%s: $params expands to %d parameter%s (%s), %d argument%s in all; at most %d fit in %s: name the ones you need",
			     where, n, n == 1 ? "" : "s", names, n + others,
			     n + others == 1 ? "" : "s", bp_spec__max_args(spec),
			     spec->record ? "a record" : "R3..R5");
		return -E2BIG;
	}
	/* the record ABI: what each parameter's member wants */
	for (int i = 0; spec->record && i < n && i < max; i++) {
		int err = bp_record__want(spec->record, &out[i], where, d);

		if (err)
			return err;
	}
	return n;
}

int bp_kbtf__resolve_args(const struct btf *btf, __u32 func_id,
			  const struct bp_spec *spec, const char *where,
			  struct bp_point *pt, struct bp_diag *d)
{
	const struct btf_type *func = btf && func_id ? btf__type_by_id(btf, func_id) : NULL;
	const struct btf_type *proto = func ? btf__type_by_id(btf, func->type) : NULL;
	struct bp_arg_spec params[BP_MAX_ARGS];
	int i, k, n = 0, err;

	/* no BTF for the function: perf's fetch arguments only, untyped */
	if (btf && func_id && (!proto || !btf_is_func_proto(proto))) {
		bp_diag__set(d, "%s: BTF entry %u is not a function with a prototype", where, func_id);
		return -EINVAL;
	}
	for (i = 0; i < spec->nargs; i++) {
		const struct bp_arg_spec *arg = &spec->args[i];
		int np;

		if (strcmp(arg->var, "$params")) {
			if (n == BP_MAX_ARGS)
				return -E2BIG;
			err = resolve_arg(btf, proto, spec, where, arg, n++, pt, d);
			if (err)
				return err;
			continue;
		}
		if (!proto) {
			bp_diag__set(d, "%s: $params needs the function's prototype, and there is no BTF for it",
				     where);
			return -ENOENT;
		}
		np = expand_params(btf, proto, spec, where, spec->nargs - 1, params, BP_MAX_ARGS, d);
		if (np < 0)
			return np;
		for (k = 0; k < np; k++) {
			err = resolve_arg(btf, proto, spec, where, &params[k], n++, pt, d);
			if (err)
				return err;
		}
	}
	pt->plan.nargs = n;
	return 0;
}
