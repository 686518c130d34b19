// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Fetch plans: comparison and printing.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "prologue/arch.h"
#include "prologue/plan.h"

/* One bit per dereference step. */
static uint32_t deref_bits(const struct bp_fetch *f)
{
	return f->nderef >= 32 ? ~0U : (1U << f->nderef) - 1;
}

/* Only the low nderef bits of user_mask mean anything. */
static uint32_t fetch_user_bits(const struct bp_fetch *f)
{
	return f->user_mask & deref_bits(f);
}

/* Whether the fetch learns the load bias from its anchor. */
static bool uses_anchor(const struct bp_fetch *f)
{
	return f->base == BP_BASE_ADDR ||
	       (f->base == BP_BASE_EXPR && (bp_expr__has(&f->expr, BP_XOP_ADDR) ||
					    bp_expr__has(&f->expr, BP_XOP_ENTRY_REG)));
}

/*
 * Field-wise, but blind to what the plan's semantics ignore: offsets past
 * nderef and user_mask bits past nderef. Two fetches that compare equal
 * compile to the same instructions, which is what instance sharing needs.
 */
bool bp_fetch__equal(const struct bp_fetch *a, const struct bp_fetch *b)
{
	int i;

	if (a->base != b->base || a->reg != b->reg || a->add != b->add ||
	    a->nderef != b->nderef || a->size != b->size ||
	    a->is_signed != b->is_signed || a->bit_off != b->bit_off ||
	    a->bit_size != b->bit_size || a->kind != b->kind ||
	    a->store_size != b->store_size || a->len != b->len || a->rec_off != b->rec_off)
		return false;
	if (fetch_user_bits(a) != fetch_user_bits(b))
		return false;
	/* the anchor only means something when the bias is needed */
	if (uses_anchor(a) &&
	    (a->anchor != b->anchor || a->anchor_kind != b->anchor_kind))
		return false;
	if (a->base == BP_BASE_EXPR && !bp_expr__equal(&a->expr, &b->expr))
		return false;
	for (i = 0; i < a->nderef && i < BP_MAX_DEREFS; i++) {
		if (a->deref_off[i] != b->deref_off[i])
			return false;
	}
	return true;
}

bool bp_plan__equal(const struct bp_plan *a, const struct bp_plan *b)
{
	int i;

	if (a->nargs != b->nargs || a->record != b->record)
		return false;
	if (a->record && (a->rec_size != b->rec_size || a->err_off != b->err_off))
		return false;
	for (i = 0; i < a->nargs && i < BP_MAX_ARGS; i++) {
		if (!bp_fetch__equal(&a->args[i], &b->args[i]))
			return false;
	}
	return true;
}

bool bp_plan__needs_entry_values(const struct bp_plan *plan)
{
	for (int i = 0; i < plan->nargs && i < BP_MAX_ARGS; i++)
		if (plan->args[i].base == BP_BASE_EXPR &&
		    bp_expr__has(&plan->args[i].expr, BP_XOP_ENTRY_REG))
			return true;
	return false;
}

/*
 * A tiny bounded string builder: keeps appending after truncation so the
 * final length is what snprintf would have returned.
 */
struct strbuf {
	char *buf;
	size_t len;
	size_t pos;
};

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	size_t room = sb->pos < sb->len ? sb->len - sb->pos : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? sb->buf + sb->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		sb->pos += n;
}

/* " + 8" / " - 8"; nothing for 0. */
static void sb_offset(struct strbuf *sb, int64_t v)
{
	if (v > 0)
		sb_printf(sb, " + %" PRId64, v);
	else if (v < 0)
		/* via unsigned so INT64_MIN prints correctly */
		sb_printf(sb, " - %" PRIu64, -(uint64_t)v);
}

