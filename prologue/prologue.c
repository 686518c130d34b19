// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The prologue generator: compiles a fetch plan (prologue/plan.h) to BPF
 * instructions that leave the fetched arguments in r3..r5.
 *
 * Two shapes:
 *
 *  - No argument dereferences memory: nothing can fail and no helper is
 *    called, so each argument is loaded straight from ctx (r1) into its
 *    output register and extended there. No stack, no error path.
 *
 *  - Some argument calls a helper (it dereferences memory, or it is a
 *    global at a uretprobe, whose load bias comes from bpf_get_func_ip()),
 *    or is an expression (expr_gen.c, its stack below r10-24):
 *    ctx is kept in r6 across the calls, each read lands in the 8-byte
 *    slot at r10-8, and a finished argument waits in r7..r9 (callee-saved)
 *    until no more calls follow. The last such argument and all the
 *    others are computed directly in r3..r5 after the final call. A failed
 *    read (or a zero function address) jumps to a shared error block.
 *
 * At fentry/fexit the arguments are the u64 array ctx points to, not
 * pt_regs: a BP_BASE_CTX fetch loads its slot (ctx + 8 * index).
 *
 * A value narrower than 64 bits is loaded narrow where it sits whole and
 * aligned (pt_regs, and the stack slot a read filled, are little-endian:
 * the low bytes of a register are at its offset): the load zero-extends,
 * and with cpu v4 (bp_prologue_opts.cpu_v4) a BPF_MEMSX load sign-extends.
 * Else it is loaded whole and cut to size: a sign-extending move with cpu
 * v4, two shifts without. So `int a, long b, unsigned short c` in registers
 * costs one load each.
 *
 * A global's address is its link-time address plus the load bias of the
 * probed object, which is the run-time address of the probe point minus
 * its link-time address (the plan's anchor): pt_regs ip at a uprobe, which
 * the kernel sets to the probed instruction, or bpf_get_func_ip() at a
 * uretprobe, where ip is already the return address in the caller.
 *
 * The layout of the second shape:
 *
 *	r6 = r1
 *	<fetch dereferencing args>	; on failure: goto err
 *	<move/compute args into r3..r5>
 *	r2 = 0
 *	goto unused
 *   err:
 *	r2 = 1
 *	r3.. = 0			; one per used arg
 *   unused:
 *	r(3+nargs).. = 0		; unused args, shared by both paths
 *	r1 = r6
 *	<program body>
 *
 * Registers the program never reads (unread: its prototype does
 * not declare them, or its body writes them before any read) are left
 * alone, except r2 and the fetched arguments of the second shape: a
 * failed read must still reach r2, and perf sets them the same way.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "prologue/arch.h"
#include "prologue/insn_buf.h"
#include "prologue/expr_gen.h"
#include "prologue/insn.h"
#include "prologue/prologue.h"

/* The stack slot every read lands in. */
#define SLOT_OFF	(-8)
/* Expressions keep their stack below the 8 bytes guards use at r10-16. */
#define EXPR_STACK_OFF	(-24)
/* Scratch for 64-bit immediates; always rewritten before it matters. */
#define SCRATCH_REG	BPF_REG_2
#define CTX_SAVE_REG	BPF_REG_6

struct gen {
	struct bp_emit e;	/* the instructions, the jumps to err */
	/* registers of r1..r5 the program never reads (bp_prologue__gen) */
	uint8_t unread;
	int entry_map_fd;	/* entry values' map, or -1 */
	bool cpu_v4;		/* sign-extending loads and moves (prologue.h) */
	int err;		/* an expression that cannot be compiled */
	/* r9 = r10 - 8 once, when there are enough reads to pay for it:
	 * each read then points r1 at the slot in one move, not two. r9 is
	 * free: only arguments before the last reading one wait in r7+i. */
	bool slot_in_r9;
};

#define SLOT_REG	BPF_REG_9
/* the saving is one instruction a read, the setup costs two */
#define SLOT_REG_MIN_READS 3

static void emit(struct gen *g, struct bpf_insn insn)
{
	bp_emit(&g->e, insn);
}

static void emit_mov_imm(struct gen *g, int dst, uint64_t v)
{
	bp_emit__mov_imm(&g->e, dst, v);
}

/* dst += v (mod 2^64) */
static void emit_add(struct gen *g, int dst, uint64_t v)
{
	bp_emit__add(&g->e, dst, v, SCRATCH_REG);
}

/*
 * Truncates dst to its low 'width' bits and extends it back to 64 bits.
 * 'known' is how many low bits may be non-zero already (an LDX of N bytes
 * zero-extends), so unsigned values that are already clean cost nothing.
 */
static void emit_extend(struct gen *g, int dst, int width, bool is_signed,
			int known)
{
	if (width >= 64)
		return;
	if (is_signed && g->cpu_v4 && (width == 8 || width == 16 || width == 32)) {
		emit(g, MOVSX64_REG(dst, dst, width));
	} else if (is_signed) {
		emit(g, ALU64_IMM(BPF_LSH, dst, 64 - width));
		emit(g, ALU64_IMM(BPF_ARSH, dst, 64 - width));
	} else if (known <= width) {
		return;
	} else if (width == 32) {
		emit(g, ALU32_REG(BPF_MOV, dst, dst));
	} else if (width < 32) {
		emit(g, ALU64_IMM(BPF_AND, dst, (int32_t)((1U << width) - 1)));
	} else {
		emit(g, ALU64_IMM(BPF_LSH, dst, 64 - width));
		emit(g, ALU64_IMM(BPF_RSH, dst, 64 - width));
	}
}

/* Bitfield extraction (if any), then the final truncation/extension. */
static void emit_finish(struct gen *g, int dst, const struct bp_fetch *f,
			int known)
{
	int top = f->bit_off + f->bit_size;

	if (!f->bit_size) {
		emit_extend(g, dst, f->size * 8, f->is_signed, known);
		return;
	}
	if (f->is_signed && !f->bit_off) {
		emit_extend(g, dst, f->bit_size, true, known);
	} else if (f->is_signed) {
		/* move the field's top bit to bit 63, then shift it back down */
		if (top < 64)
			emit(g, ALU64_IMM(BPF_LSH, dst, 64 - top));
		if (f->bit_size < 64)
			emit(g, ALU64_IMM(BPF_ARSH, dst, 64 - f->bit_size));
	} else if (top >= known || f->bit_size <= 32) {
		/* a shift, plus at most one masking instruction */
		if (f->bit_off)
			emit(g, ALU64_IMM(BPF_RSH, dst, f->bit_off));
		known = known > f->bit_off ? known - f->bit_off : 0;
		emit_extend(g, dst, f->bit_size, false, known);
	} else {
		/* wide field: a mask would need ld_imm64, shifts are cheaper */
		emit(g, ALU64_IMM(BPF_LSH, dst, 64 - top));
		emit(g, ALU64_IMM(BPF_RSH, dst, 64 - f->bit_size));
	}
}

/* What emit_finish() does, for a value known now. */
static uint64_t finish_const(const struct bp_fetch *f, uint64_t v)
{
	int width = f->size * 8;
	uint64_t mask;

	if (f->bit_size) {
		v >>= f->bit_off;
		width = f->bit_size;
	}
	if (width >= 64)
		return v;
	mask = (1ULL << width) - 1;
	v &= mask;
	if (f->is_signed && (v >> (width - 1)) & 1)
		v |= ~mask;
	return v;
}

/*
 * dst = f's final value in one load from src + off, which holds avail
 * bytes of the value it is cut from (8 in pt_regs, the read's size in the
 * stack slot), little-endian: when what f keeps is 1, 2, 4 or 8 whole
 * bytes of them, aligned to their size. An unsigned one is zero-extended
 * by any load; a signed one needs cpu v4's sign-extending load. False,
 * and nothing emitted, otherwise.
 */
static bool emit_one_load(struct gen *g, int dst, int src, int off, int avail,
			  const struct bp_fetch *f)
{
	int lo = f->bit_size ? f->bit_off : 0;
	int width = f->bit_size ? f->bit_size : f->size * 8;
	int bytes = width / 8;

	if (lo % 8 || width % 8 || (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) ||
	    (lo / 8) % bytes || lo + width > avail * 8)
		return false;
	if (!f->is_signed || bytes == 8)
		emit(g, LDX_MEM(bp_emit__size(bytes), dst, src, off + lo / 8));
	else if (g->cpu_v4)
		emit(g, LDX_MEMSX(bp_emit__size(bytes), dst, src, off + lo / 8));
	else
		return false;
	return true;
}

static bool uses_func_ip(const struct bp_fetch *f)
{
	return f->base == BP_BASE_ADDR && f->anchor_kind == BP_ANCHOR_FUNC_IP;
}

/* Whether computing f calls a helper: then it belongs to the slow shape's
 * call section. An expression always goes there: it needs ctx saved and
 * scratch registers. */
static bool needs_call(const struct bp_fetch *f)
{
	return f->nderef || uses_func_ip(f) || f->base == BP_BASE_EXPR;
}

static void add_err_jump(struct gen *g)
{
	bp_emit__err_jump(&g->e, JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0));
}

