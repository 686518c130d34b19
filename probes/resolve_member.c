// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Member chains (->f .f [N]) over DWARF types, compiled into the fetch.
 *
 * The value being built is either an rvalue (e.g. a pointer in a register)
 * or an lvalue (an object in memory at eval + off), or split into pieces
 * (DW_OP_piece: a struct passed in two registers). '->' loads the pointer
 * (one dereference if it sits in memory) and makes the pointee an lvalue;
 * '.' and '[N]' on an array only move the pending offset; the end reads the
 * final object with its own size. A struct held in registers is split the
 * same way, so its members are bits of a register (bit_off/bit_size).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf_resolve.h"
#include "probes/dwarf_types.h"
#include "util/log.h"

#define MAX_ANON_DEPTH	8
#define MAX_DIMS	8
#define MAX_LISTED	8

struct walk {
	const struct bp_arg_ctx *c;
	struct bp_val *val;
	Dwarf_Die tmem;
	Dwarf_Die *type;	/* current type as declared; NULL is void */
	int dims_done;		/* leading dimensions of an array already indexed */
	char path[256];		/* the expression so far, for messages */
	/* the last member was a bitfield: bits [bit_off, bit_off + bit_size)
	 * of the bit_read bytes at val->off */
	int bit_size;
	int bit_off;
	int bit_read;
};

/* Extends the expression text used in messages: "req" -> "req->hdr". */
static void path_append(struct walk *w, const struct bp_arg_step *s)
{
	size_t n = strlen(w->path), room = sizeof(w->path) - n;

	if (s->kind == BP_STEP_INDEX)
		snprintf(w->path + n, room, "[%ld]", s->index);
	else
		snprintf(w->path + n, room, "%s%s", s->kind == BP_STEP_ARROW ? "->" : ".",
			 s->field);
}

static void set_type(struct walk *w, Dwarf_Die *type)
{
	if (type) {
		w->tmem = *type;
		w->type = &w->tmem;
	} else {
		w->type = NULL;
	}
	w->dims_done = 0;
}

/* --- members ------------------------------------------------------------ */

struct member {
	Dwarf_Die die;
	int64_t off;		/* bytes from the record start */
	int bit_size;		/* 0: not a bitfield */
	int64_t bit_pos;	/* bitfields: bits from the record start (LSB first) */
};

/* DW_AT_data_member_location: a constant, or DWARF 2's DW_OP_plus_uconst. */
static int member_location(Dwarf_Die *m, int64_t *off)
{
	Dwarf_Attribute attr;
	Dwarf_Word u;
	Dwarf_Op *ops;
	size_t nops;

	*off = 0;
	if (!dwarf_attr_integrate(m, DW_AT_data_member_location, &attr))
		return 0;	/* union members, and bitfields with data_bit_offset */
	if (!dwarf_formudata(&attr, &u)) {
		*off = (int64_t)u;
		return 0;
	}
	if (!dwarf_getlocation(&attr, &ops, &nops) && nops == 1 &&
	    (ops[0].atom == DW_OP_plus_uconst || ops[0].atom == DW_OP_constu)) {
		*off = (int64_t)ops[0].number;
		return 0;
	}
	return -EOPNOTSUPP;
}

static int member_bits(Dwarf_Die *m, int64_t off, struct member *out)
{
	Dwarf_Attribute attr;
	Dwarf_Word u;
	int bit_size = dwarf_bitsize(m);
	int storage, bit_offset;
	Dwarf_Die tmem;

	out->bit_size = bit_size > 0 ? bit_size : 0;
	if (!out->bit_size)
		return 0;
	/* DWARF 4+: bits from the start of the record */
	if (dwarf_attr_integrate(m, DW_AT_data_bit_offset, &attr)) {
		if (dwarf_formudata(&attr, &u))
			return -EOPNOTSUPP;
		out->bit_pos = off * 8 + (int64_t)u;
		return 0;
	}
	/* DWARF 2/3: bit_offset counts from the most significant bit of a
	 * storage unit of byte_size bytes at data_member_location */
	bit_offset = dwarf_bitoffset(m);
	storage = dwarf_bytesize(m);
	if (storage <= 0)
		storage = (int)bp_type_size(bp_die_type(m, &tmem));
	if (bit_offset < 0 || storage <= 0)
		return -EOPNOTSUPP;
	out->bit_pos = off * 8 + storage * 8 - bit_offset - bit_size;
	return 0;
}

