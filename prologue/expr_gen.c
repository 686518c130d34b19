// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Fetch expressions (expr.h) compiled to BPF.
 *
 * The expression's stack lives in 8-byte slots of the BPF stack, slot i at
 * r10 + env->stack_off - 8 * i; each op loads its operands into r0/r1 (r2
 * for a compare's result), computes, and stores its result back. ctx stays
 * in env->ctx_reg (callee-saved) across the helper calls some ops make;
 * r0..r5 are scratch, and the destination register is written last, so
 * it may be one of r3..r5. A failed read, a division by 0 or a missing
 * entry value jumps to the caller's error block (bp_emit__err_jump).
 *
 * Branches (SKIP, BRA) go forward only: the code is as long as the
 * expression, whatever the values.
 *
 * A read followed by a cut to fewer bytes (DEREF, then EXT, as the
 * resolver writes a narrow value read from memory) loads the kept low
 * bytes of the slot the read filled (little-endian), zero-extending, or
 * sign-extending with cpu v4; a cut to as many bytes or more, which a
 * zero-extended read needs not, costs nothing.
 */
#include <errno.h>
#include <string.h>

#include "prologue/arch.h"
#include "prologue/insn_buf.h"
#include "prologue/entry_save.h"
#include "prologue/expr_gen.h"
#include "prologue/insn.h"

struct xgen {
	struct bp_emit *e;
	const struct bp_expr_env *env;
	/* jumps of SKIP/BRA, to the op whose code they reach */
	size_t jump_at[BP_EXPR_MAX_OPS];
	int jump_to[BP_EXPR_MAX_OPS];
	int njumps;
};

static int slot(const struct xgen *x, int i)
{
	return x->env->stack_off - 8 * i;
}

static void ld(struct xgen *x, int reg, int i)
{
	bp_emit(x->e, LDX_MEM(BPF_DW, reg, BPF_REG_10, slot(x, i)));
}

static void st(struct xgen *x, int i, int reg)
{
	bp_emit(x->e, STX_MEM(BPF_DW, BPF_REG_10, reg, slot(x, i)));
}

/* r0 = the run-time address of link-time address addr */
static void emit_biased(struct xgen *x, uint64_t addr, int scratch)
{
	const struct bp_expr_env *env = x->env;

	if (env->anchor_kind == BP_ANCHOR_FUNC_IP) {
		bp_emit(x->e, MOV64_REG(BPF_REG_1, env->ctx_reg));
		bp_emit(x->e, CALL_HELPER(BPF_FUNC_get_func_ip));
		/* kernels before 6.6 know no function address here */
		bp_emit__err_jump(x->e, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	} else {
		bp_emit(x->e, LDX_MEM(BPF_DW, BPF_REG_0, env->ctx_reg,
				      bp_arch__pt_regs_off(bp_arch__ip_reg())));
	}
	bp_emit__add(x->e, BPF_REG_0, addr - env->anchor, scratch);
}

static void gen_const(struct xgen *x, int sp, int64_t v)
{
	if ((int64_t)(int32_t)v == v) {
		bp_emit(x->e, ST_MEM(BPF_DW, BPF_REG_10, slot(x, sp), (int32_t)v));
		return;
	}
	bp_emit__ld_imm64(x->e, BPF_REG_0, (uint64_t)v);
	st(x, sp, BPF_REG_0);
}

/* slot sp - 1 (the CFA) becomes the register's entry value */
static int gen_entry_reg(struct xgen *x, int sp, const struct bp_expr_op *o)
{
	struct bp_emit *e = x->e;

	if (x->env->entry_map_fd < 0 || x->env->anchor_kind != BP_ANCHOR_IP)
		return -EINVAL;
	/* the key {pid_tgid, cfa}: pid_tgid goes in the slot below the CFA */
	bp_emit(e, CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	st(x, sp, BPF_REG_0);
	bp_emit(e, LD_MAP_FD_0(BPF_REG_1, x->env->entry_map_fd));
	bp_emit(e, LD_MAP_FD_1());
	bp_emit(e, MOV64_REG(BPF_REG_2, BPF_REG_10));
	bp_emit(e, ALU64_IMM(BPF_ADD, BPF_REG_2, slot(x, sp)));
	bp_emit(e, CALL_HELPER(BPF_FUNC_map_lookup_elem));
	bp_emit__err_jump(e, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	/* saved by this function's entry, not another's at the same CFA */
	bp_emit(e, LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, BP_ENTRY_VALUE_ENTRY_OFF));
	bp_emit(e, LDX_MEM(BPF_DW, BPF_REG_2, x->env->ctx_reg,
			   bp_arch__pt_regs_off(bp_arch__ip_reg())));
	bp_emit__add(e, BPF_REG_2, (uint64_t)o->imm - x->env->anchor, BPF_REG_3);
	bp_emit__err_jump(e, JMP_REG(BPF_JNE, BPF_REG_1, BPF_REG_2, 0));
	bp_emit(e, LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, BP_ENTRY_VALUE_REG_OFF(o->reg)));
	st(x, sp - 1, BPF_REG_1);
	return 0;
}

/* The read of o; zero_fill: the slot must hold the whole zero-extended
 * value after a narrower read, not only the bytes read. */
static void gen_deref(struct xgen *x, int sp, const struct bp_expr_op *o, bool zero_fill)
{
	struct bp_emit *e = x->e;
	int fn = o->flags & BP_XF_USER ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel;

	ld(x, BPF_REG_3, sp - 1);
	bp_emit__add(e, BPF_REG_3, (uint64_t)o->imm, BPF_REG_1);
	/* a narrower read fills the low bytes: the rest must be 0 */
	if (o->size < 8 && zero_fill)
		bp_emit(e, ST_MEM(BPF_DW, BPF_REG_10, slot(x, sp - 1), 0));
	bp_emit(e, MOV64_REG(BPF_REG_1, BPF_REG_10));
	bp_emit(e, ALU64_IMM(BPF_ADD, BPF_REG_1, slot(x, sp - 1)));
	bp_emit(e, MOV64_IMM(BPF_REG_2, o->size));
	bp_emit(e, CALL_HELPER(fn));
	bp_emit__err_jump(e, JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0));
}

/* r0 = |r0|, r1 = |r1| (as unsigned: |INT64_MIN| is 2^63) */
static void abs_both(struct bp_emit *e)
{
	bp_emit(e, JMP_IMM(BPF_JSGE, BPF_REG_0, 0, 1));
	bp_emit(e, ALU64_IMM(BPF_NEG, BPF_REG_0, 0));
	bp_emit(e, JMP_IMM(BPF_JSGE, BPF_REG_1, 0, 1));
	bp_emit(e, ALU64_IMM(BPF_NEG, BPF_REG_1, 0));
}

/* r0 = r0 / r1 or r0 % r1, signed or not; r1 == 0 fails */
static void gen_divmod(struct xgen *x, int op, bool is_signed)
{
	struct bp_emit *e = x->e;
	int bop = op == BP_XOP_DIV ? BPF_DIV : BPF_MOD;

	bp_emit__err_jump(e, JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 0));
	if (!is_signed) {
		bp_emit(e, ALU64_REG(bop, BPF_REG_0, BPF_REG_1));
		return;
	}
	/* the result's sign: both signs for a quotient, the dividend's for
	 * a remainder (C's truncating division) */
	bp_emit(e, MOV64_REG(BPF_REG_2, BPF_REG_0));
	if (op == BP_XOP_DIV)
		bp_emit(e, ALU64_REG(BPF_XOR, BPF_REG_2, BPF_REG_1));
	abs_both(e);
	bp_emit(e, ALU64_REG(bop, BPF_REG_0, BPF_REG_1));
	bp_emit(e, JMP_IMM(BPF_JSGE, BPF_REG_2, 0, 1));
	bp_emit(e, ALU64_IMM(BPF_NEG, BPF_REG_0, 0));
}

