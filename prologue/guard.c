// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The code of guards (guard.h):
 *
 *	r6 = r1				; ctx
 *	<guard 0>			; on refusal: goto refused_0
 *	<guard 1>
 *	<count a pass>			; only with count_passes
 *	r1 = r6
 *	goto pass
 *   refused_i:				; one per guard
 *	*(u32 *)(r10 - 16) = base + i
 *	goto count			; (the last one falls through)
 *   count:				; only with a refused_fd
 *	<count>
 *	r0 = 0
 *	exit
 *   pass:
 *
 * where <count> increments the per-CPU entry whose key is at r10 - 16:
 *
 *	r1 = refused_fd ll
 *	r2 = r10 - 16
 *	call bpf_map_lookup_elem
 *	if r0 == 0 goto +3
 *	r1 = *(u64 *)(r0 + 0)
 *	r1 += 1
 *	*(u64 *)(r0 + 0) = r1		; per-CPU: no other writer
 *
 * A gated TGID_IN_SET guard first reads its switch, an array map's value:
 *
 *	*(u32 *)(r10 - 16) = 0
 *	r1 = gate_fd ll
 *	r2 = r10 - 16
 *	call bpf_map_lookup_elem	; inlined by the verifier for arrays
 *	if r0 == 0 goto next
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

static void emit_tgid_in_set(struct gen *g, int i, const struct bp_guard *gd)
{
	size_t off_jumps[2] = { 0, 0 };

	if (gd->gated) {
		emit(g, ST_MEM(BPF_W, BPF_REG_10, KEY_OFF, 0));
		emit_map(g, gd->gate_fd);
		emit(g, MOV64_REG(BPF_REG_2, BPF_REG_10));
		emit(g, ALU64_IMM(BPF_ADD, BPF_REG_2, KEY_OFF));
		emit(g, CALL_HELPER(BPF_FUNC_map_lookup_elem));
		off_jumps[0] = g->n;
		emit(g, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
		emit(g, LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_0, 0));
		off_jumps[1] = g->n;
		emit(g, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	}
	emit(g, CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	emit(g, ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit(g, STX_MEM(BPF_W, BPF_REG_10, BPF_REG_0, KEY_OFF));
	emit_map(g, gd->set_fd);
	emit(g, MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(g, ALU64_IMM(BPF_ADD, BPF_REG_2, KEY_OFF));
	emit(g, CALL_HELPER(BPF_FUNC_map_lookup_elem));
	refuse_if(g, i, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	if (gd->gated) {
		patch(g, off_jumps[0], g->n);
		patch(g, off_jumps[1], g->n);
	}
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
	if (gs->count_passes && gs->refused_fd < 0)
		return -EINVAL;
	for (int i = 0; i < gs->n; i++) {
		const struct bp_guard *gd = &gs->v[i];

		switch (gd->kind) {
		case BP_GUARD_TGID_IN_SET:
			if (gd->set_fd < 0 || (gd->gated && gd->gate_fd < 0))
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
	if (!gs->n && !gs->count_passes)
		return 0;
	if (!insns && max)
		return -EINVAL;

	emit(&g, MOV64_REG(CTX_REG, BPF_REG_1));
	for (i = 0; i < gs->n; i++) {
		if (gs->v[i].kind == BP_GUARD_TGID_IN_SET)
			emit_tgid_in_set(&g, i, &gs->v[i]);
		else
			emit_kernel_u32_eq(&g, i, &gs->v[i]);
	}
	if (gs->count_passes) {
		emit(&g, ST_MEM(BPF_W, BPF_REG_10, KEY_OFF, (int32_t)(gs->count_base + gs->n)));
		emit_count(&g, gs->refused_fd);
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
