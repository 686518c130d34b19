// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Which registers a program body reads before writing them: the prologue
 * then sets only those of r1..r5 (see BP_UNREAD_ALL in prologue.h).
 *
 * A backward dataflow over the instructions, iterated to a fixpoint:
 *   live_in(i)  = use(i) | (live_out(i) & ~def(i))
 *   live_out(i) = the union of live_in(s) over i's successors s
 * The answer is live_in of the first instruction. A body with a jump out
 * of the array or into an ld_imm64, or that runs off its end, is one the
 * verifier rejects anyway: every register counts as read there.
 *
 * A helper call reads r1..rN, N its argument count from a table generated
 * from libbpf's bpf_helper_defs.h (prologue/prologue.mk; five for the
 * variadic bpf_trace_printk, which reads what the verifier does not
 * check), and clobbers r0..r5: after it the verifier sees r1..r5 as never
 * written, so a body cannot read them from the entry through a call.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "prologue/liveness.h"
#include "bpf_helper_nargs.h"

#define R(n)		BP_LIVE_REG(n)
/* r1..rn */
#define ARGS(n)		((R((n) + 1) - 1) & ~R(0))
#define CALLER_SAVED	(R(0) | ARGS(5))

/* What one instruction does to the registers. */
struct effect {
	uint16_t use, def;
	int nsucc;
	int64_t succ[2];
	bool wide;		/* ld_imm64: two slots */
};

uint16_t bp_liveness__helper_args(int32_t id)
{
	int n = -1;

	if (id >= 0 && (size_t)id < sizeof(bp_helper_nargs) / sizeof(bp_helper_nargs[0]))
		n = bp_helper_nargs[id];
	if (n < 0 || n > 5)
		n = 5;
	return ARGS(n);
}

static void jump(struct effect *e, int64_t at, int64_t off)
{
	e->succ[e->nsucc++] = at + 1 + off;
}

static void falls_through(struct effect *e, int64_t at)
{
	e->succ[e->nsucc++] = at + (e->wide ? 2 : 1);
}

static void alu_effect(const struct bpf_insn *in, struct effect *e)
{
	uint16_t src = BPF_SRC(in->code) == BPF_X ? R(in->src_reg) : 0;

	switch (BPF_OP(in->code)) {
	case BPF_MOV:
		e->use = src;
		break;
	case BPF_NEG:
	case BPF_END:
		/* BPF_X of BPF_END means big-endian, not a source register */
		e->use = R(in->dst_reg);
		break;
	default:
		e->use = R(in->dst_reg) | src;
	}
	e->def = R(in->dst_reg);
}

static void stx_effect(const struct bpf_insn *in, struct effect *e)
{
	e->use = R(in->dst_reg) | R(in->src_reg);
	if (BPF_MODE(in->code) != BPF_ATOMIC)
		return;
	if (in->imm == BPF_CMPXCHG) {
		/* compares with r0 and leaves the old value there */
		e->use |= R(0);
		e->def = R(0);
	} else if (in->imm & BPF_FETCH) {
		e->def = R(in->src_reg);
	}
}

static void call_effect(const struct bpf_insn *in, struct effect *e)
{
	/* a subprogram or a kfunc may take up to five arguments */
	e->use = in->src_reg ? ARGS(5) : bp_liveness__helper_args(in->imm);
	e->def = CALLER_SAVED;
}

static void jmp_effect(const struct bpf_insn *in, int64_t at, struct effect *e)
{
	bool is32 = BPF_CLASS(in->code) == BPF_JMP32;

	switch (BPF_OP(in->code)) {
	case BPF_JA:
		/* the 32-bit class's "gotol" keeps its offset in imm */
		jump(e, at, is32 ? in->imm : in->off);
		return;
	case BPF_CALL:
	case BPF_EXIT:
		if (is32)
			break;
		if (BPF_OP(in->code) == BPF_EXIT) {
			e->use = R(0);
			return;
		}
		call_effect(in, e);
		falls_through(e, at);
		return;
	default:
		e->use = R(in->dst_reg);
		if (BPF_SRC(in->code) == BPF_X)
			e->use |= R(in->src_reg);
		falls_through(e, at);
		jump(e, at, in->off);
		return;
	}
	e->use = BP_LIVE_ALL;	/* no such instruction */
	falls_through(e, at);
}

static void ld_effect(const struct bpf_insn *in, struct effect *e)
{
	switch (BPF_MODE(in->code)) {
	case BPF_IMM:
		if (BPF_SIZE(in->code) != BPF_DW)
			break;
		e->wide = true;
		e->def = R(in->dst_reg);
		return;
	case BPF_IND:
		e->use = R(in->src_reg);
		/* fallthrough */
	case BPF_ABS:
		/* the packet is r6's; the helper behind it clobbers r0..r5 */
		e->use |= R(6);
		e->def = CALLER_SAVED;
		return;
	}
	e->use = BP_LIVE_ALL;
}

static void insn_effect(const struct bpf_insn *in, int64_t at, struct effect *e)
{
	*e = (struct effect){ 0 };
	if (in->dst_reg > 10 || in->src_reg > 10) {
		e->use = BP_LIVE_ALL;
		falls_through(e, at);
		return;
	}
	switch (BPF_CLASS(in->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		alu_effect(in, e);
		break;
	case BPF_LDX:
		e->use = R(in->src_reg);
		e->def = R(in->dst_reg);
		break;
	case BPF_ST:
		e->use = R(in->dst_reg);
		break;
	case BPF_STX:
		stx_effect(in, e);
		break;
	case BPF_LD:
		ld_effect(in, e);
		break;
	default:	/* BPF_JMP, BPF_JMP32 */
		jmp_effect(in, at, e);
		return;
	}
	falls_through(e, at);
}

/* Every successor is the start of an instruction of the array. */
static bool well_formed(const struct effect *eff, size_t cnt)
{
	for (size_t i = 0; i < cnt; i++) {
		for (int k = 0; k < eff[i].nsucc; k++) {
			int64_t t = eff[i].succ[k];

			if (t < 0 || (uint64_t)t >= cnt || eff[t].nsucc < 0)
				return false;
		}
	}
	return true;
}

/* live_in of every instruction, to the fixpoint; backward order converges
 * in a few passes (one more per nested loop) */
static void solve(const struct effect *eff, uint16_t *live, size_t cnt)
{
	bool changed;

	do {
		changed = false;
		for (size_t i = cnt; i-- > 0;) {
			const struct effect *e = &eff[i];
			uint16_t out = 0, in;

			if (e->nsucc < 0)
				continue;
			for (int k = 0; k < e->nsucc; k++)
				out |= live[e->succ[k]];
			in = e->use | (out & ~e->def);
			if (in != live[i]) {
				live[i] = in;
				changed = true;
			}
		}
	} while (changed);
}

uint16_t bp_liveness__entry(const struct bpf_insn *insns, size_t cnt)
{
	uint16_t *live, res = BP_LIVE_ALL;
	struct effect *eff;

	if (!cnt || !insns)
		return BP_LIVE_ALL;
	eff = calloc(cnt, sizeof(*eff));
	live = calloc(cnt, sizeof(*live));
	if (eff && live) {
		for (size_t i = 0; i < cnt; i++) {
			insn_effect(&insns[i], i, &eff[i]);
			/* an ld_imm64's second slot is no instruction */
			if (eff[i].wide && ++i < cnt)
				eff[i].nsucc = -1;
		}
		if (well_formed(eff, cnt)) {
			solve(eff, live, cnt);
			res = live[0];
		}
	}
	free(eff);
	free(live);
	return res;
}