/* r0 = r0 SHIFT r1, a shift by 64 or more giving 0 (or the sign) */
static void gen_shift(struct xgen *x, int op)
{
	struct bp_emit *e = x->e;
	int bop = op == BP_XOP_SHL ? BPF_LSH : op == BP_XOP_SHR ? BPF_RSH : BPF_ARSH;

	bp_emit(e, JMP_IMM(BPF_JGT, BPF_REG_1, 63, 2));
	bp_emit(e, ALU64_REG(bop, BPF_REG_0, BPF_REG_1));
	bp_emit(e, JMP_JA(1));
	if (op == BP_XOP_SHRA)
		bp_emit(e, ALU64_IMM(BPF_ARSH, BPF_REG_0, 63));
	else
		bp_emit(e, MOV64_IMM(BPF_REG_0, 0));
}

static int jmp_of(int op, bool is_signed)
{
	switch (op) {
	case BP_XOP_EQ: return BPF_JEQ;
	case BP_XOP_NE: return BPF_JNE;
	case BP_XOP_LT: return is_signed ? BPF_JSLT : BPF_JLT;
	case BP_XOP_LE: return is_signed ? BPF_JSLE : BPF_JLE;
	case BP_XOP_GT: return is_signed ? BPF_JSGT : BPF_JGT;
	default:	return is_signed ? BPF_JSGE : BPF_JGE;
	}
}

