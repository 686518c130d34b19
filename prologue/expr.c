// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Fetch expressions (expr.h): checking, comparing, building, printing.
 * Compiling them to BPF is expr_gen.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "prologue/arch.h"
#include "prologue/expr.h"

/* How many values an op pops and pushes. */
static const struct {
	const char *name;
	int8_t pop, push;
} xops[BP_XOP_MAX] = {
	[BP_XOP_REG]		= { "reg", 0, 1 },
	[BP_XOP_CONST]		= { "const", 0, 1 },
	[BP_XOP_ADDR]		= { "addr", 0, 1 },
	[BP_XOP_TASK]		= { "task", 0, 1 },
	[BP_XOP_ENTRY_REG]	= { "entry", 1, 1 },
	[BP_XOP_DEREF]		= { "deref", 1, 1 },
	[BP_XOP_PLUS_CONST]	= { "plus", 1, 1 },
	[BP_XOP_ADD]		= { "+", 2, 1 },
	[BP_XOP_SUB]		= { "-", 2, 1 },
	[BP_XOP_MUL]		= { "*", 2, 1 },
	[BP_XOP_DIV]		= { "/", 2, 1 },
	[BP_XOP_MOD]		= { "%", 2, 1 },
	[BP_XOP_AND]		= { "&", 2, 1 },
	[BP_XOP_OR]		= { "|", 2, 1 },
	[BP_XOP_XOR]		= { "^", 2, 1 },
	[BP_XOP_SHL]		= { "<<", 2, 1 },
	[BP_XOP_SHR]		= { ">>", 2, 1 },
	[BP_XOP_SHRA]		= { "s>>", 2, 1 },
	[BP_XOP_EQ]		= { "==", 2, 1 },
	[BP_XOP_NE]		= { "!=", 2, 1 },
	[BP_XOP_LT]		= { "<", 2, 1 },
	[BP_XOP_LE]		= { "<=", 2, 1 },
	[BP_XOP_GT]		= { ">", 2, 1 },
	[BP_XOP_GE]		= { ">=", 2, 1 },
	[BP_XOP_NEG]		= { "neg", 1, 1 },
	[BP_XOP_NOT]		= { "not", 1, 1 },
	[BP_XOP_ABS]		= { "abs", 1, 1 },
	[BP_XOP_EXT]		= { "ext", 1, 1 },
	[BP_XOP_DUP]		= { "dup", 1, 2 },
	[BP_XOP_DROP]		= { "drop", 1, 0 },
	[BP_XOP_SWAP]		= { "swap", 2, 2 },
	[BP_XOP_OVER]		= { "over", 2, 3 },
	[BP_XOP_ROT]		= { "rot", 3, 3 },
	[BP_XOP_PICK]		= { "pick", 0, 1 },	/* needs imm + 1 below */
	[BP_XOP_SKIP]		= { "skip", 0, 0 },
	[BP_XOP_BRA]		= { "bra", 1, 0 },
};

const char *bp_xop__name(int op)
{
	if (op <= BP_XOP_NONE || op >= BP_XOP_MAX)
		return "?";
	return xops[op].name;
}

static bool is_compare(int op)
{
	return op >= BP_XOP_EQ && op <= BP_XOP_GE;
}

static bool is_binary(int op)
{
	return op >= BP_XOP_ADD && op <= BP_XOP_GE;
}

/* Operands of one op, whatever the stack. */
static bool op_valid(const struct bp_expr_op *o)
{
	switch (o->op) {
	case BP_XOP_REG:
	case BP_XOP_ENTRY_REG:
		return bp_arch__pt_regs_off(o->reg) >= 0;
	case BP_XOP_DEREF:
		return o->size == 1 || o->size == 2 || o->size == 4 || o->size == 8;
	case BP_XOP_EXT:
		return o->size >= 1 && o->size <= 7;
	case BP_XOP_PICK:
		return o->imm >= 0 && o->imm < BP_EXPR_MAX_DEPTH;
	case BP_XOP_SKIP:
	case BP_XOP_BRA:
		return o->imm >= 0 && o->imm <= BP_EXPR_MAX_OPS;
	default:
		return o->op > BP_XOP_NONE && o->op < BP_XOP_MAX;
	}
}