/* dst = the expression's value (slow shape: ctx in CTX_SAVE_REG) */
static void emit_expr(struct gen *g, int dst, const struct bp_fetch *f)
{
	struct bp_expr_env env = {
		.expr = &f->expr,
		.ctx_reg = CTX_SAVE_REG,
		.anchor = f->anchor,
		.anchor_kind = f->anchor_kind,
		.entry_map_fd = g->entry_map_fd,
		.stack_off = EXPR_STACK_OFF,
		.cpu_v4 = g->cpu_v4,
	};
	int err = bp_expr__gen(&g->e, &env, dst);

	if (err && !g->err)
		g->err = err;
}

/*
 * dst = base value + extra. A register base (and the ip anchor) is loaded
 * from ctx; the func_ip anchor calls bpf_get_func_ip(ctx), which needs ctx
 * in CTX_SAVE_REG (slow shape) and fails the fetch when it returns 0
 * (kernels before 6.6 know no function address at a uprobe).
 */
static void emit_base(struct gen *g, int dst, int ctx,
		      const struct bp_fetch *f, int64_t extra)
{
	uint64_t v = (uint64_t)f->add + (uint64_t)extra;

	switch (f->base) {
	case BP_BASE_CONST:
		emit_mov_imm(g, dst, v);
		return;
	case BP_BASE_ADDR:
		v -= f->anchor;
		if (uses_func_ip(f)) {
			emit(g, MOV64_REG(BPF_REG_1, CTX_SAVE_REG));
			emit(g, CALL_HELPER(BPF_FUNC_get_func_ip));
			/* jump to err when r0 == 0 */
			bp_emit__err_jump(&g->e, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
			emit(g, MOV64_REG(dst, BPF_REG_0));
		} else {
			emit(g, LDX_MEM(BPF_DW, dst, ctx, bp_arch__pt_regs_off(bp_arch__ip_reg())));
		}
		emit_add(g, dst, v);
		return;
	case BP_BASE_CTX:
		emit(g, LDX_MEM(BPF_DW, dst, ctx, 8 * f->reg));
		emit_add(g, dst, v);
		return;
	case BP_BASE_EXPR:
		emit_expr(g, dst, f);
		emit_add(g, dst, v);
		return;
	default:
		emit(g, LDX_MEM(BPF_DW, dst, ctx, bp_arch__pt_regs_off(f->reg)));
		emit_add(g, dst, v);
	}
}

/* An argument that reads no memory, computed straight into dst. */
static void emit_direct_arg(struct gen *g, int dst, int ctx,
			    const struct bp_fetch *f)
{
	if (f->base == BP_BASE_CONST) {
		emit_mov_imm(g, dst, finish_const(f, f->add));
		return;
	}
	/* what is kept of a register, straight from pt_regs */
	if (f->base == BP_BASE_REG && !f->add &&
	    emit_one_load(g, dst, ctx, bp_arch__pt_regs_off(f->reg), 8, f))
		return;
	emit_base(g, dst, ctx, f, 0);
	emit_finish(g, dst, f, 64);
}

/*
 * The address of each read goes in r3 (probe_read's source argument), so
 * intermediate pointers are reloaded from the slot right into r3; only the
 * final value goes to dst.
 */
static void emit_deref_arg(struct gen *g, int dst, const struct bp_fetch *f)
{
	int k, last = f->nderef - 1;

	/* add and the first offset both apply before the first read */
	emit_base(g, BPF_REG_3, CTX_SAVE_REG, f, f->deref_off[0]);
	for (k = 0; k <= last; k++) {
		int size = k == last ? f->size : 8;
		int fn = f->user_mask & (1U << k) ? BPF_FUNC_probe_read_user
						   : BPF_FUNC_probe_read_kernel;

		if (g->slot_in_r9) {
			emit(g, MOV64_REG(BPF_REG_1, SLOT_REG));
		} else {
			emit(g, MOV64_REG(BPF_REG_1, BPF_REG_10));
			emit(g, ALU64_IMM(BPF_ADD, BPF_REG_1, SLOT_OFF));
		}
		emit(g, MOV64_IMM(BPF_REG_2, size));
		emit(g, CALL_HELPER(fn));
		add_err_jump(g);
		if (k < last) {
			emit(g, LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_10, SLOT_OFF));
			emit_add(g, BPF_REG_3, (int64_t)f->deref_off[k + 1]);
		} else if (!emit_one_load(g, dst, BPF_REG_10, SLOT_OFF, size, f)) {
			emit(g, LDX_MEM(bp_emit__size(size), dst, BPF_REG_10, SLOT_OFF));
			emit_finish(g, dst, f, size * 8);
		}
	}
}

