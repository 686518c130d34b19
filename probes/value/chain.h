/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef BPFPROBE_CHAIN_H
#define BPFPROBE_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/value/value.h"

/*
 * A member chain (->f .f [N]) walked from an argument's value, over DWARF
 * types (member.c) or BTF types (probes/kernel/btf.c): chain.c holds what does
 * not depend on where the types come from (the walk, its messages, the
 * final read), the ops what does. Each op returns 0 or a negative errno,
 * the failure recorded in the context's diagnosis.
 */
struct bp_chain;

struct bp_chain_ops {
	/* steps: each moves ch->val and the walker's current type */
	int (*arrow)(struct bp_chain *ch, const char *field);
	int (*dot)(struct bp_chain *ch, const char *field);
	int (*index)(struct bp_chain *ch, long index);
	/* the pointer the current value holds becomes the current rvalue */
	int (*load_pointer)(struct bp_chain *ch);
	/* the final value's size in bytes and signedness; refuses what is no
	 * scalar */
	int (*scalar)(struct bp_chain *ch, long *bytes, bool *is_signed);
	/* the C name of the current type */
	void (*type_name)(struct bp_chain *ch, char *buf, size_t len);
	/* before the final read (NULL: nothing): a C++ reference to a scalar
	 * reads the scalar */
	int (*end)(struct bp_chain *ch);
	/* the current value is a pointer only DWARF knows (an implicit
	 * pointer): its target becomes the current value (NULL: the types'
	 * source has no such pointers) */
	int (*implicit_target)(struct bp_chain *ch);
	/* the record ABI: what the current type is as an object (enum
	 * bp_object_class) and its size in bytes (<= 0: unknown) */
	int (*object)(struct bp_chain *ch, int *cls, long *size);
	/* :string and :ustring: whether the current value is a pointer to
	 * 1-byte characters (*is_array false) or an array of them (true);
	 * refuses anything else (NULL: every value is refused) */
	int (*string)(struct bp_chain *ch, bool *is_array);
};

/* What a record member filled with an object's bytes may take it from. */
enum bp_object_class {
	BP_OBJ_OTHER,
	BP_OBJ_CHAR_POINTER,	/* a pointer to 1-byte integers: a string */
	BP_OBJ_CHAR_ARRAY,	/* an array of 1-byte integers: a string */
	BP_OBJ_POINTER,		/* another pointer: what it points to, *p */
};

/* Embedded in the walker, which holds the current type. */
struct bp_chain {
	const struct bp_chain_ops *ops;
	const struct bp_arg_ctx *c;
	struct bp_val *val;
	char path[256];		/* the expression so far, for messages */
	/* the last member was a bitfield: bits [bit_off, bit_off + bit_size)
	 * of the bit_read bytes at val->off */
	int bit_size;
	int bit_off;
	int bit_read;
};

/*
 * Walks arg's steps from ch->val (ops, c and val set, the walker at the
 * argument's type) and compiles the final read into *out; *type_name
 * (malloc'ed) is the C name of the final type. With :string or :ustring
 * the final value is the string's address: a pointer's value, or where
 * an array is.
 */
int bp_chain__compile(struct bp_chain *ch, const struct bp_arg_spec *arg,
		      struct bp_fetch *out, char **type_name);

/* "WHAT 'PATH' (type T)HINT", T the current type; -EINVAL. */
int bp_chain__bad_step(struct bp_chain *ch, const char *what, const char *hint);
/* "'PATH' is WHY (type T)"; -EINVAL. */
int bp_chain__cannot_fetch(struct bp_chain *ch, const char *why);

/* Member names for a message: "a, b, ..." (at most 8, then ", ..."). */
struct bp_names {
	char buf[256];
	size_t pos;
	int count;
};

/* False once l takes no more names. */
bool bp_names__room(const struct bp_names *l);
void bp_names__add(struct bp_names *l, const char *name);

/* "REC has no member 'FIELD' (members: ...)"; -ENOENT. */
int bp_chain__no_member(struct bp_chain *ch, const char *rec, const char *field,
			const struct bp_names *members);

/* ch->val->off += index * size, refusing what no offset could hold. */
int bp_chain__add_index(struct bp_chain *ch, long index, long size);

/* Follows the pointer the current value holds: the pointee becomes the
 * lvalue. */
int bp_chain__follow(struct bp_chain *ch);

/* '[index]' on the current value, a pointer to elements of size bytes
 * (<= 0: unknown, an error): follows it to the element. */
int bp_chain__index_pointer(struct bp_chain *ch, long index, long size);

/*
 * Enters a bitfield of bit_size bits at bit_pos from the start of the
 * record at ch->val->off, read as its declared type of unit bytes.
 */
int bp_chain__bitfield(struct bp_chain *ch, long unit, int64_t bit_pos, int bit_size);

#endif /* BPFPROBE_CHAIN_H */
