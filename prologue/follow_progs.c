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

/* *(u32 *)(r10 - 4) = current tgid; r0 = its entry in the set or NULL */
static void emit_lookup_self(struct gen *g, int set_fd)
{
	emit(g, CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	emit(g, ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit(g, STX_MEM(BPF_W, BPF_REG_10, BPF_REG_0, -4));
	emit_map(g, BPF_REG_1, set_fd);
	emit_stack_ptr(g, BPF_REG_2, -4);
	emit(g, CALL_HELPER(BPF_FUNC_map_lookup_elem));
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

/*
 *	r6 = r1
 *	<lookup self>
 *	if r0 == 0 goto out
 *	r1 = *(u32 *)(r6 + child_pid_off)
 *	*(u32 *)(r10 - 8) = r1
 *	*(u32 *)(r10 - 12) = BP_FOLLOW_FORK
 *	r1 = set ll; r2 = r10 - 8; r3 = r10 - 12; r4 = BPF_ANY
 *	call bpf_map_update_elem
 *	if r0 != 0 goto full
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
	size_t to_out, to_full, to_out2;

	if (!cfg || cfg->set_fd < 0 || cfg->stats_fd < 0 || !field_ok(cfg->child_pid_off) ||
	    (!insns && max))
		return -EINVAL;
	emit(&g, MOV64_REG(BPF_REG_6, BPF_REG_1));
	emit_lookup_self(&g, cfg->set_fd);
	to_out = g.n;
	emit(&g, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	emit(&g, LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_6, cfg->child_pid_off));
	emit(&g, STX_MEM(BPF_W, BPF_REG_10, BPF_REG_1, -8));
	emit(&g, ST_MEM(BPF_W, BPF_REG_10, -12, BP_FOLLOW_FORK));
	emit_map(&g, BPF_REG_1, cfg->set_fd);
	emit_stack_ptr(&g, BPF_REG_2, -8);
	emit_stack_ptr(&g, BPF_REG_3, -12);
	emit(&g, MOV64_IMM(BPF_REG_4, BPF_ANY));
	emit(&g, CALL_HELPER(BPF_FUNC_map_update_elem));
	to_full = g.n;
	emit(&g, JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0));
	emit_stat(&g, cfg->stats_fd, BP_FOLLOW_STAT_FORKS);
	to_out2 = g.n;
	emit(&g, JMP_JA(0));
	patch(&g, to_full, g.n);
	emit_stat(&g, cfg->stats_fd, BP_FOLLOW_STAT_FULL);
	patch(&g, to_out, g.n);
	patch(&g, to_out2, g.n);
	return finish(&g);
}

/*
 *	r1 = *(u32 *)(r1 + free_pid_off)
 *	*(u32 *)(r10 - 4) = r1
 *	r1 = set ll; r2 = r10 - 4
 *	call bpf_map_delete_elem
 *	r0 = 0
 *	exit
 */
int bp_follow__gen_free(const struct bp_follow_cfg *cfg, struct bpf_insn *insns, size_t max)
{
	struct gen g = { .insns = insns, .max = max };

	if (!cfg || cfg->set_fd < 0 || !field_ok(cfg->free_pid_off) || (!insns && max))
		return -EINVAL;
	emit(&g, LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_1, cfg->free_pid_off));
	emit(&g, STX_MEM(BPF_W, BPF_REG_10, BPF_REG_1, -4));
	emit_map(&g, BPF_REG_1, cfg->set_fd);
	emit_stack_ptr(&g, BPF_REG_2, -4);
	emit(&g, CALL_HELPER(BPF_FUNC_map_delete_elem));
	return finish(&g);
}

/*
 *	<lookup self>
 *	if r0 == 0 goto out
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
	size_t to_out;

	if (!cfg || cfg->set_fd < 0 || cfg->execs_fd < 0 || (!insns && max))
		return -EINVAL;
	emit_lookup_self(&g, cfg->set_fd);
	to_out = g.n;
	emit(&g, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	emit_stack_ptr(&g, BPF_REG_1, -24);
	emit(&g, MOV64_IMM(BPF_REG_2, 16));
	emit(&g, CALL_HELPER(BPF_FUNC_get_current_comm));
	emit(&g, ST_MEM(BPF_DW, BPF_REG_10, -32, 1));
	emit_map(&g, BPF_REG_1, cfg->execs_fd);
	emit_stack_ptr(&g, BPF_REG_2, -24);
	emit_stack_ptr(&g, BPF_REG_3, -32);
	emit(&g, MOV64_IMM(BPF_REG_4, BPF_ANY));
	emit(&g, CALL_HELPER(BPF_FUNC_map_update_elem));
	patch(&g, to_out, g.n);
	return finish(&g);
}