/* An argument of the call section: one that reads memory, or one whose
 * base alone needs a call (a global's address at a uretprobe). */
static void emit_call_arg(struct gen *g, int dst, const struct bp_fetch *f)
{
	if (f->nderef) {
		emit_deref_arg(g, dst, f);
		return;
	}
	/* an expression's value waits in its stack slot 0: loaded as kept */
	if (f->base == BP_BASE_EXPR && !f->add) {
		emit_expr(g, -1, f);
		if (!emit_one_load(g, dst, BPF_REG_10, EXPR_STACK_OFF, 8, f)) {
			emit(g, LDX_MEM(BPF_DW, dst, BPF_REG_10, EXPR_STACK_OFF));
			emit_finish(g, dst, f, 64);
		}
		return;
	}
	emit_base(g, dst, CTX_SAVE_REG, f, 0);
	emit_finish(g, dst, f, 64);
}

/* May the program read register reg (r1..r5) before writing it? Its
 * prototype and the liveness of its body say (the caller's unread). */
static bool reads(const struct gen *g, int reg)
{
	return !(g->unread & (1u << reg));
}

/* Zeroes what the program reads of r(3+from)..r5. */
static void zero_args_from(struct gen *g, const struct bp_plan *plan, int from)
{
	for (int i = from; i < BP_MAX_ARGS; i++)
		if (reads(g, BPF_REG_3 + i))
			emit(g, MOV64_IMM(BPF_REG_3 + i, 0));
}