static int find_member(Dwarf_Die *rec, const char *name, int64_t base,
		       struct member *out, int depth)
{
	Dwarf_Die child, tmem, pmem, *t;
	const char *n;
	int64_t off;
	int err;

	if (depth > MAX_ANON_DEPTH || dwarf_child(rec, &child))
		return -ENOENT;
	do {
		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		if (member_location(&child, &off))
			off = INT64_MIN;
		n = bp_die_name(&child);
		if (n && !strcmp(n, name)) {
			if (off == INT64_MIN)
				return -EOPNOTSUPP;
			out->die = child;
			out->off = base + off;
			return member_bits(&child, base + off, out);
		}
		if (n || off == INT64_MIN)
			continue;
		/* anonymous struct/union: its members are ours */
		t = bp_type_peel(bp_die_type(&child, &tmem), &pmem);
		if (!t || !bp_tag_is_record(dwarf_tag(t)))
			continue;
		err = find_member(t, name, base + off, out, depth + 1);
		if (err != -ENOENT)
			return err;
	} while (!dwarf_siblingof(&child, &child));
	return -ENOENT;
}

struct name_list {
	char *buf;
	size_t len, pos;
	int count;
};

/* Member names, flattening anonymous members, up to MAX_LISTED. */
static void list_members(Dwarf_Die *rec, struct name_list *l, int depth)
{
	Dwarf_Die child, tmem, pmem, *t;
	const char *n;

	if (depth > MAX_ANON_DEPTH || dwarf_child(rec, &child))
		return;
	do {
		if (dwarf_tag(&child) != DW_TAG_member || l->pos >= l->len)
			continue;
		n = bp_die_name(&child);
		if (!n) {
			t = bp_type_peel(bp_die_type(&child, &tmem), &pmem);
			if (t && bp_tag_is_record(dwarf_tag(t)))
				list_members(t, l, depth + 1);
			continue;
		}
		if (l->count++ == MAX_LISTED) {
			l->pos += snprintf(l->buf + l->pos, l->len - l->pos, ", ...");
			l->pos = l->len;	/* stop */
			continue;
		}
		l->pos += snprintf(l->buf + l->pos, l->len - l->pos, "%s%s",
				   l->count > 1 ? ", " : "", n);
	} while (!dwarf_siblingof(&child, &child));
}

static int no_member(struct walk *w, Dwarf_Die *rec, const char *field)
{
	char tname[128], members[256] = "";
	struct name_list l = { .buf = members, .len = sizeof(members) };

	bp_type_name(rec, tname, sizeof(tname));
	list_members(rec, &l, 0);
	bp_arg_err(w->c, "%s has no member '%s' (members: %s)", tname, field,
		   members[0] ? members : "none");
	return -ENOENT;
}

/*
 * A bitfield is read like the compiler does, with a load of its declared
 * type's size aligned to that size (so a read never leaves the struct);
 * packed bitfields that straddle such a unit get the smallest load of
 * 1/2/4/8 bytes from the byte holding their first bit.
 */
int bp_bitfield__place(const struct bp_arg_ctx *c, const char *path, long unit,
		       int64_t bit_pos, int bit_size, int64_t *byte_off,
		       int *bit_off, int *bit_read)
{
	int64_t start, need;

	if ((unit == 1 || unit == 2 || unit == 4 || unit == 8) &&
	    bit_pos % (unit * 8) + bit_size <= unit * 8) {
		start = bit_pos - bit_pos % (unit * 8);
		*bit_read = unit;
	} else {
		start = bit_pos - bit_pos % 8;
		need = (bit_pos - start + bit_size + 7) / 8;
		if (need > 8) {
			bp_arg_err(c, "bitfield '%s' spans more than 8 bytes: not supported",
				   path);
			return -EOPNOTSUPP;
		}
		*bit_read = need <= 1 ? 1 : need <= 2 ? 2 : need <= 4 ? 4 : 8;
	}
	*byte_off = start / 8;
	*bit_off = bit_pos - start;
	return 0;
}

