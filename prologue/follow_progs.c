// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The code of the follow programs (follow_progs.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "prologue/follow_progs.h"
#include "prologue/insn.h"

/* the tracepoint record: common fields first, then the event's own,
 * which a program may read at 8-byte-or-later, naturally aligned offsets */
#define TP_FIRST_FIELD	8
#define TP_MAX_OFF	4096

struct gen {
	struct bpf_insn *insns;
	size_t max;
	size_t n;
};

static void emit(struct gen *g, struct bpf_insn insn)
{
	if (g->n < g->max)
		g->insns[g->n] = insn;
	g->n++;
}

static void emit_map(struct gen *g, int reg, int fd)
{
	emit(g, LD_MAP_FD_0(reg, fd));
	emit(g, LD_MAP_FD_1());
}

/* r2 = r10 + off */
static void emit_stack_ptr(struct gen *g, int reg, int off)
{
	emit(g, MOV64_REG(reg, BPF_REG_10));
	emit(g, ALU64_IMM(BPF_ADD, reg, off));
}

/*
 * r0 = the address of the bitmap's word of the pid in register pid (which
 * survives: r6 or r7); jumps (to patch, at *to_past) when the pid is past
 * the bitmap:
 *	r1 = pid
 *	r1 >>= 6
 *	if r1 >= words goto past
 *	r1 <<= 3
 *	r0 = &value(set) ll		; in place: no map call
 *	r0 += r1
 */
static void emit_word(struct gen *g, const struct bp_follow_cfg *cfg, int pid, size_t *to_past)
{
	emit(g, MOV64_REG(BPF_REG_1, pid));
	emit(g, ALU64_IMM(BPF_RSH, BPF_REG_1, 6));
	*to_past = g->n;
	emit(g, JMP_IMM(BPF_JGE, BPF_REG_1, (int32_t)(cfg->set_bytes / 8), 0));
	emit(g, ALU64_IMM(BPF_LSH, BPF_REG_1, 3));
	emit(g, LD_MAP_VALUE_0(BPF_REG_0, cfg->set_fd));
	emit(g, LD_MAP_VALUE_1(0));
	emit(g, ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
}

/* r1 = 1 << (pid % 64) */
static void emit_mask(struct gen *g, int pid)
{
	emit(g, MOV64_REG(BPF_REG_2, pid));
	emit(g, ALU64_IMM(BPF_AND, BPF_REG_2, 63));
	emit(g, MOV64_IMM(BPF_REG_1, 1));
	emit(g, ALU64_REG(BPF_LSH, BPF_REG_1, BPF_REG_2));
}

/*
 * r7 = current tgid; jumps (to patch, into *to_out, two of them) when its
 * bit is clear:
 *	call bpf_get_current_pid_tgid
 *	r0 >>= 32
 *	r7 = r0
 *	<word of r7>			; past it: goto out
 *	r3 = *(u64 *)(r0 + 0)
 *	<mask of r7>
 *	r3 &= r1
 *	if r3 == 0 goto out
 */
static void emit_self_followed(struct gen *g, const struct bp_follow_cfg *cfg, size_t to_out[2])
{
	emit(g, CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	emit(g, ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit(g, MOV64_REG(BPF_REG_7, BPF_REG_0));
	emit_word(g, cfg, BPF_REG_7, &to_out[0]);
	emit(g, LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_0, 0));
	emit_mask(g, BPF_REG_7);
	emit(g, ALU64_REG(BPF_AND, BPF_REG_3, BPF_REG_1));
	to_out[1] = g->n;
	emit(g, JMP_IMM(BPF_JEQ, BPF_REG_3, 0, 0));
}

/* stats[stat] += 1 (per-CPU); key at r10 - 4 */
static void emit_stat(struct gen *g, int stats_fd, int stat)
{
	emit(g, ST_MEM(BPF_W, BPF_REG_10, -4, stat));
	emit_map(g, BPF_REG_1, stats_fd);
	emit_stack_ptr(g, BPF_REG_2, -4);
	emit(g, CALL_HELPER(BPF_FUNC_map_lookup_elem));
	emit(g, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 3));
	emit(g, LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, 0));
	emit(g, ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit(g, STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 0));
}

static void patch(struct gen *g, size_t at, size_t to)
{
	if (at < g->max)
		g->insns[at].off = (int16_t)(to - at - 1);
}

static int finish(struct gen *g)
{
	emit(g, MOV64_IMM(BPF_REG_0, 0));
	emit(g, EXIT_INSN());
	if (g->n > g->max || g->n > BP_FOLLOW_MAX_INSNS)
		return -E2BIG;
	return (int)g->n;
}

static bool field_ok(int off)
{
	return off >= TP_FIRST_FIELD && off < TP_MAX_OFF && off % 4 == 0;
}

static bool set_ok(const struct bp_follow_cfg *cfg)
{
	return cfg->set_fd >= 0 && cfg->set_bytes && cfg->set_bytes % 8 == 0 &&
	       cfg->set_bytes <= INT32_MAX;
}

/*
 *	r6 = r1
 *	<self followed>			; else goto out
 *	r7 = *(u32 *)(r6 + child_pid_off)
 *	<word of r7>			; past it: goto full
 *	<mask of r7>
 *	lock *(u64 *)(r0 + 0) |= r1
 *	<stat FORKS>
 *	goto out
 *   full:
 *	<stat FULL>
 *   out:
 *	r0 = 0
 *	exit
 */
