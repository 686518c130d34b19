// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Operations on a value being built (struct bp_val) that are not the
 * evaluation of a location expression: one more dereference, and the
 * pieces of a value split by DW_OP_piece (or held whole in a register):
 * making one, and picking the piece a member is in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "probes/value/value.h"

int bp_val__deref(const struct bp_arg_ctx *c, struct bp_val *v)
{
	struct bp_fetch *f = &v->f;

	int err;

	if (v->npieces) {
		bp_arg_fail(c, "a value split into pieces cannot be dereferenced as a whole");
		return -EOPNOTSUPP;
	}
	if (v->implicit.set) {
		bp_arg_fail(c, "a pointer that exists only in the debug info (DW_OP_implicit_pointer) cannot be read through here");
		return -EOPNOTSUPP;
	}
	/* a read at a computed address, past the plan's reads, or at an
	 * offset no read instruction takes: an expression computes it */
	if (v->shift || v->width || f->nderef >= BP_MAX_DEREFS ||
	    v->off < INT32_MIN || v->off > INT32_MAX) {
		err = bp_val__flatten(c, v);
		if (err)
			return err;
	}
	f->deref_off[f->nderef] = (int32_t)v->off;
	if (c->user && f->nderef >= c->first_user_deref)
		f->user_mask |= 1U << f->nderef;
	f->nderef++;
	v->off = 0;
	v->lvalue = false;
	return 0;
}

/* --- pieces -------------------------------------------------------------- */

void bp_piece__from_val(struct bp_piece *p, const struct bp_val *v)
{
	p->empty = false;
	p->f = v->f;
	p->off = v->off;
	p->lvalue = v->lvalue;
	p->shift = v->shift;
	p->width = v->width;
	p->wsigned = v->wsigned;
	p->typed = v->typed;
	p->implicit = v->implicit;
}

int bp_val__split(const struct bp_arg_ctx *c, struct bp_val *v, long size,
		  const char *path)
{
	struct bp_piece *p = &v->pieces[0];

	if (v->lvalue || v->npieces)
		return 0;
	if (size <= 0) {
		bp_arg_fail(c, "'%s' is held in a register, but its size is unknown", path);
		return -EINVAL;
	}
	memset(p, 0, sizeof(*p));
	bp_piece__from_val(p, v);
	p->size = (uint32_t)size;
	v->npieces = 1;
	memset(&v->f, 0, sizeof(v->f));
	v->off = 0;
	v->shift = 0;
	v->width = 0;
	v->wsigned = false;
	v->typed = false;
	v->implicit.set = false;
	return 0;
}

int bp_val__select(const struct bp_arg_ctx *c, struct bp_val *v, long size,
		   const char *path)
{
	const struct bp_piece *p = NULL;
	int64_t delta;
	char why[256];
	int i;

	if (!v->npieces)
		return 0;
	for (i = 0; i < v->npieces && !p; i++) {
		const struct bp_piece *q = &v->pieces[i];

		if (v->off >= q->byte_off && v->off + size <= (int64_t)q->byte_off + q->size)
			p = q;
		else if (v->off < (int64_t)q->byte_off + q->size && v->off + size > q->byte_off) {
			bp_arg_fail(c, "'%s' (bytes %" PRId64 "..%" PRId64 " of its variable) spans two pieces of the variable's location (DW_OP_piece): not supported",
				    path, v->off, v->off + size - 1);
			return -EOPNOTSUPP;
		}
	}
	if (!p || p->empty) {
		snprintf(why, sizeof(why), "bytes %" PRId64 "..%" PRId64 " of the variable, which '%s' needs, are %s its location (DW_OP_piece)",
			 v->off, v->off + size - 1, path, p ? "marked missing in" : "left out of");
		return bp_arg__unavailable(c, -ENOENT, "optimized out", why);
	}
	delta = v->off - p->byte_off;
	v->f = p->f;
	v->off = p->off;
	v->lvalue = p->lvalue;
	v->shift = p->shift;
	v->width = p->width;
	v->wsigned = p->wsigned;
	v->typed = p->typed;
	v->implicit = p->implicit;
	v->npieces = 0;
	if (v->implicit.set) {
		/* a pointer member: only the whole of it */
		if (delta || size != 8) {
			bp_arg_fail(c, "'%s' is part of a pointer that exists only in the debug info (DW_OP_implicit_pointer)",
				    path);
			return -EOPNOTSUPP;
		}
		return 0;
	}
	if (v->lvalue) {
		v->off += delta;
		return 0;
	}
	/* a register or computed value: the member is some of its bits */
	if (v->shift + (delta + size) * 8 > 64) {
		bp_arg_fail(c, "'%s' lies past the 64 bits of the register holding it", path);
		return -EOPNOTSUPP;
	}
	if (v->width && (delta + size) * 8 > v->width) {
		bp_arg_fail(c, "'%s' lies past the %u bits the location defines", path, v->width);
		return -EOPNOTSUPP;
	}
	v->width = v->width ? v->width - delta * 8 : 0;
	v->shift += delta * 8;
	return 0;
}
