// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The code of guards (guard.h):
 *
 *	r6 = r1				; ctx
 *	<guard 0>			; on refusal: goto refused_0
 *	<guard 1>
 *	<mark a run>			; only with mark_ran
 *	r1 = r6
 *	goto pass
 *   refused_i:				; one per guard
 *	*(u32 *)(r10 - 16) = base + i
 *	goto count			; (the last one falls through)
 *   count:				; only with a refused_fd
 *	r1 = refused_fd ll
 *	r2 = r10 - 16
 *	call bpf_map_lookup_elem
 *	if r0 == 0 goto +3
 *	r1 = *(u64 *)(r0 + 0)
 *	r1 += 1
 *	*(u64 *)(r0 + 0) = r1		; per-CPU: no other writer
 *	r0 = 0
 *	exit
 *   pass:
 *
 * A run is marked in place, written once (a hot probe's cache line stays
 * shared):
 *
 *	r1 = &value(ran_fd) + ran_off ll
 *	r2 = *(u64 *)(r1 + 0)
 *	if r2 != 0 goto +2
 *	r2 = 1
 *	*(u64 *)(r1 + 0) = r2
 *
 * TGID_IN_BITMAP tests the tgid's bit:
 *
 *	call bpf_get_current_pid_tgid
 *	r0 >>= 32
 *	r1 = r0
 *	r1 >>= 6
 *	*(u32 *)(r10 - 16) = r1		; the word
 *	r0 &= 63
 *	*(u32 *)(r10 - 12) = r0		; the bit
 *	r1 = set_fd ll
 *	r2 = r10 - 16
 *	call bpf_map_lookup_elem	; an array: inlined by the verifier
 *	if r0 == 0 goto refused		; past the end
 *	r1 = *(u64 *)(r0 + 0)
 *	r2 = *(u32 *)(r10 - 12)
 *	r1 >>= r2
 *	r1 &= 1
 *	if r1 == 0 goto refused
 *
 * A gated TGID_IN_SET or TGID_IN_BITMAP guard first reads its switch in
 * place:
 *
 *	r0 = &value(gate_fd) + gate_off ll
 *	r0 = *(u32 *)(r0 + 0)
 *	if r0 == 0 goto next		; off: every process passes
 *	<the set lookup>
 *   next:
 */
#include <errno.h>
#include <stdbool.h>

#include "prologue/guard.h"
#include "prologue/insn.h"

#define KEY_OFF		(-16)	/* the 8 bytes guards may use */
#define CTX_REG		BPF_REG_6

struct gen {
	struct bpf_insn *insns;
	size_t max;
	size_t n;		/* counts past max, to tell -E2BIG */
	/* per guard, the jumps to its refusal stub */
	size_t jumps[BP_MAX_GUARDS][2];
	int njumps[BP_MAX_GUARDS];
};

static void emit(struct gen *g, struct bpf_insn insn)
{
	if (g->n < g->max)
		g->insns[g->n] = insn;
	g->n++;
}

/* r1 = map fd (two slots) */
static void emit_map(struct gen *g, int fd)
{
	emit(g, LD_MAP_FD_0(BPF_REG_1, fd));
	emit(g, LD_MAP_FD_1());
}

/* Increments the per-CPU __u64 whose __u32 key is at r10 + KEY_OFF. */
static void emit_count(struct gen *g, int fd)
{
	emit_map(g, fd);
	emit(g, MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(g, ALU64_IMM(BPF_ADD, BPF_REG_2, KEY_OFF));
	emit(g, CALL_HELPER(BPF_FUNC_map_lookup_elem));
	emit(g, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 3));
	emit(g, LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, 0));
	emit(g, ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit(g, STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 0));
}

static void refuse_if(struct gen *g, int guard, struct bpf_insn jump)
{
	g->jumps[guard][g->njumps[guard]++] = g->n;
	emit(g, jump);
}

static void patch(struct gen *g, size_t at, size_t to)
{
	if (at < g->max)
		g->insns[at].off = (int16_t)(to - at - 1);
}

/* The gate's test; returns where its jump past the guard is, to patch. */
static size_t emit_gate(struct gen *g, const struct bp_guard *gd)
{
	size_t at;

	emit(g, LD_MAP_VALUE_0(BPF_REG_0, gd->gate_fd));
	emit(g, LD_MAP_VALUE_1((int32_t)gd->gate_off));
	emit(g, LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_0, 0));
	at = g->n;
	emit(g, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	return at;
}

