// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Member chains whatever their types come from (DWARF in member.c,
 * BTF in probes/kernel/btf.c): the walk over the steps, the messages that
 * name the current type, offsets, bitfields and the final read. The types
 * themselves are the walker's, through struct bp_chain_ops.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/value/chain.h"

#define MAX_LISTED	8

/* Extends the expression text used in messages: "req" -> "req->hdr". */
static void path_append(struct bp_chain *ch, const struct bp_arg_step *s)
{
	size_t n = strlen(ch->path), room = sizeof(ch->path) - n;

	if (s->kind == BP_STEP_INDEX)
		snprintf(ch->path + n, room, "[%ld]", s->index);
	else
		snprintf(ch->path + n, room, "%s%s", s->kind == BP_STEP_ARROW ? "->" : ".",
			 s->field);
}

/* --- messages ------------------------------------------------------------ */

/* "'->' on non-pointer 'req->id' (type long int)" + hint */
int bp_chain__bad_step(struct bp_chain *ch, const char *what, const char *hint)
{
	char tname[128];

	ch->ops->type_name(ch, tname, sizeof(tname));
	bp_arg_fail(ch->c, "%s '%s' (type %s)%s", what, ch->path, tname, hint);
	return -EINVAL;
}

int bp_chain__cannot_fetch(struct bp_chain *ch, const char *why)
{
	char tname[128];

	ch->ops->type_name(ch, tname, sizeof(tname));
	bp_arg_fail(ch->c, "'%s' is %s (type %s)", ch->path, why, tname);
	return -EINVAL;
}

bool bp_names__room(const struct bp_names *l)
{
	return l->pos < sizeof(l->buf);
}

void bp_names__add(struct bp_names *l, const char *name)
{
	size_t len = sizeof(l->buf);

	if (!bp_names__room(l))
		return;
	if (l->count++ == MAX_LISTED) {
		snprintf(l->buf + l->pos, len - l->pos, ", ...");
		l->pos = len;	/* stop */
		return;
	}
	l->pos += snprintf(l->buf + l->pos, len - l->pos, "%s%s", l->count > 1 ? ", " : "",
			   name);
}

int bp_chain__no_member(struct bp_chain *ch, const char *rec, const char *field,
			const struct bp_names *members)
{
	bp_arg_fail(ch->c, "%s has no member '%s' (members: %s)", rec, field,
		    members->buf[0] ? members->buf : "none");
	return -ENOENT;
}

/* --- pointers, offsets and bitfields -------------------------------------- */

int bp_chain__follow(struct bp_chain *ch)
{
	int err = ch->ops->load_pointer(ch);

	if (err)
		return err;
	/* a pointer only DWARF knows: its target is another variable's */
	if (ch->val->implicit.set && ch->ops->implicit_target)
		return ch->ops->implicit_target(ch);
	ch->val->lvalue = true;
	return 0;
}

/* off += index * size, refusing what no 32-bit offset could reach */
int bp_chain__add_index(struct bp_chain *ch, long index, long size)
{
	int64_t delta;

	if (__builtin_mul_overflow((int64_t)index, (int64_t)size, &delta) ||
	    __builtin_add_overflow(ch->val->off, delta, &ch->val->off)) {
		bp_arg_fail(ch->c, "index %ld of '%s' is out of range", index, ch->path);
		return -ERANGE;
	}
	return 0;
}

int bp_chain__index_pointer(struct bp_chain *ch, long index, long size)
{
	int err;

	if (size <= 0) {
		char tname[128];

		ch->ops->type_name(ch, tname, sizeof(tname));
		bp_arg_fail(ch->c, "cannot index '%s' (type %s): unknown element size",
			    ch->path, tname);
		return -EINVAL;
	}
	err = bp_chain__follow(ch);
	if (err)
		return err;
	if (bp_chain__add_index(ch, index, size))
		return -ERANGE;
	return 0;
}

/*
 * A bitfield is read like the compiler does, with a load of its declared
 * type's size aligned to that size (so a read never leaves the struct);
 * packed bitfields that straddle such a unit get the smallest load of
 * 1/2/4/8 bytes from the byte holding their first bit.
 */