static void gen_fast(struct gen *g, const struct bp_plan *plan)
{
	int i;

	for (i = 0; i < plan->nargs; i++)
		if (reads(g, BPF_REG_3 + i))
			emit_direct_arg(g, BPF_REG_3 + i, BPF_REG_1, &plan->args[i]);
	if (reads(g, BPF_REG_2))
		emit(g, MOV64_IMM(BPF_REG_2, 0));
	zero_args_from(g, plan, plan->nargs);
}

static void gen_slow(struct gen *g, const struct bp_plan *plan)
{
	size_t goto_unused, err, unused;
	int i, k, last = -1;

	for (i = 0; i < plan->nargs; i++) {
		if (needs_call(&plan->args[i]))
			last = i;
	}

	emit(g, MOV64_REG(CTX_SAVE_REG, BPF_REG_1));
	for (i = 0, k = 0; i < plan->nargs; i++)
		k += plan->args[i].nderef;
	if (k >= SLOT_REG_MIN_READS) {
		emit(g, MOV64_REG(SLOT_REG, BPF_REG_10));
		emit(g, ALU64_IMM(BPF_ADD, SLOT_REG, SLOT_OFF));
		g->slot_in_r9 = true;
	}
	for (i = 0; i < plan->nargs; i++) {
		if (needs_call(&plan->args[i]))
			emit_call_arg(g, i == last ? BPF_REG_3 + i : BPF_REG_7 + i,
				      &plan->args[i]);
	}

	/* no helper calls from here on: r3..r5 are safe to fill */
	for (i = 0; i < plan->nargs; i++) {
		if (!needs_call(&plan->args[i]))
			emit_direct_arg(g, BPF_REG_3 + i, CTX_SAVE_REG,
					&plan->args[i]);
		else if (i != last)
			emit(g, MOV64_REG(BPF_REG_3 + i, BPF_REG_7 + i));
	}
	emit(g, MOV64_IMM(BPF_REG_2, 0));
	/* nothing can fail (an expression over registers only): no error
	 * block, which the verifier would refuse as unreachable */
	if (!g->e.nerr_jumps) {
		zero_args_from(g, plan, plan->nargs);
		if (reads(g, BPF_REG_1))
			emit(g, MOV64_REG(BPF_REG_1, CTX_SAVE_REG));
		return;
	}
	goto_unused = g->e.n;
	emit(g, JMP_JA(0));

	err = g->e.n;
	emit(g, MOV64_IMM(BPF_REG_2, 1));
	for (i = 0; i < plan->nargs; i++)
		if (reads(g, BPF_REG_3 + i))
			emit(g, MOV64_IMM(BPF_REG_3 + i, 0));

	unused = g->e.n;
	zero_args_from(g, plan, plan->nargs);
	if (reads(g, BPF_REG_1))
		emit(g, MOV64_REG(BPF_REG_1, CTX_SAVE_REG));

	bp_emit__patch(&g->e, goto_unused, unused);
	bp_emit__patch_errs(&g->e, err);
}

