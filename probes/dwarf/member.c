// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Member chains (->f .f [N]) over DWARF types, compiled into the fetch:
 * the steps and the final type here, the walk and the final read in
 * chain.c.
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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/types.h"

#define MAX_ANON_DEPTH	8
#define MAX_DIMS	8

struct walk {
	struct bp_chain ch;	/* the value, the path, the last bitfield */
	Dwarf_Die tmem;
	Dwarf_Die *type;	/* current type as declared; NULL is void */
	int dims_done;		/* leading dimensions of an array already indexed */
};

static struct walk *walk_of(struct bp_chain *ch)
{
	return (struct walk *)((char *)ch - offsetof(struct walk, ch));
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

/* The struct, union or class a member (or a base class) is, or NULL. */
static Dwarf_Die *record_of(Dwarf_Die *member, Dwarf_Die *tmem, Dwarf_Die *pmem)
{
	Dwarf_Die *t = bp_type_peel(bp_die_type(member, tmem), pmem);

	return t && bp_tag_is_record(dwarf_tag(t)) ? t : NULL;
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
		bool inherited = dwarf_tag(&child) == DW_TAG_inheritance;

		if (!inherited && dwarf_tag(&child) != DW_TAG_member)
			continue;
		if (member_location(&child, &off))
			off = INT64_MIN;
		/* C++: a base class's members are ours, at its offset */
		n = inherited ? NULL : bp_die_name(&child);
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
		t = record_of(&child, &tmem, &pmem);
		if (!t)
			continue;
		err = find_member(t, name, base + off, out, depth + 1);
		if (err != -ENOENT)
			return err;
	} while (!dwarf_siblingof(&child, &child));
	return -ENOENT;
}

/* Member names, flattening anonymous members. */
static void list_members(Dwarf_Die *rec, struct bp_names *l, int depth)
{
	Dwarf_Die child, tmem, pmem, *t;
	const char *n;

	if (depth > MAX_ANON_DEPTH || dwarf_child(rec, &child))
		return;
	do {
		bool inherited = dwarf_tag(&child) == DW_TAG_inheritance;

		if ((!inherited && dwarf_tag(&child) != DW_TAG_member) || !bp_names__room(l))
			continue;
		/* anonymous members and base classes: their members */
		n = inherited ? NULL : bp_die_name(&child);
		if (!n) {
			t = record_of(&child, &tmem, &pmem);
			if (t)
				list_members(t, l, depth + 1);
			continue;
		}
		bp_names__add(l, n);
	} while (!dwarf_siblingof(&child, &child));
}

static int no_member(struct walk *w, Dwarf_Die *rec, const char *field)
{
	struct bp_names l = {};
	char tname[128];

	bp_type_name(rec, tname, sizeof(tname));
	list_members(rec, &l, 0);
	return bp_chain__no_member(&w->ch, tname, field, &l);
}

/* A bitfield is read as its declared type. */
static int enter_bitfield(struct walk *w, const struct member *m)
{
	Dwarf_Die pmem;
	long unit = bp_type_size(bp_type_peel(w->type, &pmem));

	return bp_chain__bitfield(&w->ch, unit, m->bit_pos, m->bit_size);
}

/* Moves w to member field of record rec (the lvalue is already set up). */
static int enter_member(struct walk *w, Dwarf_Die *rec, const char *field)
{
	struct member m = {};
	Dwarf_Die tmem, cmem;
	char tname[128];
	int err;

	/* declared only in this unit: its definition in another */
	err = bp_type__complete(w->ch.c, rec, &cmem);
	if (err)
		return err;
	rec = &cmem;
	err = find_member(rec, field, 0, &m, 0);
	if (err == -ENOENT)
		return no_member(w, rec, field);
	if (err) {
		bp_type_name(rec, tname, sizeof(tname));
		bp_arg_fail(w->ch.c, "the offset of member '%s' of %s is not a constant: not supported",
			    field, tname);
		return err;
	}
	set_type(w, bp_die_type(&m.die, &tmem));
	if (m.bit_size)
		return enter_bitfield(w, &m);
	w->ch.val->off += m.off;
	return 0;
}