static int enter_bitfield(struct walk *w, const struct member *m)
{
	Dwarf_Die pmem;
	long unit = bp_type_size(bp_type_peel(w->type, &pmem));
	int64_t start;
	int err;

	err = bp_bitfield__place(w->c, w->path, unit, m->bit_pos, m->bit_size,
				 &start, &w->bit_off, &w->bit_read);
	if (err)
		return err;
	w->val->off += start;
	w->bit_size = m->bit_size;
	return 0;
}

/* Moves w to member field of record rec (the lvalue is already set up). */
static int enter_member(struct walk *w, Dwarf_Die *rec, const char *field)
{
	struct member m = {};
	Dwarf_Die tmem;
	char tname[128];
	int err;

	if (dwarf_hasattr(rec, DW_AT_declaration)) {
		bp_type_name(rec, tname, sizeof(tname));
		bp_arg_err(w->c, "%s is incomplete here (declared, not defined, in this compilation unit)",
			   tname);
		return -ENOENT;
	}
	err = find_member(rec, field, 0, &m, 0);
	if (err == -ENOENT)
		return no_member(w, rec, field);
	if (err) {
		bp_type_name(rec, tname, sizeof(tname));
		bp_arg_err(w->c, "the offset of member '%s' of %s is not a constant: not supported",
			   field, tname);
		return err;
	}
	set_type(w, bp_die_type(&m.die, &tmem));
	if (m.bit_size)
		return enter_bitfield(w, &m);
	w->val->off += m.off;
	return 0;
}

/* --- steps --------------------------------------------------------------- */

/* "'->' on non-pointer 'req->id' (type long int)" + hint */
static int bad_step(struct walk *w, const char *what, const char *hint)
{
	char tname[128];

	bp_type_name(w->type, tname, sizeof(tname));
	bp_arg_err(w->c, "%s '%s' (type %s)%s", what, w->path, tname, hint);
	return -EINVAL;
}

/* off += index * size, refusing what no 32-bit offset could reach */
static int add_index(struct walk *w, long index, long size)
{
	int64_t delta;

	if (__builtin_mul_overflow((int64_t)index, (int64_t)size, &delta) ||
	    __builtin_add_overflow(w->val->off, delta, &w->val->off)) {
		bp_arg_err(w->c, "index %ld of '%s' is out of range", index, w->path);
		return -ERANGE;
	}
	return 0;
}

