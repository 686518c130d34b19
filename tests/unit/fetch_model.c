// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The reference model of fetch plans and expressions (fetch_model.h). */
#include <string.h>

#include "prologue/arch_x86_64.h"
#include "prologue/entry_save.h"
#include "tests/unit/fetch_model.h"

uint64_t ref_extend(uint64_t v, int width, bool is_signed)
{
	uint64_t mask;

	if (width >= 64)
		return v;
	mask = (1ULL << width) - 1;
	v &= mask;
	if (is_signed && (v & (1ULL << (width - 1))))
		v |= ~mask;
	return v;
}

static uint64_t reg_of(const struct model_env *env, int reg)
{
	return env->regs->w[pt_off[reg] / 8];
}

/* The load bias's anchor at run time; false when unknown (func_ip 0). */
static bool anchor_now(const struct bp_fetch *f, const struct model_env *env, uint64_t *a)
{
	if (f->anchor_kind == BP_ANCHOR_FUNC_IP) {
		*a = fake_func_ip;
		return fake_func_ip != 0;
	}
	*a = reg_of(env, BP_REG_RIP);
	return true;
}

/* |v| as an unsigned number: |INT64_MIN| is 2^63 */
static uint64_t uabs(uint64_t v)
{
	return (int64_t)v < 0 ? -v : v;
}

static uint64_t binary(int op, bool is_signed, uint64_t a, uint64_t b, bool *ok)
{
	int64_t sa = (int64_t)a, sb = (int64_t)b;
	uint64_t q;

	switch (op) {
	case BP_XOP_ADD: return a + b;
	case BP_XOP_SUB: return a - b;
	case BP_XOP_MUL: return a * b;
	case BP_XOP_AND: return a & b;
	case BP_XOP_OR: return a | b;
	case BP_XOP_XOR: return a ^ b;
	case BP_XOP_DIV:
	case BP_XOP_MOD:
		if (!b) {
			*ok = false;
			return 0;
		}
		if (!is_signed)
			return op == BP_XOP_DIV ? a / b : a % b;
		/* truncating, as C; INT64_MIN / -1 wraps to INT64_MIN */
		q = op == BP_XOP_DIV ? uabs(a) / uabs(b) : uabs(a) % uabs(b);
		if (op == BP_XOP_DIV ? (sa < 0) != (sb < 0) : sa < 0)
			q = -q;
		return q;
	case BP_XOP_SHL: return b > 63 ? 0 : a << b;
	case BP_XOP_SHR: return b > 63 ? 0 : a >> b;
	case BP_XOP_SHRA: return (uint64_t)(sa >> (b > 63 ? 63 : b));
	case BP_XOP_EQ: return a == b;
	case BP_XOP_NE: return a != b;
	case BP_XOP_LT: return is_signed ? sa < sb : a < b;
	case BP_XOP_LE: return is_signed ? sa <= sb : a <= b;
	case BP_XOP_GT: return is_signed ? sa > sb : a > b;
	case BP_XOP_GE: return is_signed ? sa >= sb : a >= b;
	}
	*ok = false;
	return 0;
}

/* The value reg had at the entry (BP_XOP_ENTRY_REG), from the fake map. */
static bool entry_reg(const struct bp_fetch *f, const struct bp_expr_op *o,
		      const struct model_env *env, uint64_t cfa, uint64_t *out)
{
	struct fake_entry *e = fake_entry_find(env->pid_tgid, cfa);
	uint64_t saved, entry = reg_of(env, BP_REG_RIP) - f->anchor + (uint64_t)o->imm;

	if (!e)
		return false;
	memcpy(&saved, e->value + BP_ENTRY_VALUE_ENTRY_OFF, 8);
	if (saved != entry)
		return false;
	memcpy(out, e->value + BP_ENTRY_VALUE_REG_OFF(o->reg), 8);
	return true;
}