static int bitfield_place(const struct bp_arg_ctx *c, const char *path, long unit,
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
			bp_arg_fail(c, "bitfield '%s' spans more than 8 bytes: not supported",
				    path);
			return -EOPNOTSUPP;
		}
		*bit_read = need <= 1 ? 1 : need <= 2 ? 2 : need <= 4 ? 4 : 8;
	}
	*byte_off = start / 8;
	*bit_off = bit_pos - start;
	return 0;
}

int bp_chain__bitfield(struct bp_chain *ch, long unit, int64_t bit_pos, int bit_size)
{
	int64_t start;
	int err;

	err = bitfield_place(ch->c, ch->path, unit, bit_pos, bit_size, &start, &ch->bit_off,
			     &ch->bit_read);
	if (err)
		return err;
	ch->val->off += start;
	ch->bit_size = bit_size;
	return 0;
}

/* --- the final value ----------------------------------------------------- */

/* The end of a member chain: what its type says about the final read. */
struct final {
	const char *path;	/* the expression, for messages */
	uint8_t size;		/* 1, 2, 4 or 8 (ignored for bitfields) */
	bool is_signed;
	int bit_size;		/* 0: not a bitfield */
	int bit_off;
	int bit_read;		/* bitfields: bytes read */
};

/*
 * An rvalue's bits: a member of a struct held in a register starts
 * v->shift bits up, a bitfield k->bit_off bits further. Expressed as a
 * plan bitfield over the whole 64-bit value.
 */