/* --- steps --------------------------------------------------------------- */

/* The pointer the current value holds becomes the current rvalue. */
static int load_pointer(struct bp_chain *ch)
{
	int err = bp_val__select(ch->c, ch->val, 8, ch->path);

	if (err || ch->val->implicit.set)
		return err;	/* an implicit pointer is followed by the chain */
	if (ch->val->lvalue)
		return bp_val__deref(ch->c, ch->val);
	if (ch->val->shift || ch->val->width) {
		bp_arg_fail(ch->c, "pointer '%s' is only part of a register: not supported",
			    ch->path);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* A struct or array held in a register: its members are bits of it. */
static int split_rvalue(struct walk *w, Dwarf_Die *type)
{
	if (w->ch.val->lvalue || w->ch.val->npieces)
		return 0;
	return bp_val__split(w->ch.c, w->ch.val, bp_type_size(type), w->ch.path);
}

static bool is_reference(int tag)
{
	return tag == DW_TAG_reference_type || tag == DW_TAG_rvalue_reference_type;
}

/*
 * C++: a reference stands for the object it refers to: the value (an
 * address) is followed and the object's type becomes the current one,
 * as the language does for '.', '[N]' and a final read.
 */
static int through_reference(struct walk *w)
{
	Dwarf_Die pmem, tmem, *t = bp_type_peel(w->type, &pmem);
	int err;

	if (w->dims_done || !t || !is_reference(dwarf_tag(t)))
		return 0;
	err = bp_chain__follow(&w->ch);
	if (err)
		return err;
	set_type(w, bp_die_type(t, &tmem));
	return 0;
}

static int step_arrow(struct bp_chain *ch, const char *field)
{
	Dwarf_Die pmem, tmem, rmem, *t, *target, *rec;
	struct walk *w = walk_of(ch);
	int err;

	/* a reference to a pointer: '->' on the pointer (a reference to a
	 * struct takes '->' too, as it always did) */
	t = bp_type_peel(w->type, &pmem);
	if (!w->dims_done && t && is_reference(dwarf_tag(t))) {
		Dwarf_Die rmem, *r = bp_type_peel(bp_die_type(t, &tmem), &rmem);

		if (r && dwarf_tag(r) == DW_TAG_pointer_type) {
			err = through_reference(w);
			if (err)
				return err;
			t = bp_type_peel(w->type, &pmem);
		}
	}
	if (w->dims_done || !t || !bp_tag_is_pointer(dwarf_tag(t)))
		return bp_chain__bad_step(ch, "'->' on non-pointer", "");
	target = bp_die_type(t, &tmem);
	rec = bp_type_peel(target, &rmem);
	if (!rec || !bp_tag_is_record(dwarf_tag(rec)))
		return bp_chain__bad_step(ch, "'->' on",
					  ", which does not point to a struct or union");
	err = bp_chain__follow(ch);
	if (err)
		return err;
	return enter_member(w, rec, field);
}

static int step_dot(struct bp_chain *ch, const char *field)
{
	struct walk *w = walk_of(ch);
	Dwarf_Die pmem, *t;
	int err;

	/* '.' through a reference, as in C++ */
	err = through_reference(w);
	if (err)
		return err;
	t = bp_type_peel(w->type, &pmem);
	if (!w->dims_done && t && bp_tag_is_pointer(dwarf_tag(t)))
		return bp_chain__bad_step(ch, "'.' on pointer", ": use '->'");
	if (w->dims_done || !t || !bp_tag_is_record(dwarf_tag(t)))
		return bp_chain__bad_step(ch, "'.' on non-struct", "");
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
		bp_arg_fail(w->ch.c, "cannot index '%s': unknown element size", w->ch.path);
		return -EINVAL;
	}
	stride = elem;
	for (i = w->dims_done + 1; i < n; i++) {
		if (dims[i] < 0) {
			bp_arg_fail(w->ch.c, "cannot index '%s': unknown inner dimension",
				    w->ch.path);
			return -EINVAL;
		}
		stride *= dims[i];
	}
	/* a known bound is checked; [] and [0] trailing arrays are not */
	if (dims[w->dims_done] > 0 && (index < 0 || index >= dims[w->dims_done])) {
		bp_arg_fail(w->ch.c, "index %ld is out of bounds of '%s' (%ld elements)",
			    index, w->ch.path, dims[w->dims_done]);
		return -ERANGE;
	}
	if (bp_chain__add_index(&w->ch, index, stride))
		return -ERANGE;
	if (++w->dims_done == n)
		set_type(w, elem_type);
	return 0;
}

/* A type's size, completing a struct (or enum) this unit only declares. */
static int complete_size(struct walk *w, Dwarf_Die *type, long *size)
{
	Dwarf_Die pmem, cmem, *t = bp_type_peel(type, &pmem);
	int err;

	*size = bp_type_size(type);
	if (!t || !dwarf_hasattr(t, DW_AT_declaration))
		return 0;
	err = bp_type__complete(w->ch.c, t, &cmem);
	if (!err)
		*size = bp_type_size(&cmem);
	return err;
}

static int index_pointer(struct walk *w, Dwarf_Die *ptr, long index)
{
	Dwarf_Die tmem, *target = bp_die_type(ptr, &tmem);
	long size;
	int err;

	err = complete_size(w, target, &size) ?:
	      bp_chain__index_pointer(&w->ch, index, size);
	if (err)
		return err;
	set_type(w, target);
	return 0;
}

static int step_index(struct bp_chain *ch, long index)
{
	struct walk *w = walk_of(ch);
	Dwarf_Die pmem, *t;
	int err;

	if (w->dims_done)
		return index_array(w, w->type, index);
	err = through_reference(w);
	if (err)
		return err;
	t = bp_type_peel(w->type, &pmem);
	if (t && dwarf_tag(t) == DW_TAG_array_type) {
		/* the peeled array, so dims_done refers to it from now on */
		set_type(w, t);
		return index_array(w, w->type, index);
	}
	if (t && dwarf_tag(t) == DW_TAG_pointer_type)
		return index_pointer(w, t, index);
	return bp_chain__bad_step(ch, "'[]' on", ", which is neither an array nor a pointer");
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

/* Size and signedness of the final value from its DWARF type. */
static int scalar(struct bp_chain *ch, long *bytes, bool *is_signed)
{
	struct walk *w = walk_of(ch);
	Dwarf_Die pmem, *t;
	int tag, enc, err;

	if (w->dims_done)
		return bp_chain__cannot_fetch(ch, "an array; index it ([N])");
	t = bp_type_peel(w->type, &pmem);
	tag = bp_type_tag(t);
	/* an enum declared only here: its size and sign from its definition */
	if (tag == DW_TAG_enumeration_type && dwarf_hasattr(t, DW_AT_declaration) &&
	    (err = bp_type__complete(ch->c, t, t)))
		return err;
	*bytes = bp_type_size(t);
	switch (tag) {
	case 0:
		return bp_chain__cannot_fetch(ch, "void");
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
		*bytes = 8;
		break;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
		return bp_chain__cannot_fetch(ch, "a struct; name a member");
	case DW_TAG_union_type:
		return bp_chain__cannot_fetch(ch, "a union; name a member");
	case DW_TAG_array_type:
		return bp_chain__cannot_fetch(ch, "an array; index it ([N])");
	default:
		return bp_chain__cannot_fetch(ch, "not a scalar");
	}
	return 0;
}

/* A 1-byte integer type: what :string reads characters of. */
static bool is_char_type(Dwarf_Die *type)
{
	Dwarf_Die pmem, *t = bp_type_peel(type, &pmem);

	return t && dwarf_tag(t) == DW_TAG_base_type && bp_type_size(t) == 1 &&
	       !encoding_float(base_encoding(t));
}

/* :string: a pointer to char, or a char array (the last dimension left) */
static int string_of(struct bp_chain *ch, bool *is_array)
{
	struct walk *w = walk_of(ch);
	Dwarf_Die pmem, tmem, *t;
	long dims[MAX_DIMS];

	t = bp_type_peel(w->type, &pmem);
	if (t && dwarf_tag(t) == DW_TAG_array_type &&
	    array_dims(t, dims) - w->dims_done == 1 && is_char_type(bp_die_type(t, &tmem))) {
		*is_array = true;
		return 0;
	}
	if (!w->dims_done && t && bp_tag_is_pointer(dwarf_tag(t)) &&
	    is_char_type(bp_die_type(t, &tmem))) {
		*is_array = false;
		return 0;
	}
	return bp_chain__cannot_fetch(ch, "not a string (:string takes a pointer to char or a char array)");
}

static void current_type_name(struct bp_chain *ch, char *buf, size_t len)
{
	bp_type_name(walk_of(ch)->type, buf, len);
}

/* A reference to a scalar reads the scalar; to a struct or array, its
 * address (name a member, or index it). */
static int end_reference(struct bp_chain *ch)
{
	struct walk *w = walk_of(ch);
	Dwarf_Die pmem, tmem, rmem, *t = bp_type_peel(w->type, &pmem), *r;

	if (w->dims_done || !t || !is_reference(dwarf_tag(t)))
		return 0;
	r = bp_type_peel(bp_die_type(t, &tmem), &rmem);
	if (!r || bp_tag_is_record(dwarf_tag(r)) || dwarf_tag(r) == DW_TAG_array_type)
		return 0;
	return through_reference(w);
}

static bool is_byte(Dwarf_Die *type)
{
	Dwarf_Die pmem, *t = bp_type_peel(type, &pmem);

	return bp_type_tag(t) == DW_TAG_base_type && bp_type_size(t) == 1 &&
	       !encoding_float(base_encoding(t));
}

/* The record ABI: a char pointer or array (a string), another pointer,
 * or any other object, and its size. */
static int object(struct bp_chain *ch, int *cls, long *size)
{
	struct walk *w = walk_of(ch);
	Dwarf_Die pmem, emem, *t;
	int err;

	if (w->dims_done)
		return bp_chain__cannot_fetch(ch, "part of an array: index it to an element, or name the whole array");
	t = bp_type_peel(w->type, &pmem);
	/* the bytes of a struct declared only here: its definition's size */
	if (t && dwarf_hasattr(t, DW_AT_declaration) && (err = bp_type__complete(ch->c, t, t)))
		return err;
	*size = bp_type_size(t);
	*cls = BP_OBJ_OTHER;
	switch (bp_type_tag(t)) {
	case 0:
		return bp_chain__cannot_fetch(ch, "void");
	case DW_TAG_pointer_type:
		*cls = is_byte(bp_die_type(t, &emem)) ? BP_OBJ_CHAR_POINTER : BP_OBJ_POINTER;
		*size = 8;
		break;
	case DW_TAG_array_type:
		if (is_byte(bp_die_type(t, &emem)))
			*cls = BP_OBJ_CHAR_ARRAY;
		break;
	}
	return 0;
}

static int implicit_target(struct bp_chain *ch)
{
	return bp_loc__implicit_target(ch->c, ch->val);
}

static const struct bp_chain_ops dwarf_ops = {
	.arrow = step_arrow,
	.dot = step_dot,
	.index = step_index,
	.load_pointer = load_pointer,
	.scalar = scalar,
	.type_name = current_type_name,
	.end = end_reference,
	.implicit_target = implicit_target,
	.object = object,
	.string = string_of,
};

int bp_member__compile(const struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
		       Dwarf_Die *type, struct bp_val *val, struct bp_fetch *out,
		       char **type_name)
{
	struct walk w = { .ch = { .ops = &dwarf_ops, .c = c, .val = val } };

	set_type(&w, type);
	return bp_chain__compile(&w.ch, arg, out, type_name);
}