int bp_follow__gen_fork(const struct bp_follow_cfg *cfg, struct bpf_insn *insns, size_t max)
{
	struct gen g = { .insns = insns, .max = max };
	size_t to_out[2], to_full, to_out2;

	if (!cfg || !set_ok(cfg) || cfg->stats_fd < 0 || !field_ok(cfg->child_pid_off) ||
	    (!insns && max))
		return -EINVAL;
	emit(&g, MOV64_REG(BPF_REG_6, BPF_REG_1));
	emit_self_followed(&g, cfg, to_out);
	emit(&g, LDX_MEM(BPF_W, BPF_REG_7, BPF_REG_6, cfg->child_pid_off));
	emit_word(&g, cfg, BPF_REG_7, &to_full);
	emit_mask(&g, BPF_REG_7);
	emit(&g, ATOMIC_OP(BPF_DW, BPF_OR, BPF_REG_0, BPF_REG_1, 0));
	emit_stat(&g, cfg->stats_fd, BP_FOLLOW_STAT_FORKS);
	to_out2 = g.n;
	emit(&g, JMP_JA(0));
	patch(&g, to_full, g.n);
	emit_stat(&g, cfg->stats_fd, BP_FOLLOW_STAT_FULL);
	patch(&g, to_out[0], g.n);
	patch(&g, to_out[1], g.n);
	patch(&g, to_out2, g.n);
	return finish(&g);
}

/*
 *	r7 = *(u32 *)(r1 + free_pid_off)
 *	r1 = &value(seed) ll
 *	r2 = *(u32 *)(r1 + 0)
 *	if r2 != r7 goto +1
 *	*(u32 *)(r1 + 0) = 0		; gone: its pid may be given again
 *	<word of r7>			; past it: goto out
 *	<mask of r7>
 *	r3 = *(u64 *)(r0 + 0)
 *	r3 &= r1
 *	if r3 == 0 goto out		; most tasks are not followed: no write
 *	r1 ^= -1
 *	lock *(u64 *)(r0 + 0) &= r1
 *   out:
 *	r0 = 0
 *	exit
 */
int bp_follow__gen_free(const struct bp_follow_cfg *cfg, struct bpf_insn *insns, size_t max)
{
	struct gen g = { .insns = insns, .max = max };
	size_t to_out[2];

	if (!cfg || !set_ok(cfg) || cfg->seed_fd < 0 || !field_ok(cfg->free_pid_off) ||
	    (!insns && max))
		return -EINVAL;
	emit(&g, LDX_MEM(BPF_W, BPF_REG_7, BPF_REG_1, cfg->free_pid_off));
	emit(&g, LD_MAP_VALUE_0(BPF_REG_1, cfg->seed_fd));
	emit(&g, LD_MAP_VALUE_1(0));
	emit(&g, LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, 0));
	emit(&g, JMP_REG(BPF_JNE, BPF_REG_2, BPF_REG_7, 1));
	emit(&g, ST_MEM(BPF_W, BPF_REG_1, 0, 0));
	emit_word(&g, cfg, BPF_REG_7, &to_out[0]);
	emit_mask(&g, BPF_REG_7);
	emit(&g, LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_0, 0));
	emit(&g, ALU64_REG(BPF_AND, BPF_REG_3, BPF_REG_1));
	to_out[1] = g.n;
	emit(&g, JMP_IMM(BPF_JEQ, BPF_REG_3, 0, 0));
	emit(&g, ALU64_IMM(BPF_XOR, BPF_REG_1, -1));
	emit(&g, ATOMIC_OP(BPF_DW, BPF_AND, BPF_REG_0, BPF_REG_1, 0));
	patch(&g, to_out[0], g.n);
	patch(&g, to_out[1], g.n);
	return finish(&g);
}

/*
 *	<self followed>			; else goto out
 *	r1 = r10 - 24; r2 = 16
 *	call bpf_get_current_comm	; the comm exec just set
 *	*(u64 *)(r10 - 32) = 1
 *	r1 = execs ll; r2 = r10 - 24; r3 = r10 - 32; r4 = BPF_ANY
 *	call bpf_map_update_elem
 *   out:
 *	r0 = 0
 *	exit
 */
int bp_follow__gen_exec(const struct bp_follow_cfg *cfg, struct bpf_insn *insns, size_t max)
{
	struct gen g = { .insns = insns, .max = max };
	size_t to_out[2];

	if (!cfg || !set_ok(cfg) || cfg->execs_fd < 0 || (!insns && max))
		return -EINVAL;
	emit_self_followed(&g, cfg, to_out);
	emit_stack_ptr(&g, BPF_REG_1, -24);
	emit(&g, MOV64_IMM(BPF_REG_2, 16));
	emit(&g, CALL_HELPER(BPF_FUNC_get_current_comm));
	emit(&g, ST_MEM(BPF_DW, BPF_REG_10, -32, 1));
	emit_map(&g, BPF_REG_1, cfg->execs_fd);
	emit_stack_ptr(&g, BPF_REG_2, -24);
	emit_stack_ptr(&g, BPF_REG_3, -32);
	emit(&g, MOV64_IMM(BPF_REG_4, BPF_ANY));
	emit(&g, CALL_HELPER(BPF_FUNC_map_update_elem));
	patch(&g, to_out[0], g.n);
	patch(&g, to_out[1], g.n);
	return finish(&g);
}