static int finish_bits(const struct bp_arg_ctx *c, const struct bp_val *v,
		       const struct final *k, uint8_t size, struct bp_fetch *out)
{
	int lo = k->bit_size ? k->bit_off : 0;
	int bits = k->bit_size ? k->bit_size : size * 8;

	/* a narrower value (DW_OP_convert, a mask) extends as it says */
	if (v->width && !k->bit_size && bits > v->width) {
		bits = v->width;
		out->is_signed = v->wsigned;
	}
	if (v->width && lo + bits > v->width) {
		bp_arg_fail(c, "'%s' needs bits %d..%d, but its location defines only the low %u",
			    k->path, lo, lo + bits - 1, v->width);
		return -EOPNOTSUPP;
	}
	lo += v->shift;
	if (lo + bits > 64) {
		bp_arg_fail(c, "'%s' lies past the 64 bits of the register holding it",
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

/* Applies arg's :TYPE and compiles v's final read into *out. */
static int finish_value(const struct bp_arg_ctx *c, const struct bp_arg_spec *arg,
			struct bp_val *v, const struct final *k, struct bp_fetch *out)
{
	uint8_t size = k->bit_size ? k->bit_read : k->size;
	bool is_signed = k->is_signed, in_memory;
	int err;

	if (arg->has_type) {
		size = arg->type_size;
		is_signed = arg->type_signed;
		if (k->bit_size && size * 8 < k->bit_off + k->bit_size) {
			bp_arg_fail(c, "type :%c%d is narrower than bitfield '%s'",
				    is_signed ? 's' : 'u', size * 8, k->path);
			return -EINVAL;
		}
	}
	/* a member of a split value: the piece holding it */
	err = bp_val__select(c, v, size, k->path);
	if (err)
		return err;
	if (v->implicit.set) {
		bp_arg_fail(c, "'%s' is a pointer that exists only in the debug info (DW_OP_implicit_pointer): it has no value, but what it points to is readable ('%s[0]', '%s->MEMBER')",
			    k->path, k->path, k->path);
		return -EINVAL;
	}
	in_memory = v->lvalue;

	if (v->lvalue) {
		/* the last read is 'size' bytes wide (see plan.h) */
		err = bp_val__deref(c, v);
		if (err)
			return err;
	} else if (v->off) {
		/* an addition after a read: computed */
		if (v->f.nderef) {
			err = bp_val__flatten(c, v);
			if (err)
				return err;
		} else {
			v->f.add += v->off;
			v->off = 0;
		}
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

/*
 * The record ABI: a string member (arg->want STRING) reads the string a
 * char pointer points to, or a char array holds; another member (BYTES)
 * copies the object's first want_len bytes. Either is the final read of
 * an object in memory, want_len bytes long.
 */
static int finish_object(struct bp_chain *ch, const struct bp_arg_spec *arg,
			 struct bp_fetch *out)
{
	const struct bp_arg_ctx *c = ch->c;
	struct bp_val *v = ch->val;
	bool string = arg->want == BP_FETCH_STRING;
	char tname[128];
	long size = 0;
	int cls = BP_OBJ_OTHER, err;

	ch->ops->type_name(ch, tname, sizeof(tname));
	if (ch->bit_size) {
		bp_arg_fail(c, "'%s' is a bitfield: its member wants %s", ch->path,
			    string ? "a string" : "the bytes of an object");
		return -EINVAL;
	}
	if (arg->has_type) {
		bp_arg_fail(c, "'%s' casts a value (:%c%d), but its member wants %s", arg->text,
			    arg->type_signed ? 's' : 'u', arg->type_size * 8,
			    string ? "a string" : "the bytes of an object");
		return -EINVAL;
	}
	err = ch->ops->object ? ch->ops->object(ch, &cls, &size) : -EOPNOTSUPP;
	if (err == -EOPNOTSUPP)
		bp_arg_fail(c, "'%s': only values can be fetched here", ch->path);
	if (err)
		return err;
	if (string && cls == BP_OBJ_CHAR_POINTER) {
		/* the string is where the pointer points */
		err = bp_chain__follow(ch);
		if (err)
			return err;
	} else if (string && cls != BP_OBJ_CHAR_ARRAY) {
		bp_arg_fail(c, "'%s' is %s: its member (char[%u]) wants a string, from a char pointer or a char array",
			    ch->path, tname, arg->want_len);
		return -EINVAL;
	} else if (!string && size < arg->want_len) {
		bool ptr = cls == BP_OBJ_POINTER || cls == BP_OBJ_CHAR_POINTER;

		bp_arg_fail(c, "'%s' is %ld bytes (type %s), fewer than the %u of its member%s%s%s",
			    ch->path, size, tname, arg->want_len,
			    ptr ? ": for what it points to, write '*" : "", ptr ? ch->path : "",
			    ptr ? "'" : "");
		return -EINVAL;
	}
	if (v->npieces || (!v->lvalue && !v->implicit.set)) {
		bp_arg_fail(c, "'%s' is held in registers here, not in memory: its members can be fetched one by one",
			    ch->path);
		return -EOPNOTSUPP;
	}
	if (v->implicit.set) {
		bp_arg_fail(c, "'%s' exists only in the debug info here (DW_OP_implicit_pointer): it has no bytes to copy",
			    ch->path);
		return -EOPNOTSUPP;
	}
	/* the last read copies the object (see plan.h) */
	err = bp_val__deref(c, v);
	if (err)
		return err;
	/* :ustring: a kernel probe's string in user memory */
	if (arg->ustring)
		v->f.user_mask |= 1U << (v->f.nderef - 1);
	*out = v->f;
	out->kind = arg->want;
	out->size = 8;
	out->is_signed = false;
	out->bit_off = 0;
	out->bit_size = 0;
	out->len = arg->want_len;
	return 0;
}

/* Size and signedness from the final type; with a :TYPE cast, sizes
 * other than 1/2/4/8 are the cast's problem. */
static int finish(struct bp_chain *ch, const struct bp_arg_spec *arg, struct bp_fetch *out)
{
	struct final k = {
		.path = ch->path,
		.bit_size = ch->bit_size,
		.bit_off = ch->bit_off,
		.bit_read = ch->bit_read,
	};
	long bytes;
	int err;

	/* untyped values (perf's fetch arguments, markers' arguments) have
	 * no objects: a string is read where the value points
	 * (probes/record_plan.c) */
	if ((arg->want == BP_FETCH_STRING || arg->want == BP_FETCH_BYTES) && ch->ops->object)
		return finish_object(ch, arg, out);
	err = ch->ops->scalar(ch, &bytes, &k.is_signed);
	if (err)
		return err;
	if (!arg->has_type) {
		if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) {
			char tname[128];

			ch->ops->type_name(ch, tname, sizeof(tname));
			bp_arg_fail(ch->c, "'%s' has size %ld (type %s); only 1, 2, 4 or 8 bytes can be fetched (a :u64-style cast reads part of it)",
				    ch->path, bytes, tname);
			return -EINVAL;
		}
		k.size = (uint8_t)bytes;
	}
	return finish_value(ch->c, arg, ch->val, &k, out);
}

/*
 * :string and :ustring: the address of the characters, as a 64-bit
 * value: the pointer the value holds, or the address of the array the
 * value is (which must then be in memory).
 */
static int finish_string(struct bp_chain *ch, struct bp_fetch *out)
{
	const struct bp_arg_ctx *c = ch->c;
	struct bp_val *v = ch->val;
	bool is_array = false;
	int err;

	if (ch->bit_size)
		return bp_chain__cannot_fetch(ch, "a bitfield, no string");
	if (!ch->ops->string)
		return bp_chain__cannot_fetch(ch, "no string");
	err = ch->ops->string(ch, &is_array);
	if (err)
		return err;
	if (v->npieces || v->implicit.set) {
		bp_arg_fail(c, "'%s' is held in pieces or only in the debug info: its string has no address to read from",
			    ch->path);
		return -EOPNOTSUPP;
	}
	if (is_array) {
		if (!v->lvalue) {
			bp_arg_fail(c, "'%s' is an array held in registers: its string has no address to read from",
				    ch->path);
			return -EOPNOTSUPP;
		}
		/* its address is the value */
		v->lvalue = false;
	} else if (v->lvalue) {
		/* the pointer, read from memory */
		err = bp_val__deref(c, v);
		if (err)
			return err;
	}
	if (v->shift || v->width || (v->off && v->f.nderef)) {
		err = bp_val__flatten(c, v);
		if (err)
			return err;
	}
	*out = v->f;
	out->add += v->off;
	v->off = 0;
	out->size = 8;
	out->is_signed = false;
	out->bit_off = 0;
	out->bit_size = 0;
	return 0;
}

/* --- the walk ------------------------------------------------------------- */

int bp_chain__compile(struct bp_chain *ch, const struct bp_arg_spec *arg,
		      struct bp_fetch *out, char **type_name)
{
	char tname[256];
	int i, err = 0;

	snprintf(ch->path, sizeof(ch->path), "%s", arg->var);
	for (i = 0; i < arg->nsteps && !err; i++) {
		const struct bp_arg_step *s = &arg->steps[i];

		/* nothing but the end may follow a bitfield: it is no record */
		if (ch->bit_size) {
			bp_arg_fail(ch->c, "'%s' is a bitfield: nothing can follow it", ch->path);
			return -EINVAL;
		}
		switch (s->kind) {
		case BP_STEP_ARROW:
			err = ch->ops->arrow(ch, s->field);
			break;
		case BP_STEP_DOT:
			err = ch->ops->dot(ch, s->field);
			break;
		case BP_STEP_INDEX:
			err = ch->ops->index(ch, s->index);
			break;
		default:
			bp_arg_fail(ch->c, "unknown step kind %d", s->kind);
			err = -EINVAL;
		}
		path_append(ch, s);
	}
	if (!err && ch->ops->end && !ch->bit_size)
		err = ch->ops->end(ch);
	if (err)
		return err;
	/* a record member wanting a string reads it (finish_object); else
	 * :string is the string's address */
	if ((arg->string || arg->ustring) && arg->want == BP_FETCH_VALUE)
		err = finish_string(ch, out);
	else
		err = finish(ch, arg, out);
	if (err)
		return err;
	ch->ops->type_name(ch, tname, sizeof(tname));
	*type_name = strdup(tname);
	return *type_name ? 0 : -ENOMEM;
}