/* a, b -> a OP b: operands in r0/r1, the result back in slot sp - 2 */
static int gen_binary(struct xgen *x, int sp, const struct bp_expr_op *o)
{
	struct bp_emit *e = x->e;
	bool is_signed = o->flags & BP_XF_SIGNED;

	/* with an immediate right operand, a is the top */
	if (o->flags & BP_XF_IMM) {
		sp++;
		ld(x, BPF_REG_0, sp - 2);
		bp_emit__mov_imm(e, BPF_REG_1, (uint64_t)o->imm);
	} else {
		ld(x, BPF_REG_0, sp - 2);
		ld(x, BPF_REG_1, sp - 1);
	}
	switch (o->op) {
	case BP_XOP_ADD: bp_emit(e, ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1)); break;
	case BP_XOP_SUB: bp_emit(e, ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_1)); break;
	case BP_XOP_MUL: bp_emit(e, ALU64_REG(BPF_MUL, BPF_REG_0, BPF_REG_1)); break;
	case BP_XOP_AND: bp_emit(e, ALU64_REG(BPF_AND, BPF_REG_0, BPF_REG_1)); break;
	case BP_XOP_OR:  bp_emit(e, ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_1)); break;
	case BP_XOP_XOR: bp_emit(e, ALU64_REG(BPF_XOR, BPF_REG_0, BPF_REG_1)); break;
	case BP_XOP_DIV:
	case BP_XOP_MOD:
		gen_divmod(x, o->op, is_signed);
		break;
	case BP_XOP_SHL:
	case BP_XOP_SHR:
	case BP_XOP_SHRA:
		gen_shift(x, o->op);
		break;
	case BP_XOP_EQ: case BP_XOP_NE: case BP_XOP_LT:
	case BP_XOP_LE: case BP_XOP_GT: case BP_XOP_GE:
		bp_emit(e, MOV64_IMM(BPF_REG_2, 1));
		bp_emit(e, JMP_REG(jmp_of(o->op, is_signed), BPF_REG_0, BPF_REG_1, 1));
		bp_emit(e, MOV64_IMM(BPF_REG_2, 0));
		st(x, sp - 2, BPF_REG_2);
		return 0;
	default:
		return -EINVAL;
	}
	st(x, sp - 2, BPF_REG_0);
	return 0;
}

/* What an EXT right after a read of size bytes takes. */
enum ext_after_read {
	EXT_CODE,	/* its own code */
	EXT_NONE,	/* nothing: the read zero-extended what it keeps */
	EXT_RELOAD,	/* a narrow load of the slot the read filled */
};

static enum ext_after_read ext_after_read(const struct xgen *x, int size,
					  const struct bp_expr_op *ext)
{
	bool is_signed = ext->flags & BP_XF_SIGNED;
	int bytes = ext->size;

	/* a wider cut changes nothing (the kept top bit is 0), nor an
	 * unsigned one as wide */
	if (bytes > size || (bytes == size && !is_signed))
		return EXT_NONE;
	if ((bytes == 1 || bytes == 2 || bytes == 4) && (!is_signed || x->env->cpu_v4))
		return EXT_RELOAD;
	return EXT_CODE;
}

/* slot sp - 1 = its low bytes, extended, after a read filled them */
static void gen_reload(struct xgen *x, int sp, const struct bp_expr_op *ext)
{
	int size = bp_emit__size(ext->size), off = slot(x, sp - 1);

	if (ext->flags & BP_XF_SIGNED)
		bp_emit(x->e, LDX_MEMSX(size, BPF_REG_0, BPF_REG_10, off));
	else
		bp_emit(x->e, LDX_MEM(size, BPF_REG_0, BPF_REG_10, off));
	st(x, sp - 1, BPF_REG_0);
}