static void sb_base(struct strbuf *sb, const struct bp_fetch *f)
{
	const char *name;

	switch (f->base) {
	case BP_BASE_REG:
		name = bp_arch__reg_name(f->reg);
		if (name)
			sb_printf(sb, "%%%s", name);
		else
			sb_printf(sb, "%%dwarf%u", f->reg);
		sb_offset(sb, f->add);
		break;
	case BP_BASE_CONST:
		/* an address when dereferenced, a number otherwise */
		if (f->nderef)
			sb_printf(sb, "0x%" PRIx64, (uint64_t)f->add);
		else
			sb_printf(sb, "const %" PRId64, f->add);
		break;
	case BP_BASE_ADDR:
		/* the link-time address; the bias is added at run time */
		sb_printf(sb, "@0x%" PRIx64, (uint64_t)f->add);
		break;
	case BP_BASE_CTX:
		sb_printf(sb, "ctx[%u]", f->reg);
		sb_offset(sb, f->add);
		break;
	case BP_BASE_EXPR: {
		char text[512];

		bp_expr__format(&f->expr, text, sizeof(text));
		sb_printf(sb, "[%s]", text);
		sb_offset(sb, f->add);
		break;
	}
	default:
		sb_printf(sb, "none");
		break;
	}
}

/* Innermost first: derefs 0..k-1 wrapped around the base. */
static void sb_derefs(struct strbuf *sb, const struct bp_fetch *f, int k)
{
	int size;

	if (k == 0) {
		sb_base(sb, f);
		return;
	}
	size = k == f->nderef ? f->size * 8 : 64;
	if (k == f->nderef && f->kind == BP_FETCH_STRING)
		sb_printf(sb, "str[%u](", f->len);
	else if (k == f->nderef && f->kind == BP_FETCH_BYTES)
		sb_printf(sb, "bytes[%u](", f->len);
	else
		sb_printf(sb, "*(u%d *)(", size);
	sb_derefs(sb, f, k - 1);
	sb_offset(sb, f->deref_off[k - 1]);
	sb_printf(sb, ")");
}

/* e.g. "s32 *(u32 *)(*(u64 *)(%rdi + 8) + 4) [user]" */
int bp_fetch__format(const struct bp_fetch *f, char *buf, size_t len)
{
	struct strbuf sb = { .buf = buf, .len = len };
	uint32_t user = fetch_user_bits(f);
	int nderef = f->nderef < BP_MAX_DEREFS ? f->nderef : BP_MAX_DEREFS;

	if (len)
		buf[0] = '\0';
	if (f->kind == BP_FETCH_USTACK || f->kind == BP_FETCH_KSTACK) {
		sb_printf(&sb, "u64 %s", f->kind == BP_FETCH_KSTACK ? "$kstack (a stack map id)" :
			  f->reg == BP_USTACK_REG_FP ?
			  "$ustack (a user stack sample's id, by frame pointers)" :
			  "$ustack (a user stack sample's id)");
		if (f->store_size)
			sb_printf(&sb, " -> rec+%u (%u bytes)", f->rec_off, f->store_size);
		return (int)sb.pos;
	}
	if (f->kind == BP_FETCH_VALUE)
		sb_printf(&sb, "%c%d ", f->is_signed ? 's' : 'u',
			  f->bit_size ? f->bit_size : f->size * 8);
	sb_derefs(&sb, f, nderef);
	if (f->bit_size)
		sb_printf(&sb, " [bits %u..%u]", f->bit_off,
			  f->bit_off + f->bit_size - 1);
	if (uses_anchor(f))
		sb_printf(&sb, " [load bias: %s - 0x%" PRIx64 "]",
			  f->anchor_kind == BP_ANCHOR_FUNC_IP ? "func_ip" : "ip",
			  f->anchor);
	if (user && user == deref_bits(f))
		sb_printf(&sb, " [user]");
	else if (user)
		sb_printf(&sb, " [user mask 0x%x]", user);
	/* the record ABI: where it lands */
	if (f->kind == BP_FETCH_VALUE && f->store_size)
		sb_printf(&sb, " -> rec+%u (%u bytes)", f->rec_off, f->store_size);
	else if (f->kind != BP_FETCH_VALUE)
		sb_printf(&sb, " -> rec+%u", f->rec_off);
	return (int)sb.pos;
}
