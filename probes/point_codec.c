// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * User-space probe points as bytes and back (see point_codec.h). Every
 * field is written on its own, in a fixed order and width: a string as
 * its length (NO_STRING for NULL) and its bytes, a number in native byte
 * order. Decoding takes nothing on trust: lengths stay inside the bytes,
 * and a plan's fields stay in the ranges the prologue generator expects.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probes/point_codec.h"
#include "util/grow.h"

#define NO_STRING	UINT32_MAX

void bp_bytes__free(struct bp_bytes *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

int bp_bytes__put(struct bp_bytes *b, const void *p, size_t size)
{
	void *v = b->data;

	if (!size)
		return 0;	/* p may be NULL then (a NULL string's bytes) */
	if (size > SIZE_MAX / 2 - b->len)
		return -ENOMEM;
	while (b->cap - b->len < size) {
		if (bp_grow(&v, b->cap, &b->cap, 1, 4096))
			return -ENOMEM;
		b->data = v;
	}
	memcpy(b->data + b->len, p, size);
	b->len += size;
	return 0;
}

int bp_bytes__put_str(struct bp_bytes *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	uint32_t len = s ? (uint32_t)n : NO_STRING;

	if (s && n >= NO_STRING)
		return -ENOMEM;
	return bp_bytes__put(b, &len, sizeof(len)) ?: bp_bytes__put(b, s, n);
}

bool bp_bytes__get(struct bp_bytes_reader *r, void *out, size_t size)
{
	if (size > r->size - r->off)
		return false;
	memcpy(out, r->p + r->off, size);
	r->off += size;
	return true;
}

bool bp_bytes__get_str(struct bp_bytes_reader *r, char **s)
{
	uint32_t len;

	*s = NULL;
	if (!bp_bytes__get(r, &len, sizeof(len)))
		return false;
	if (len == NO_STRING)
		return true;
	if (len > r->size - r->off || memchr(r->p + r->off, '\0', len))
		return false;
	*s = malloc((size_t)len + 1);
	if (!*s)
		return false;
	memcpy(*s, r->p + r->off, len);
	(*s)[len] = '\0';
	r->off += len;
	return true;
}

/* --- encoding -------------------------------------------------------------- */

#define PUT(b, v)	bp_bytes__put(b, &(v), sizeof(v))

static int put_u8(struct bp_bytes *b, unsigned int v)
{
	uint8_t u = v;

	return PUT(b, u);
}

static int put_expr(struct bp_bytes *b, const struct bp_expr *e)
{
	int err = put_u8(b, e->nops);

	for (int i = 0; !err && i < e->nops && i < BP_EXPR_MAX_OPS; i++) {
		const struct bp_expr_op *o = &e->ops[i];

		err = put_u8(b, o->op) ?: put_u8(b, o->reg) ?: put_u8(b, o->size) ?:
		      put_u8(b, o->flags) ?: PUT(b, o->imm);
	}
	return err;
}

static int put_fetch(struct bp_bytes *b, const struct bp_fetch *f)
{
	int err = put_u8(b, f->base) ?: put_u8(b, f->reg) ?: PUT(b, f->add) ?:
		  put_u8(b, f->nderef) ?: PUT(b, f->deref_off) ?: PUT(b, f->user_mask) ?:
		  put_u8(b, f->size) ?: put_u8(b, f->is_signed) ?: put_u8(b, f->bit_off) ?:
		  put_u8(b, f->bit_size) ?: PUT(b, f->anchor) ?: put_u8(b, f->anchor_kind) ?:
		  put_u8(b, f->kind) ?: put_u8(b, f->store_size) ?: PUT(b, f->len) ?:
		  PUT(b, f->rec_off);

	return err ?: put_expr(b, &f->expr);
}

static int put_point(struct bp_bytes *b, const struct bp_point *pt)
{
	const char *strs[] = { pt->binary, pt->func, pt->cu, pt->source, pt->src_file,
			       pt->caller, pt->symbol };
	int32_t line = pt->src_line, nentries = pt->nentries, nargs = pt->plan.nargs;
	int err = 0;

	for (size_t i = 0; !err && i < sizeof(strs) / sizeof(strs[0]); i++)
		err = bp_bytes__put_str(b, strs[i]);
	for (int k = 0; !err && k < BP_MAX_ARGS; k++)
		err = bp_bytes__put_str(b, pt->loc_desc[k]) ?:
		      bp_bytes__put_str(b, pt->type_name[k]) ?:
		      bp_bytes__put_str(b, pt->arg_name[k]);
	err = err ?: PUT(b, pt->addr) ?: PUT(b, pt->offset) ?: PUT(b, pt->die_off) ?:
	      put_u8(b, pt->is_return) ?: put_u8(b, pt->is_inline) ?: PUT(b, line) ?:
	      PUT(b, nentries) ?: PUT(b, pt->entry_offsets) ?: PUT(b, nargs);
	for (int k = 0; !err && k < pt->plan.nargs && k < BP_MAX_ARGS; k++)
		err = put_fetch(b, &pt->plan.args[k]);
	return err;
}

bool bp_points__encodable(const struct bp_point *pts, int n)
{
	for (int i = 0; i < n; i++) {
		const struct bp_point *pt = &pts[i];

		if (pt->kernel || pt->module || pt->kaddr || pt->map.on || !pt->binary ||
		    pt->plan.record ||
		    pt->plan.nargs < 0 || pt->plan.nargs > BP_MAX_ARGS ||
		    pt->nentries < 0 || pt->nentries > BP_MAX_ENTRY_SAVES)
			return false;
	}
	return true;
}

int bp_points__encode(const struct bp_point *pts, int n, struct bp_bytes *out)
{
	int err = 0;

	if (!bp_points__encodable(pts, n))
		return -EINVAL;
	for (int i = 0; !err && i < n; i++)
		err = put_point(out, &pts[i]);
	return err;
}

/* --- decoding -------------------------------------------------------------- */

#define GET(r, v)	bp_bytes__get(r, &(v), sizeof(v))

static bool get_expr(struct bp_bytes_reader *r, struct bp_expr *e)
{
	if (!GET(r, e->nops) || e->nops > BP_EXPR_MAX_OPS)
		return false;
	for (int i = 0; i < e->nops; i++) {
		struct bp_expr_op *o = &e->ops[i];

		if (!GET(r, o->op) || !GET(r, o->reg) || !GET(r, o->size) ||
		    !GET(r, o->flags) || !GET(r, o->imm))
			return false;
	}
	return true;
}

static bool size_ok(unsigned int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

static bool get_fetch(struct bp_bytes_reader *r, struct bp_fetch *f)
{
	uint8_t base, is_signed;

	if (!GET(r, base) || !GET(r, f->reg) || !GET(r, f->add) || !GET(r, f->nderef) ||
	    !GET(r, f->deref_off) || !GET(r, f->user_mask) || !GET(r, f->size) ||
	    !GET(r, is_signed) || !GET(r, f->bit_off) || !GET(r, f->bit_size) ||
	    !GET(r, f->anchor) || !GET(r, f->anchor_kind) || !GET(r, f->kind) ||
	    !GET(r, f->store_size) || !GET(r, f->len) || !GET(r, f->rec_off))
		return false;
	f->base = base;
	f->is_signed = is_signed;
	if (base > BP_BASE_EXPR || is_signed > 1 || f->nderef > BP_MAX_DEREFS ||
	    !size_ok(f->size) || f->bit_off + f->bit_size > 64 ||
	    f->anchor_kind > BP_ANCHOR_FUNC_IP || f->kind > BP_FETCH_BYTES ||
	    (f->kind != BP_FETCH_VALUE && !f->nderef))
		return false;
	if (!get_expr(r, &f->expr))
		return false;
	/* an expression only where the base says so, and a well-formed one */
	return base == BP_BASE_EXPR ? !bp_expr__check(&f->expr, NULL) : !f->expr.nops;
}

static bool get_point(struct bp_bytes_reader *r, struct bp_point *pt)
{
	char **strs[] = { &pt->binary, &pt->func, &pt->cu, &pt->source, &pt->src_file,
			  &pt->caller, &pt->symbol };
	int32_t line, nentries, nargs;
	uint8_t is_return, is_inline;

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (!bp_bytes__get_str(r, strs[i]))
			return false;
	for (int k = 0; k < BP_MAX_ARGS; k++)
		if (!bp_bytes__get_str(r, &pt->loc_desc[k]) ||
		    !bp_bytes__get_str(r, &pt->type_name[k]) ||
		    !bp_bytes__get_str(r, &pt->arg_name[k]))
			return false;
	if (!GET(r, pt->addr) || !GET(r, pt->offset) || !GET(r, pt->die_off) ||
	    !GET(r, is_return) || !GET(r, is_inline) || !GET(r, line) || !GET(r, nentries) ||
	    !GET(r, pt->entry_offsets) || !GET(r, nargs))
		return false;
	if (!pt->binary || is_return > 1 || is_inline > 1 || nentries < 0 ||
	    nentries > BP_MAX_ENTRY_SAVES || nargs < 0 || nargs > BP_MAX_ARGS)
		return false;
	pt->is_return = is_return;
	pt->is_inline = is_inline;
	pt->src_line = line;
	pt->nentries = nentries;
	pt->plan.nargs = nargs;
	for (int k = 0; k < nargs; k++)
		if (!get_fetch(r, &pt->plan.args[k]))
			return false;
	return true;
}

int bp_points__decode(struct bp_bytes_reader *r, int n, struct bp_point **pts)
{
	struct bp_point *v;

	*pts = NULL;
	/* each point takes more than 64 bytes: a count the bytes cannot
	 * hold is no count */
	if (n < 1 || (size_t)n > (r->size - r->off) / 64)
		return -EINVAL;
	v = calloc(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		if (!get_point(r, &v[i])) {
			bp_points__free(v, i + 1);
			return -EINVAL;
		}
	}
	*pts = v;
	return 0;
}