/* Walks expr with the stack depth at each op (-1: not reached). */
static int walk(const struct bp_expr *expr, int *depth, int *bad, int *max_depth)
{
	int i, n = expr->nops, d, after, pop, push, to;

	*bad = 0;
	*max_depth = 0;
	if (n > BP_EXPR_MAX_OPS || n == 0) {
		*bad = 0;
		return -EINVAL;
	}
	for (i = 0; i <= n; i++)
		depth[i] = -1;
	depth[0] = 0;
	for (i = 0; i < n; i++) {
		const struct bp_expr_op *o = &expr->ops[i];

		*bad = i;
		d = depth[i];
		if (d < 0)
			continue;	/* skipped over by every path */
		if (!op_valid(o))
			return -EINVAL;
		pop = xops[o->op].pop;
		push = xops[o->op].push;
		if (o->op == BP_XOP_PICK)
			pop = (int)o->imm + 1, push = pop + 1;
		else if (is_binary(o->op) && (o->flags & BP_XF_IMM))
			pop = 1;
		if (d < pop)
			return -EINVAL;
		after = d - pop + push;
		if (after > BP_EXPR_MAX_DEPTH)
			return -EINVAL;
		if (after > *max_depth)
			*max_depth = after;
		if (o->op == BP_XOP_SKIP || o->op == BP_XOP_BRA) {
			to = i + 1 + (int)o->imm;
			if (to > n || (depth[to] >= 0 && depth[to] != after))
				return -EINVAL;
			depth[to] = after;
			if (o->op == BP_XOP_SKIP)
				continue;
		}
		if (depth[i + 1] >= 0 && depth[i + 1] != after)
			return -EINVAL;
		depth[i + 1] = after;
	}
	*bad = n;
	return depth[n] == 1 ? 0 : -EINVAL;
}

int bp_expr__check(const struct bp_expr *expr, int *bad)
{
	int depth[BP_EXPR_MAX_OPS + 1];
	int max, b;

	return walk(expr, depth, bad ? bad : &b, &max);
}

int bp_expr__depths(const struct bp_expr *expr, int *depth)
{
	int max, bad;

	return walk(expr, depth, &bad, &max);
}

int bp_expr__max_depth(const struct bp_expr *expr)
{
	int depth[BP_EXPR_MAX_OPS + 1];
	int max, bad;

	walk(expr, depth, &bad, &max);
	return max;
}

bool bp_expr__has(const struct bp_expr *expr, enum bp_xop op)
{
	for (int i = 0; i < expr->nops && i < BP_EXPR_MAX_OPS; i++)
		if (expr->ops[i].op == op)
			return true;
	return false;
}

bool bp_expr__needs_call(const struct bp_expr *expr)
{
	return bp_expr__has(expr, BP_XOP_DEREF) || bp_expr__has(expr, BP_XOP_TASK) ||
	       bp_expr__has(expr, BP_XOP_ENTRY_REG);
}

/* Field by field, blind to what an op's kind ignores. */
static bool op_equal(const struct bp_expr_op *a, const struct bp_expr_op *b)
{
	if (a->op != b->op)
		return false;
	if (is_binary(a->op) && ((a->flags ^ b->flags) & BP_XF_IMM))
		return false;
	if (is_binary(a->op) && (a->flags & BP_XF_IMM) && a->imm != b->imm)
		return false;
	switch (a->op) {
	case BP_XOP_REG:
		return a->reg == b->reg && a->imm == b->imm;
	case BP_XOP_ENTRY_REG:
		return a->reg == b->reg && a->imm == b->imm;
	case BP_XOP_DEREF:
		return a->size == b->size && a->imm == b->imm &&
		       (a->flags & BP_XF_USER) == (b->flags & BP_XF_USER);
	case BP_XOP_EXT:
		return a->size == b->size && (a->flags & BP_XF_SIGNED) == (b->flags & BP_XF_SIGNED);
	case BP_XOP_DIV:
	case BP_XOP_MOD:
		return (a->flags & BP_XF_SIGNED) == (b->flags & BP_XF_SIGNED);
	case BP_XOP_CONST:
	case BP_XOP_ADDR:
	case BP_XOP_PLUS_CONST:
	case BP_XOP_PICK:
	case BP_XOP_SKIP:
	case BP_XOP_BRA:
		return a->imm == b->imm;
	default:
		if (is_compare(a->op))
			return (a->flags & BP_XF_SIGNED) == (b->flags & BP_XF_SIGNED);
		return true;
	}
}

