// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The code of guards (guard.h). With at least one guard:
 *
 *	r6 = r1				; ctx: the guards call helpers
 *	<guard 0>			; on refusal: goto refused_0
 *	...
 *	<guard n-1, its last test turned>	; passing: goto pass
 *   refused_n-1:			; falls in from its last test
 *	*(u32 *)(r10 - 16) = base + n-1	; only with a refused_fd
 *	goto count			; only when other stubs follow
 *   refused_i:				; i < n-1
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
 *	<mark a run>			; only with mark_ran
 *	r1 = r6
 *
 * The passing path runs no count and takes one jump: the last test of the
 * last guard jumps over the refusals when it holds.
 *
 * A run is marked by a store, the same byte each time (guard.h says why no
 * test first):
 *
 *	r0 = &value(ran_fd) + ran_off ll
 *	*(u8 *)(r0 + 0) = 1
 *
 * Without a guard those 3 instructions are all there is: ctx stays in r1.
 *
 * TGID_IN_BITMAP tests the tgid's bit, the value read in place and indexed
 * directly (no map call); the mask is computed while the load is under way.
 * With seed, the seed's tgid is loaded first, its load under way during
 * the call:
 *
 *	r7 = &value(seed_fd) ll		; seed only
 *	r7 = *(u32 *)(r7 + 0)
 *	call bpf_get_current_pid_tgid
 *	r0 >>= 32			; the tgid
 *	if r0 == r7 goto pass		; seed only (a last guard; else past its test)
 *	r1 = r0
 *	r1 >>= 3			; its byte
 *	if r1 >= set_bytes goto refused	; past the bitmap (and the verifier's bound)
 *	r2 = &value(set_fd) ll
 *	r2 += r1
 *	r2 = *(u8 *)(r2 + 0)
 *	r0 &= 7
 *	r1 = 1
 *	r1 <<= r0			; its bit
 *	if r2 & r1 goto pass		; the last test of the last guard
 *   or, another guard following:
 *	r2 &= r1
 *	if r2 == 0 goto refused
 *
 * KERNEL_U32_EQ reads a kernel word through an argument:
 *
 *	r3 = *(u64 *)(r6 + ctx_off)
 *	r3 += off			; when off is not 0
 *	r1 = r10 - 16
 *	r2 = 4
 *	call bpf_probe_read_kernel
 *	if r0 != 0 goto refused
 *	r0 = *(u32 *)(r10 - 16)
 *	if w0 == value goto pass	; last; else: if w0 != value goto refused
 */
#include <errno.h>
#include <stdbool.h>

#include "prologue/guard.h"
#include "prologue/insn.h"

#define KEY_OFF		(-16)	/* the 8 bytes guards may use */
#define CTX_REG		BPF_REG_6
#define SEED_REG	BPF_REG_7	/* callee-saved: across the helper call */
#define MAX_JUMPS	2	/* refusal jumps of one guard */

struct gen {
	struct bpf_insn *insns;
	size_t max;
	size_t n;		/* counts past max, to tell -E2BIG */
	/* per guard, the jumps to its refusal stub */
	size_t jumps[BP_MAX_GUARDS][MAX_JUMPS];
	int njumps[BP_MAX_GUARDS];
	size_t to_pass[2];	/* the last guard's jumps to pass */
	int nto_pass;
};

static void emit(struct gen *g, struct bpf_insn insn)
{
	if (g->n < g->max)
		g->insns[g->n] = insn;
	g->n++;
}

/* Increments the per-CPU __u64 whose __u32 key is at r10 + KEY_OFF. */
static void emit_count(struct gen *g, int fd)
{
	emit(g, LD_MAP_FD_0(BPF_REG_1, fd));
	emit(g, LD_MAP_FD_1());
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

static void pass_if(struct gen *g, struct bpf_insn jump)
{
	g->to_pass[g->nto_pass++] = g->n;
	emit(g, jump);
}

static void patch(struct gen *g, size_t at, size_t to)
{
	if (at < g->max)
		g->insns[at].off = (int16_t)(to - at - 1);
}

static void emit_tgid_in_bitmap(struct gen *g, int i, bool last, const struct bp_guard *gd)
{
	size_t seed_jump = 0;

	if (gd->seed) {
		emit(g, LD_MAP_VALUE_0(SEED_REG, gd->seed_fd));
		emit(g, LD_MAP_VALUE_1(0));
		emit(g, LDX_MEM(BPF_W, SEED_REG, SEED_REG, 0));
	}
	emit(g, CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	emit(g, ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	if (gd->seed) {
		if (last) {
			pass_if(g, JMP_REG(BPF_JEQ, BPF_REG_0, SEED_REG, 0));
		} else {
			seed_jump = g->n;
			emit(g, JMP_REG(BPF_JEQ, BPF_REG_0, SEED_REG, 0));
		}
	}
	emit(g, MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit(g, ALU64_IMM(BPF_RSH, BPF_REG_1, 3));
	refuse_if(g, i, JMP_IMM(BPF_JGE, BPF_REG_1, (int32_t)gd->set_bytes, 0));
	emit(g, LD_MAP_VALUE_0(BPF_REG_2, gd->set_fd));
	emit(g, LD_MAP_VALUE_1(0));
	emit(g, ALU64_REG(BPF_ADD, BPF_REG_2, BPF_REG_1));
	emit(g, LDX_MEM(BPF_B, BPF_REG_2, BPF_REG_2, 0));
	emit(g, ALU64_IMM(BPF_AND, BPF_REG_0, 7));
	emit(g, MOV64_IMM(BPF_REG_1, 1));
	emit(g, ALU64_REG(BPF_LSH, BPF_REG_1, BPF_REG_0));
	if (last) {
		pass_if(g, JMP_REG(BPF_JSET, BPF_REG_2, BPF_REG_1, 0));
		return;
	}
	emit(g, ALU64_REG(BPF_AND, BPF_REG_2, BPF_REG_1));
	refuse_if(g, i, JMP_IMM(BPF_JEQ, BPF_REG_2, 0, 0));
	if (gd->seed)
		patch(g, seed_jump, g->n);
}

static void emit_kernel_u32_eq(struct gen *g, int i, bool last, const struct bp_guard *gd)
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
	if (last)
		pass_if(g, JMP32_IMM(BPF_JEQ, BPF_REG_0, (int32_t)gd->value, 0));
	else
		refuse_if(g, i, JMP32_IMM(BPF_JNE, BPF_REG_0, (int32_t)gd->value, 0));
}

static void emit_mark(struct gen *g, const struct bp_guards *gs)
{
	emit(g, LD_MAP_VALUE_0(BPF_REG_0, gs->ran_fd));
	emit(g, LD_MAP_VALUE_1((int32_t)gs->ran_off));
	emit(g, ST_MEM(BPF_B, BPF_REG_0, 0, 1));
}

static int check(const struct bp_guards *gs)
{
	if (!gs || gs->n < 0 || gs->n > BP_MAX_GUARDS)
		return -EINVAL;
	if (gs->mark_ran && (gs->ran_fd < 0 || gs->ran_off > INT32_MAX))
		return -EINVAL;
	for (int i = 0; i < gs->n; i++) {
		const struct bp_guard *gd = &gs->v[i];

		switch (gd->kind) {
		case BP_GUARD_TGID_IN_BITMAP:
			if (gd->set_fd < 0 || !gd->set_bytes || gd->set_bytes > INT32_MAX ||
			    (gd->seed && gd->seed_fd < 0))
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

/* The refusal stubs, the last guard's first (its last test falls into it),
 * and the count they share; then r0 = 0, exit. */
static void emit_refusals(struct gen *g, const struct bp_guards *gs)
{
	size_t to_count[BP_MAX_GUARDS];
	int order[BP_MAX_GUARDS], k = 0, i;

	order[k++] = gs->n - 1;
	for (i = 0; i < gs->n - 1; i++)
		order[k++] = i;
	for (k = 0; k < gs->n; k++) {
		i = order[k];
		for (int j = 0; j < g->njumps[i]; j++)
			patch(g, g->jumps[i][j], g->n);
		if (gs->refused_fd >= 0)
			emit(g, ST_MEM(BPF_W, BPF_REG_10, KEY_OFF, (int32_t)(gs->count_base + i)));
		to_count[k] = g->n;
		if (k < gs->n - 1)
			emit(g, JMP_JA(0));
	}
	for (k = 0; k < gs->n - 1; k++)
		patch(g, to_count[k], g->n);
	if (gs->refused_fd >= 0)
		emit_count(g, gs->refused_fd);
	emit(g, MOV64_IMM(BPF_REG_0, 0));
	emit(g, EXIT_INSN());
}

int bp_guards__gen(const struct bp_guards *gs, struct bpf_insn *insns, size_t max)
{
	struct gen g = { .insns = insns, .max = max };
	int i, err = check(gs);

	if (err)
		return err;
	if (!gs->n && !gs->mark_ran)
		return 0;
	if (!insns && max)
		return -EINVAL;

	if (gs->n) {
		emit(&g, MOV64_REG(CTX_REG, BPF_REG_1));
		for (i = 0; i < gs->n; i++) {
			bool last = i == gs->n - 1;

			if (gs->v[i].kind == BP_GUARD_TGID_IN_BITMAP)
				emit_tgid_in_bitmap(&g, i, last, &gs->v[i]);
			else
				emit_kernel_u32_eq(&g, i, last, &gs->v[i]);
		}
		emit_refusals(&g, gs);
		for (i = 0; i < g.nto_pass; i++)
			patch(&g, g.to_pass[i], g.n);
	}
	if (gs->mark_ran)
		emit_mark(&g, gs);
	if (gs->n)
		emit(&g, MOV64_REG(BPF_REG_1, CTX_REG));
	if (g.n > max || g.n > BP_GUARDS_MAX_INSNS)
		return -E2BIG;
	return (int)g.n;
}