/* The pointer the current value holds becomes the current rvalue. */
static int load_pointer(struct walk *w)
{
	int err = bp_val__select(w->c, w->val, 8, w->path);

	if (err)
		return err;
	if (w->val->lvalue)
		return bp_val__deref(w->c, w->val);
	if (w->val->shift || w->val->width) {
		bp_arg_err(w->c, "pointer '%s' is only part of a register: not supported",
			   w->path);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* A struct or array held in a register: its members are bits of it. */
static int split_rvalue(struct walk *w, Dwarf_Die *type)
{
	if (w->val->lvalue || w->val->npieces)
		return 0;
	return bp_val__split(w->c, w->val, bp_type_size(type), w->path);
}

static int step_arrow(struct walk *w, const char *field)
{
	Dwarf_Die pmem, tmem, rmem, *t, *target, *rec;
	int err;

	t = bp_type_peel(w->type, &pmem);
	if (w->dims_done || !t || !bp_tag_is_pointer(dwarf_tag(t)))
		return bad_step(w, "'->' on non-pointer", "");
	target = bp_die_type(t, &tmem);
	rec = bp_type_peel(target, &rmem);
	if (!rec || !bp_tag_is_record(dwarf_tag(rec)))
		return bad_step(w, "'->' on", ", which does not point to a struct or union");
	err = load_pointer(w);
	if (err)
		return err;
	w->val->lvalue = true;
	return enter_member(w, rec, field);
}

static int step_dot(struct walk *w, const char *field)
{
	Dwarf_Die pmem, *t;
	int err;

	t = bp_type_peel(w->type, &pmem);
	if (!w->dims_done && t && bp_tag_is_pointer(dwarf_tag(t)))
		return bad_step(w, "'.' on pointer", ": use '->'");
	if (w->dims_done || !t || !bp_tag_is_record(dwarf_tag(t)))
		return bad_step(w, "'.' on non-struct", "");
	err = split_rvalue(w, t);
	if (err)
		return err;
	return enter_member(w, t, field);
}

/* Element counts of arr's dimensions (-1: unknown). Returns how many. */
static int array_dims(Dwarf_Die *arr, long *dims)
{
	Dwarf_Attribute attr;
	Dwarf_Die child;
	Dwarf_Word u;
	Dwarf_Sword lower = 0;
	int n = 0;

	if (dwarf_child(arr, &child))
		return 0;
	do {
		if (dwarf_tag(&child) != DW_TAG_subrange_type || n == MAX_DIMS)
			continue;
		dims[n] = -1;
		lower = 0;
		if (dwarf_attr_integrate(&child, DW_AT_lower_bound, &attr))
			dwarf_formsdata(&attr, &lower);
		if (dwarf_attr_integrate(&child, DW_AT_count, &attr) &&
		    !dwarf_formudata(&attr, &u))
			dims[n] = (long)u;
		else if (dwarf_attr_integrate(&child, DW_AT_upper_bound, &attr) &&
			 attr.form != DW_FORM_exprloc && !dwarf_formudata(&attr, &u))
			dims[n] = (long)u + 1 - lower;
		n++;
	} while (!dwarf_siblingof(&child, &child));
	return n;
}

static int index_array(struct walk *w, Dwarf_Die *arr, long index)
{
	long dims[MAX_DIMS], elem, stride;
	Dwarf_Die emem, *elem_type;
	int n, i;

	if (!w->dims_done && split_rvalue(w, arr))
		return -EINVAL;
	n = array_dims(arr, dims);
	elem_type = bp_die_type(arr, &emem);
	elem = bp_type_size(elem_type);
	if (n <= w->dims_done || elem <= 0) {
		bp_arg_err(w->c, "cannot index '%s': unknown element size", w->path);
		return -EINVAL;
	}
	stride = elem;
	for (i = w->dims_done + 1; i < n; i++) {
		if (dims[i] < 0) {
			bp_arg_err(w->c, "cannot index '%s': unknown inner dimension", w->path);
			return -EINVAL;
		}
		stride *= dims[i];
	}
	/* a known bound is checked; [] and [0] trailing arrays are not */
	if (dims[w->dims_done] > 0 && (index < 0 || index >= dims[w->dims_done])) {
		bp_arg_err(w->c, "index %ld is out of bounds of '%s' (%ld elements)",
			   index, w->path, dims[w->dims_done]);
		return -ERANGE;
	}
	if (add_index(w, index, stride))
		return -ERANGE;
	if (++w->dims_done == n)
		set_type(w, elem_type);
	return 0;
}

static int index_pointer(struct walk *w, Dwarf_Die *ptr, long index)
{
	Dwarf_Die tmem, *target;
	long size;
	int err;

	target = bp_die_type(ptr, &tmem);
	size = bp_type_size(target);
	if (size <= 0) {
		char tname[128];

		bp_type_name(w->type, tname, sizeof(tname));
		bp_arg_err(w->c, "cannot index '%s' (type %s): unknown element size",
			   w->path, tname);
		return -EINVAL;
	}
	err = load_pointer(w);
	if (err)
		return err;
	w->val->lvalue = true;
	if (add_index(w, index, size))
		return -ERANGE;
	set_type(w, target);
	return 0;
}

static int step_index(struct walk *w, long index)
{
	Dwarf_Die pmem, *t;

	if (w->dims_done)
		return index_array(w, w->type, index);
	t = bp_type_peel(w->type, &pmem);
	if (t && dwarf_tag(t) == DW_TAG_array_type) {
		/* the peeled array, so dims_done refers to it from now on */
		set_type(w, t);
		return index_array(w, w->type, index);
	}
	if (t && dwarf_tag(t) == DW_TAG_pointer_type)
		return index_pointer(w, t, index);
	return bad_step(w, "'[]' on", ", which is neither an array nor a pointer");
}

/* --- the final value ----------------------------------------------------- */

static bool encoding_signed(int enc)
{
	return enc == DW_ATE_signed || enc == DW_ATE_signed_char ||
	       enc == DW_ATE_signed_fixed;
}

static bool encoding_float(int enc)
{
	return enc == DW_ATE_float || enc == DW_ATE_complex_float ||
	       enc == DW_ATE_imaginary_float || enc == DW_ATE_decimal_float;
}

static int base_encoding(Dwarf_Die *base)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc;

	if (!dwarf_attr_integrate(base, DW_AT_encoding, &attr) ||
	    dwarf_formudata(&attr, &enc))
		return -1;
	return (int)enc;
}

/* Signed when its underlying type says so (DW_AT_type on the enum). */
static bool enum_signed(Dwarf_Die *en)
{
	Dwarf_Die tmem, pmem, *u;

	u = bp_type_peel(bp_die_type(en, &tmem), &pmem);
	return u && dwarf_tag(u) == DW_TAG_base_type &&
	       encoding_signed(base_encoding(u));
}

static int cannot_fetch(struct walk *w, const char *why)
{
	char tname[128];

	bp_type_name(w->type, tname, sizeof(tname));
	bp_arg_err(w->c, "'%s' is %s (type %s)", w->path, why, tname);
	return -EINVAL;
}

/* Size and signedness of the final value from its type. With a :TYPE
 * cast (any_size), sizes other than 1/2/4/8 are the cast's problem. */
static int final_kind(struct walk *w, bool any_size, uint8_t *size, bool *is_signed)
{
	Dwarf_Die pmem, *t;
	long bytes;
	int tag, enc;

	if (w->dims_done)
		return cannot_fetch(w, "an array; index it ([N])");
	t = bp_type_peel(w->type, &pmem);
	tag = bp_type_tag(t);
	bytes = bp_type_size(t);
	switch (tag) {
	case 0:
		return cannot_fetch(w, "void");
	case DW_TAG_base_type:
		enc = base_encoding(t);
		*is_signed = encoding_signed(enc);
		/* its raw IEEE bits, wherever they are readable (memory, a
		 * general register); xmm registers were refused already */
		if (encoding_float(enc))
			*is_signed = false;
		break;
	case DW_TAG_enumeration_type:
		*is_signed = enum_signed(t);
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		*is_signed = false;
		bytes = 8;
		break;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
		return cannot_fetch(w, "a struct; name a member");
	case DW_TAG_union_type:
		return cannot_fetch(w, "a union; name a member");
	case DW_TAG_array_type:
		return cannot_fetch(w, "an array; index it ([N])");
	default:
		return cannot_fetch(w, "not a scalar");
	}
	if (any_size)
		return 0;
	if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) {
		char tname[128];

		bp_type_name(w->type, tname, sizeof(tname));
		bp_arg_err(w->c, "'%s' has size %ld (type %s); only 1, 2, 4 or 8 bytes can be fetched (a :u64-style cast reads part of it)",
			   w->path, bytes, tname);
		return -EINVAL;
	}
	*size = (uint8_t)bytes;
	return 0;
}