/* r0 = its low bits, extended */
static void gen_ext(struct xgen *x, int bytes, bool is_signed)
{
	struct bp_emit *e = x->e;
	int sh = 64 - bytes * 8;

	if (is_signed && x->env->cpu_v4 && (bytes == 1 || bytes == 2 || bytes == 4)) {
		bp_emit(e, MOVSX64_REG(BPF_REG_0, BPF_REG_0, bytes * 8));
	} else if (is_signed) {
		bp_emit(e, ALU64_IMM(BPF_LSH, BPF_REG_0, sh));
		bp_emit(e, ALU64_IMM(BPF_ARSH, BPF_REG_0, sh));
	} else if (bytes < 4) {
		bp_emit(e, ALU64_IMM(BPF_AND, BPF_REG_0, (int32_t)((1U << (bytes * 8)) - 1)));
	} else if (bytes == 4) {
		bp_emit(e, ALU32_REG(BPF_MOV, BPF_REG_0, BPF_REG_0));
	} else {
		bp_emit(e, ALU64_IMM(BPF_LSH, BPF_REG_0, sh));
		bp_emit(e, ALU64_IMM(BPF_RSH, BPF_REG_0, sh));
	}
}

static int gen_unary(struct xgen *x, int sp, const struct bp_expr_op *o)
{
	struct bp_emit *e = x->e;

	ld(x, BPF_REG_0, sp - 1);
	switch (o->op) {
	case BP_XOP_PLUS_CONST:
		bp_emit__add(e, BPF_REG_0, (uint64_t)o->imm, BPF_REG_1);
		break;
	case BP_XOP_NEG:
		bp_emit(e, ALU64_IMM(BPF_NEG, BPF_REG_0, 0));
		break;
	case BP_XOP_NOT:
		bp_emit(e, ALU64_IMM(BPF_XOR, BPF_REG_0, -1));
		break;
	case BP_XOP_ABS:
		bp_emit(e, JMP_IMM(BPF_JSGE, BPF_REG_0, 0, 1));
		bp_emit(e, ALU64_IMM(BPF_NEG, BPF_REG_0, 0));
		break;
	case BP_XOP_EXT:
		gen_ext(x, o->size, o->flags & BP_XF_SIGNED);
		break;
	default:
		return -EINVAL;
	}
	st(x, sp - 1, BPF_REG_0);
	return 0;
}

static void gen_stack(struct xgen *x, int sp, const struct bp_expr_op *o)
{
	switch (o->op) {
	case BP_XOP_DUP:
		ld(x, BPF_REG_0, sp - 1);
		st(x, sp, BPF_REG_0);
		break;
	case BP_XOP_OVER:
		ld(x, BPF_REG_0, sp - 2);
		st(x, sp, BPF_REG_0);
		break;
	case BP_XOP_PICK:
		ld(x, BPF_REG_0, sp - 1 - (int)o->imm);
		st(x, sp, BPF_REG_0);
		break;
	case BP_XOP_SWAP:
		ld(x, BPF_REG_0, sp - 1);
		ld(x, BPF_REG_1, sp - 2);
		st(x, sp - 1, BPF_REG_1);
		st(x, sp - 2, BPF_REG_0);
		break;
	case BP_XOP_ROT:
		/* x y z -> z x y */
		ld(x, BPF_REG_0, sp - 3);
		ld(x, BPF_REG_1, sp - 2);
		ld(x, BPF_REG_2, sp - 1);
		st(x, sp - 3, BPF_REG_2);
		st(x, sp - 2, BPF_REG_0);
		st(x, sp - 1, BPF_REG_1);
		break;
	default:	/* DROP: the slot is simply left behind */
		break;
	}
}

static void add_jump(struct xgen *x, int to, struct bpf_insn insn)
{
	x->jump_at[x->njumps] = x->e->n;
	x->jump_to[x->njumps] = to;
	x->njumps++;
	bp_emit(x->e, insn);
}