bool ref_expr(const struct bp_fetch *f, const struct model_env *env, uint64_t *out)
{
	const struct bp_expr *x = &f->expr;
	uint64_t st[BP_EXPR_MAX_DEPTH + 1], a, b, t;
	int sp = 0, i;
	bool ok = true;

	for (i = 0; i < x->nops; i++) {
		const struct bp_expr_op *o = &x->ops[i];
		bool is_signed = o->flags & BP_XF_SIGNED;

		switch (o->op) {
		case BP_XOP_REG: st[sp++] = reg_of(env, o->reg) + (uint64_t)o->imm; break;
		case BP_XOP_CONST: st[sp++] = (uint64_t)o->imm; break;
		case BP_XOP_ADDR:
			if (!anchor_now(f, env, &a))
				return false;
			st[sp++] = a - f->anchor + (uint64_t)o->imm;
			break;
		case BP_XOP_TASK: st[sp++] = fake_task; break;
		case BP_XOP_ENTRY_REG:
			if (!entry_reg(f, o, env, st[sp - 1], &st[sp - 1]))
				return false;
			break;
		case BP_XOP_DEREF:
			t = 0;
			if (!fake_read(o->flags & BP_XF_USER, st[sp - 1] + (uint64_t)o->imm,
				       o->size, &t))
				return false;
			st[sp - 1] = t;
			break;
		case BP_XOP_PLUS_CONST: st[sp - 1] += (uint64_t)o->imm; break;
		case BP_XOP_NEG: st[sp - 1] = -st[sp - 1]; break;
		case BP_XOP_NOT: st[sp - 1] = ~st[sp - 1]; break;
		case BP_XOP_ABS: st[sp - 1] = uabs(st[sp - 1]); break;
		case BP_XOP_EXT:
			st[sp - 1] = ref_extend(st[sp - 1], o->size * 8, is_signed);
			break;
		case BP_XOP_DUP: st[sp] = st[sp - 1]; sp++; break;
		case BP_XOP_DROP: sp--; break;
		case BP_XOP_OVER: st[sp] = st[sp - 2]; sp++; break;
		case BP_XOP_PICK: st[sp] = st[sp - 1 - o->imm]; sp++; break;
		case BP_XOP_SWAP:
			t = st[sp - 1], st[sp - 1] = st[sp - 2], st[sp - 2] = t;
			break;
		case BP_XOP_ROT:	/* x y z -> z x y */
			t = st[sp - 1];
			st[sp - 1] = st[sp - 2];
			st[sp - 2] = st[sp - 3];
			st[sp - 3] = t;
			break;
		case BP_XOP_SKIP: i += (int)o->imm; break;
		case BP_XOP_BRA:
			if (st[--sp])
				i += (int)o->imm;
			break;
		default:
			b = o->flags & BP_XF_IMM ? (uint64_t)o->imm : st[--sp];
			a = st[--sp];
			st[sp++] = binary(o->op, is_signed, a, b, &ok);
			if (!ok)
				return false;
		}
	}
	*out = st[0];
	return true;
}

bool ref_fetch(const struct bp_fetch *f, const struct model_env *env, uint64_t *out)
{
	uint64_t v = f->base == BP_BASE_REG ? reg_of(env, f->reg) : 0;
	int k;

	/* at fentry, ctx is the arguments' u64 array */
	if (f->base == BP_BASE_CTX)
		v = env->regs->w[f->reg];
	/* a link-time address moved by the load bias: anchor's run-time
	 * address minus its link-time one */
	if (f->base == BP_BASE_ADDR) {
		if (!anchor_now(f, env, &v))
			return false;
		v -= f->anchor;
	}
	if (f->base == BP_BASE_EXPR && !ref_expr(f, env, &v))
		return false;
	v += (uint64_t)f->add;
	for (k = 0; k < f->nderef; k++) {
		uint64_t word = 0;
		int size = k == f->nderef - 1 ? f->size : 8;

		if (!fake_read(f->user_mask & (1U << k),
			       v + (uint64_t)(int64_t)f->deref_off[k], size, &word))
			return false;
		v = word;
	}
	if (f->bit_size) {
		v >>= f->bit_off;
		*out = ref_extend(v, f->bit_size, f->is_signed);
	} else {
		*out = ref_extend(v, f->size * 8, f->is_signed);
	}
	return true;
}

void ref_plan(const struct bp_plan *plan, const struct model_env *env, uint64_t want[6])
{
	int i;

	memset(want, 0, 6 * sizeof(*want));
	for (i = 0; i < plan->nargs; i++) {
		if (!ref_fetch(&plan->args[i], env, &want[3 + i])) {
			memset(want, 0, 6 * sizeof(*want));
			want[2] = 1;
			return;
		}
	}
}