/*
 * An rvalue's bits: a member of a struct held in a register starts
 * v->shift bits up, a bitfield k->bit_off bits further. Expressed as a
 * plan bitfield over the whole 64-bit value.
 */
static int finish_bits(const struct bp_arg_ctx *c, const struct bp_val *v,
		       const struct bp_final *k, uint8_t size, struct bp_fetch *out)
{
	int lo = k->bit_size ? k->bit_off : 0;
	int bits = k->bit_size ? k->bit_size : size * 8;

	/* a narrower value (DW_OP_convert, a mask) extends as it says */
	if (v->width && !k->bit_size && bits > v->width) {
		bits = v->width;
		out->is_signed = v->wsigned;
	}
	if (v->width && lo + bits > v->width) {
		bp_arg_err(c, "'%s' needs bits %d..%d, but its location defines only the low %u",
			   k->path, lo, lo + bits - 1, v->width);
		return -EOPNOTSUPP;
	}
	lo += v->shift;
	if (lo + bits > 64) {
		bp_arg_err(c, "'%s' lies past the 64 bits of the register holding it",
			   k->path);
		return -EOPNOTSUPP;
	}
	if (!lo && !k->bit_size && (bits == 8 || bits == 16 || bits == 32 || bits == 64)) {
		/* the low bytes: a read or truncation of that size */
		out->size = bits / 8;
		return 0;
	}
	out->size = 8;		/* a memory read in the location read 8 bytes */
	out->bit_off = lo;
	out->bit_size = bits;
	return 0;
}