/* One op, with sp values on the stack before it. */
static int gen_op(struct xgen *x, int i, int sp)
{
	const struct bp_expr_op *o = &x->env->expr->ops[i];
	struct bp_emit *e = x->e;

	switch (o->op) {
	case BP_XOP_REG:
		bp_emit(e, LDX_MEM(BPF_DW, BPF_REG_0, x->env->ctx_reg,
				   bp_arch__pt_regs_off(o->reg)));
		bp_emit__add(e, BPF_REG_0, (uint64_t)o->imm, BPF_REG_1);
		st(x, sp, BPF_REG_0);
		return 0;
	case BP_XOP_CONST:
		gen_const(x, sp, o->imm);
		return 0;
	case BP_XOP_ADDR:
		emit_biased(x, (uint64_t)o->imm, BPF_REG_1);
		st(x, sp, BPF_REG_0);
		return 0;
	case BP_XOP_TASK:
		bp_emit(e, CALL_HELPER(BPF_FUNC_get_current_task));
		st(x, sp, BPF_REG_0);
		return 0;
	case BP_XOP_ENTRY_REG:
		return gen_entry_reg(x, sp, o);
	case BP_XOP_DEREF:
		gen_deref(x, sp, o, true);
		return 0;
	case BP_XOP_SKIP:
		add_jump(x, i + 1 + (int)o->imm, JMP_JA(0));
		return 0;
	case BP_XOP_BRA:
		ld(x, BPF_REG_0, sp - 1);
		add_jump(x, i + 1 + (int)o->imm, JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0));
		return 0;
	case BP_XOP_DUP: case BP_XOP_DROP: case BP_XOP_SWAP:
	case BP_XOP_OVER: case BP_XOP_ROT: case BP_XOP_PICK:
		gen_stack(x, sp, o);
		return 0;
	case BP_XOP_PLUS_CONST: case BP_XOP_NEG: case BP_XOP_NOT:
	case BP_XOP_ABS: case BP_XOP_EXT:
		return gen_unary(x, sp, o);
	default:
		return gen_binary(x, sp, o);
	}
}

/* Marks the ops a SKIP or BRA reaches, in target[0..nops]. */
static void jump_targets(const struct bp_expr *expr, const int *depth, bool *target)
{
	memset(target, 0, (expr->nops + 1) * sizeof(*target));
	for (int i = 0; i < expr->nops; i++) {
		const struct bp_expr_op *o = &expr->ops[i];

		if (depth[i] >= 0 && (o->op == BP_XOP_SKIP || o->op == BP_XOP_BRA))
			target[i + 1 + o->imm] = true;
	}
}

/*
 * Op i, a read, and the EXT after it (no branch lands between) as one:
 * true when done, having emitted both, false when each needs its code.
 */
static bool gen_read_and_cut(struct xgen *x, int i, int sp)
{
	const struct bp_expr_op *o = &x->env->expr->ops[i];

	switch (ext_after_read(x, o->size, o + 1)) {
	case EXT_NONE:
		gen_deref(x, sp, o, true);
		return true;
	case EXT_RELOAD:
		gen_deref(x, sp, o, false);
		gen_reload(x, sp, o + 1);
		return true;
	default:
		return false;
	}
}

int bp_expr__gen(struct bp_emit *e, const struct bp_expr_env *env, int dst)
{
	struct xgen x = { .e = e, .env = env };
	int depth[BP_EXPR_MAX_OPS + 1];
	size_t start[BP_EXPR_MAX_OPS + 1];
	bool target[BP_EXPR_MAX_OPS + 1];
	const struct bp_expr_op *ops = env->expr->ops;
	int i, err, n = env->expr->nops;

	err = bp_expr__depths(env->expr, depth);
	if (err)
		return err;
	jump_targets(env->expr, depth, target);
	for (i = 0; i < n; i++) {
		start[i] = e->n;
		if (depth[i] < 0)
			continue;	/* every path skips it */
		if (ops[i].op == BP_XOP_DEREF && i + 1 < n && ops[i + 1].op == BP_XOP_EXT &&
		    !target[i + 1] && gen_read_and_cut(&x, i, depth[i])) {
			start[++i] = e->n;
			continue;
		}
		err = gen_op(&x, i, depth[i]);
		if (err)
			return err;
	}
	start[n] = e->n;
	for (i = 0; i < x.njumps; i++)
		bp_emit__patch(e, x.jump_at[i], start[x.jump_to[i]]);
	if (dst >= 0)
		bp_emit(e, LDX_MEM(BPF_DW, dst, BPF_REG_10, slot(&x, 0)));
	return 0;
}