static void emit_tgid_in_set(struct gen *g, int i, const struct bp_guard *gd)
{
	size_t off_jump = gd->gated ? emit_gate(g, gd) : 0;

	emit(g, CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	emit(g, ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit(g, STX_MEM(BPF_W, BPF_REG_10, BPF_REG_0, KEY_OFF));
	emit_map(g, gd->set_fd);
	emit(g, MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(g, ALU64_IMM(BPF_ADD, BPF_REG_2, KEY_OFF));
	emit(g, CALL_HELPER(BPF_FUNC_map_lookup_elem));
	refuse_if(g, i, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	if (gd->gated)
		patch(g, off_jump, g->n);
}

static void emit_tgid_in_bitmap(struct gen *g, int i, const struct bp_guard *gd)
{
	size_t off_jump = gd->gated ? emit_gate(g, gd) : 0;

	emit(g, CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	emit(g, ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit(g, MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit(g, ALU64_IMM(BPF_RSH, BPF_REG_1, 6));
	emit(g, STX_MEM(BPF_W, BPF_REG_10, BPF_REG_1, KEY_OFF));
	emit(g, ALU64_IMM(BPF_AND, BPF_REG_0, 63));
	emit(g, STX_MEM(BPF_W, BPF_REG_10, BPF_REG_0, KEY_OFF + 4));
	emit_map(g, gd->set_fd);
	emit(g, MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(g, ALU64_IMM(BPF_ADD, BPF_REG_2, KEY_OFF));
	emit(g, CALL_HELPER(BPF_FUNC_map_lookup_elem));
	refuse_if(g, i, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	emit(g, LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, 0));
	emit(g, LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_10, KEY_OFF + 4));
	emit(g, ALU64_REG(BPF_RSH, BPF_REG_1, BPF_REG_2));
	emit(g, ALU64_IMM(BPF_AND, BPF_REG_1, 1));
	refuse_if(g, i, JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 0));
	if (gd->gated)
		patch(g, off_jump, g->n);
}

static void emit_kernel_u32_eq(struct gen *g, int i, const struct bp_guard *gd)
{
	emit(g, LDX_MEM(BPF_DW, BPF_REG_3, CTX_REG, gd->ctx_off));
	if (gd->off)
		emit(g, ALU64_IMM(BPF_ADD, BPF_REG_3, gd->off));
	emit(g, MOV64_REG(BPF_REG_1, BPF_REG_10));
	emit(g, ALU64_IMM(BPF_ADD, BPF_REG_1, KEY_OFF));
	emit(g, MOV64_IMM(BPF_REG_2, 4));
	emit(g, CALL_HELPER(BPF_FUNC_probe_read_kernel));
	refuse_if(g, i, JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0));
	emit(g, LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_10, KEY_OFF));
	refuse_if(g, i, JMP32_IMM(BPF_JNE, BPF_REG_0, (int32_t)gd->value, 0));
}

static int check(const struct bp_guards *gs)
{
	if (!gs || gs->n < 0 || gs->n > BP_MAX_GUARDS)
		return -EINVAL;
	if (gs->mark_ran && (gs->ran_fd < 0 || gs->ran_off % 8 || gs->ran_off > INT32_MAX))
		return -EINVAL;
	for (int i = 0; i < gs->n; i++) {
		const struct bp_guard *gd = &gs->v[i];

		switch (gd->kind) {
		case BP_GUARD_TGID_IN_SET:
		case BP_GUARD_TGID_IN_BITMAP:
			if (gd->set_fd < 0 || (gd->gated && (gd->gate_fd < 0 || gd->gate_off % 4 ||
							      gd->gate_off > INT32_MAX)))
				return -EINVAL;
			break;
		case BP_GUARD_KERNEL_U32_EQ:
			if (gd->ctx_off % 8 || gd->ctx_off > INT16_MAX)
				return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

int bp_guards__gen(const struct bp_guards *gs, struct bpf_insn *insns, size_t max)
{
	struct gen g = { .insns = insns, .max = max };
	size_t to_pass;
	size_t stub_jumps[BP_MAX_GUARDS];
	int i, err = check(gs);

	if (err)
		return err;
	if (!gs->n && !gs->mark_ran)
		return 0;
	if (!insns && max)
		return -EINVAL;

	emit(&g, MOV64_REG(CTX_REG, BPF_REG_1));
	for (i = 0; i < gs->n; i++) {
		if (gs->v[i].kind == BP_GUARD_TGID_IN_SET)
			emit_tgid_in_set(&g, i, &gs->v[i]);
		else if (gs->v[i].kind == BP_GUARD_TGID_IN_BITMAP)
			emit_tgid_in_bitmap(&g, i, &gs->v[i]);
		else
			emit_kernel_u32_eq(&g, i, &gs->v[i]);
	}
	if (gs->mark_ran) {
		emit(&g, LD_MAP_VALUE_0(BPF_REG_1, gs->ran_fd));
		emit(&g, LD_MAP_VALUE_1((int32_t)gs->ran_off));
		emit(&g, LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_1, 0));
		emit(&g, JMP_IMM(BPF_JNE, BPF_REG_2, 0, 2));
		emit(&g, MOV64_IMM(BPF_REG_2, 1));
		emit(&g, STX_MEM(BPF_DW, BPF_REG_1, BPF_REG_2, 0));
	}
	emit(&g, MOV64_REG(BPF_REG_1, CTX_REG));
	if (!gs->n)
		goto done;
	to_pass = g.n;
	emit(&g, JMP_JA(0));

	/* the refusal stubs: which guard refused, for the count */
	for (i = 0; i < gs->n; i++) {
		for (int k = 0; k < g.njumps[i]; k++)
			patch(&g, g.jumps[i][k], g.n);
		if (gs->refused_fd >= 0)
			emit(&g, ST_MEM(BPF_W, BPF_REG_10, KEY_OFF,
					(int32_t)(gs->count_base + i)));
		stub_jumps[i] = g.n;
		if (i < gs->n - 1)
			emit(&g, JMP_JA(0));
	}
	for (i = 0; i < gs->n - 1; i++)
		patch(&g, stub_jumps[i], g.n);
	if (gs->refused_fd >= 0)
		emit_count(&g, gs->refused_fd);
	emit(&g, MOV64_IMM(BPF_REG_0, 0));
	emit(&g, EXIT_INSN());
	patch(&g, to_pass, g.n);
done:
	if (g.n > max || g.n > BP_GUARDS_MAX_INSNS)
		return -E2BIG;
	return (int)g.n;
}