int bp_val__finish(const struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
		   struct bp_val *v, const struct bp_final *k, struct bp_fetch *out)
{
	uint8_t size = k->bit_size ? k->bit_read : k->size;
	bool is_signed = k->is_signed, in_memory;
	int err;

	if (arg->has_type) {
		size = arg->type_size;
		is_signed = arg->type_signed;
		if (k->bit_size && size * 8 < k->bit_off + k->bit_size) {
			bp_arg_err(c, "type :%c%d is narrower than bitfield '%s'",
				   is_signed ? 's' : 'u', size * 8, k->path);
			return -EINVAL;
		}
	}
	/* a member of a split value: the piece holding it */
	err = bp_val__select(c, v, size, k->path);
	if (err)
		return err;
	in_memory = v->lvalue;

	if (v->lvalue) {
		/* the last read is 'size' bytes wide (see plan.h) */
		err = bp_val__deref(c, v);
		if (err)
			return err;
	} else if (v->off) {
		if (v->f.nderef) {
			bp_arg_err(c, "needs an addition after a memory read: not supported");
			return -EOPNOTSUPP;
		}
		v->f.add += v->off;
		v->off = 0;
	}
	*out = v->f;
	out->size = size;
	out->is_signed = is_signed;
	out->bit_off = k->bit_size ? k->bit_off : 0;
	out->bit_size = k->bit_size;
	/* a register, or a value computed by the location: maybe only
	 * some of its bits (a member of a struct held in a register) */
	if (!in_memory)
		return finish_bits(c, v, k, size, out);
	return 0;
}

static int finish(struct walk *w, const struct bp_arg_spec *arg, struct bp_fetch *out)
{
	struct bp_final k = {
		.path = w->path,
		.bit_size = w->bit_size,
		.bit_off = w->bit_off,
		.bit_read = w->bit_read,
	};
	int err;

	err = final_kind(w, arg->has_type, &k.size, &k.is_signed);
	if (err)
		return err;
	return bp_val__finish(w->c, arg, w->val, &k, out);
}

int bp_member__compile(const struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
		       Dwarf_Die *type, struct bp_val *val, struct bp_fetch *out,
		       char **type_name)
{
	struct walk w = { .c = c, .val = val };
	char tname[256];
	int i, err = 0;

	set_type(&w, type);
	snprintf(w.path, sizeof(w.path), "%s", arg->var);
	for (i = 0; i < arg->nsteps && !err; i++) {
		const struct bp_arg_step *s = &arg->steps[i];

		/* nothing but the end may follow a bitfield: it is no record */
		if (w.bit_size) {
			bp_arg_err(c, "'%s' is a bitfield: nothing can follow it", w.path);
			return -EINVAL;
		}
		switch (s->kind) {
		case BP_STEP_ARROW:
			err = step_arrow(&w, s->field);
			break;
		case BP_STEP_DOT:
			err = step_dot(&w, s->field);
			break;
		case BP_STEP_INDEX:
			err = step_index(&w, s->index);
			break;
		default:
			bp_arg_err(c, "unknown step kind %d", s->kind);
			err = -EINVAL;
		}
		path_append(&w, s);
	}
	if (err)
		return err;
	err = finish(&w, arg, out);
	if (err)
		return err;
	bp_type_name(w.type, tname, sizeof(tname));
	*type_name = strdup(tname);
	return *type_name ? 0 : -ENOMEM;
}
