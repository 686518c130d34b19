// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Emitting BPF instructions (insn_buf.h). */
#include "prologue/insn_buf.h"
#include "prologue/insn.h"

void bp_emit(struct bp_emit *e, struct bpf_insn insn)
{
	if (e->n < e->max)
		e->insns[e->n] = insn;
	e->n++;
}

void bp_emit__ld_imm64(struct bp_emit *e, int dst, uint64_t v)
{
	bp_emit(e, INSN(BPF_LD | BPF_DW | BPF_IMM, dst, 0, 0, (uint32_t)v));
	bp_emit(e, INSN(0, 0, 0, 0, (uint32_t)(v >> 32)));
}

static bool fits_s32(uint64_t v)
{
	return (int64_t)v == (int32_t)v;
}

void bp_emit__mov_imm(struct bp_emit *e, int dst, uint64_t v)
{
	if (fits_s32(v))
		bp_emit(e, MOV64_IMM(dst, (int32_t)v));
	else if (v <= UINT32_MAX)
		/* 32-bit moves zero the upper half */
		bp_emit(e, ALU32_IMM(BPF_MOV, dst, (int32_t)(uint32_t)v));
	else
		bp_emit__ld_imm64(e, dst, v);
}

void bp_emit__add(struct bp_emit *e, int dst, uint64_t v, int scratch)
{
	if (!v)
		return;
	if (fits_s32(v)) {
		bp_emit(e, ALU64_IMM(BPF_ADD, dst, (int32_t)v));
		return;
	}
	bp_emit__ld_imm64(e, scratch, v);
	bp_emit(e, ALU64_REG(BPF_ADD, dst, scratch));
}

int bp_emit__size(int bytes)
{
	switch (bytes) {
	case 1: return BPF_B;
	case 2: return BPF_H;
	case 4: return BPF_W;
	default: return BPF_DW;
	}
}

void bp_emit__err_jump(struct bp_emit *e, struct bpf_insn jump)
{
	if (e->nerr_jumps < BP_EMIT_MAX_ERR_JUMPS)
		e->err_jumps[e->nerr_jumps++] = e->n;
	else
		e->n = e->max + 1;	/* cannot happen for a checked plan: fail */
	bp_emit(e, jump);
}

void bp_emit__patch(struct bp_emit *e, size_t at, size_t to)
{
	if (at < e->max)
		e->insns[at].off = (int16_t)(to - at - 1);
}

void bp_emit__patch_errs(struct bp_emit *e, size_t to)
{
	for (int k = 0; k < e->nerr_jumps; k++)
		bp_emit__patch(e, e->err_jumps[k], to);
}