bool bp_expr__equal(const struct bp_expr *a, const struct bp_expr *b)
{
	if (a->nops != b->nops)
		return false;
	for (int i = 0; i < a->nops && i < BP_EXPR_MAX_OPS; i++)
		if (!op_equal(&a->ops[i], &b->ops[i]))
			return false;
	return true;
}

bool bp_expr__push(struct bp_expr *expr, enum bp_xop op, uint8_t reg, uint8_t size,
		   uint8_t flags, int64_t imm)
{
	if (expr->nops >= BP_EXPR_MAX_OPS)
		return false;
	expr->ops[expr->nops++] = (struct bp_expr_op){
		.op = op, .reg = reg, .size = size, .flags = flags, .imm = imm,
	};
	return true;
}

bool bp_expr__append(struct bp_expr *expr, const struct bp_expr *tail)
{
	if (expr->nops + tail->nops > BP_EXPR_MAX_OPS)
		return false;
	memcpy(&expr->ops[expr->nops], tail->ops, tail->nops * sizeof(tail->ops[0]));
	expr->nops += tail->nops;
	return true;
}

/* One op as text; returns snprintf's value. */
static int format_op(const struct bp_expr_op *o, char *buf, size_t len)
{
	const char *name = bp_xop__name(o->op);
	const char *s = o->flags & BP_XF_SIGNED ? "s" : "";
	char rb[16];

	if (is_binary(o->op) && (o->flags & BP_XF_IMM))
		return snprintf(buf, len, "%" PRId64 " %s%s", o->imm,
				o->op == BP_XOP_DIV || o->op == BP_XOP_MOD || is_compare(o->op) ? s : "",
				name);
	switch (o->op) {
	case BP_XOP_REG:
		if (o->imm)
			return snprintf(buf, len, "%%%s %" PRId64 " +",
					bp_arch__reg_text(o->reg, rb, sizeof(rb)), o->imm);
		return snprintf(buf, len, "%%%s", bp_arch__reg_text(o->reg, rb, sizeof(rb)));
	case BP_XOP_CONST:
		return snprintf(buf, len, "%" PRId64, o->imm);
	case BP_XOP_ADDR:
		return snprintf(buf, len, "@0x%" PRIx64, (uint64_t)o->imm);
	case BP_XOP_ENTRY_REG:
		return snprintf(buf, len, "entry(%%%s@0x%" PRIx64 ")",
				bp_arch__reg_text(o->reg, rb, sizeof(rb)), (uint64_t)o->imm);
	case BP_XOP_DEREF:
		if (o->imm)
			return snprintf(buf, len, "%" PRId64 " + *u%d%s", o->imm, o->size * 8,
					o->flags & BP_XF_USER ? "" : "k");
		return snprintf(buf, len, "*u%d%s", o->size * 8,
				o->flags & BP_XF_USER ? "" : "k");
	case BP_XOP_PLUS_CONST:
		return snprintf(buf, len, "%" PRId64 " +", o->imm);
	case BP_XOP_EXT:
		return snprintf(buf, len, "%s%d", *s ? "sext" : "zext", o->size * 8);
	case BP_XOP_PICK:
	case BP_XOP_SKIP:
	case BP_XOP_BRA:
		return snprintf(buf, len, "%s %" PRId64, name, o->imm);
	case BP_XOP_DIV:
	case BP_XOP_MOD:
		return snprintf(buf, len, "%s%s", s, name);
	default:
		if (is_compare(o->op))
			return snprintf(buf, len, "%s%s", s, name);
		return snprintf(buf, len, "%s", name);
	}
}

int bp_expr__format(const struct bp_expr *expr, char *buf, size_t len)
{
	size_t pos = 0;
	char one[64];
	int i, n;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < expr->nops && i < BP_EXPR_MAX_OPS; i++) {
		format_op(&expr->ops[i], one, sizeof(one));
		n = snprintf(pos < len ? buf + pos : NULL, pos < len ? len - pos : 0, "%s%s",
			     i ? " " : "", one);
		if (n > 0)
			pos += n;
	}
	return (int)pos;
}