static int check_fetch(const struct bp_fetch *f)
{
	switch (f->base) {
	case BP_BASE_REG:
		if (bp_arch__pt_regs_off(f->reg) < 0)
			return -EINVAL;
		break;
	case BP_BASE_CONST:
		break;
	case BP_BASE_CTX:
		if (f->reg >= BP_CTX_MAX_ARGS)
			return -EINVAL;
		break;
	case BP_BASE_ADDR:
		if (f->anchor_kind != BP_ANCHOR_IP &&
		    f->anchor_kind != BP_ANCHOR_FUNC_IP)
			return -EINVAL;
		break;
	case BP_BASE_EXPR:
		if (f->anchor_kind != BP_ANCHOR_IP &&
		    f->anchor_kind != BP_ANCHOR_FUNC_IP)
			return -EINVAL;
		if (bp_expr__check(&f->expr, NULL))
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return -EINVAL;
	if (f->nderef > BP_MAX_DEREFS)
		return -EINVAL;
	/* bit_off without bit_size is a malformed plan, not a no-op */
	if (!f->bit_size && f->bit_off)
		return -EINVAL;
	if (f->bit_size > 64 || f->bit_off + f->bit_size > 64)
		return -EINVAL;
	return 0;
}

void bp_prologue__preamble(struct bpf_insn *insns)
{
	int i;

	for (i = 0; i < BP_PREAMBLE_LEN; i++)
		insns[i] = MOV64_IMM(BPF_REG_2 + i, 0);
}

int bp_prologue__gen(const struct bp_plan *plan, uint8_t unread,
		     struct bpf_insn *insns, size_t max)
{
	return bp_prologue__gen_opts(plan, unread, NULL, insns, max);
}

int bp_prologue__gen_opts(const struct bp_plan *plan, uint8_t unread,
			  const struct bp_prologue_opts *opts,
			  struct bpf_insn *insns, size_t max)
{
	struct gen g = {
		.e = { .insns = insns, .max = max },
		.unread = unread,
		.entry_map_fd = opts ? opts->entry_map_fd : -1,
		.cpu_v4 = opts && opts->cpu_v4,
	};
	bool has_call = false;
	int i, err;

	if (!plan || (!insns && max))
		return -EINVAL;
	if (plan->nargs < 0 || plan->nargs > BP_MAX_ARGS)
		return -EINVAL;
	for (i = 0; i < plan->nargs; i++) {
		err = check_fetch(&plan->args[i]);
		if (err)
			return err;
		if (needs_call(&plan->args[i]))
			has_call = true;
	}

	if (has_call)
		gen_slow(&g, plan);
	else
		gen_fast(&g, plan);	/* nargs == 0 ends up as the preamble */

	if (g.err)
		return g.err;
	if (g.e.n > max || g.e.n > BP_PROLOGUE_MAX_INSNS)
		return -E2BIG;
	return (int)g.e.n;
}
