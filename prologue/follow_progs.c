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

/* signals the held process gets (asm-generic numbers, x86's too) */
#define SIG_STOP	19
#define SIG_CONT	18

/* r1 = r10 + dst; r2 = size; r3 = *(u64 *)(r10 + src) + off (src 0: r6 + off);
 * call bpf_probe_read_kernel; a fault jumps (to patch, into *to). */
static void emit_read_kernel(struct gen *g, int dst, int size, int src, int off, size_t *to)
{
	emit_stack_ptr(g, BPF_REG_1, dst);
	emit(g, MOV64_IMM(BPF_REG_2, size));
	if (src)
		emit(g, LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_10, src));
	else
		emit(g, MOV64_REG(BPF_REG_3, BPF_REG_6));
	emit(g, ALU64_IMM(BPF_ADD, BPF_REG_3, off));
	emit(g, CALL_HELPER(BPF_FUNC_probe_read_kernel));
	*to = g->n;
	emit(g, JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0));
}

/*
 * Whether current's root differs from its parent's: jumps to hold (two
 * jumps, into to_hold) when it does, to send (seven, into to_send) when a
 * read faults; falls through when they are the same. 8 bytes a read.
 *	call bpf_get_current_task; r6 = r0
 *	*(r10 - 40) = task->fs; *(r10 - 48) = task->real_parent
 *	*(r10 - 56) = parent->fs
 *	*(r10 - 64) = fs->root.mnt; *(r10 - 72) = fs->root.dentry
 *	*(r10 - 80), *(r10 - 88): the parent's
 *	if mnt != parent's mnt goto hold; if dentry != parent's goto hold
 */
static void emit_root_changed(struct gen *g, const struct bp_task_offsets *o,
			      size_t to_hold[2], size_t to_send[7])
{
	emit(g, CALL_HELPER(BPF_FUNC_get_current_task));
	emit(g, MOV64_REG(BPF_REG_6, BPF_REG_0));
	emit_read_kernel(g, -40, 8, 0, o->task_fs, &to_send[0]);
	emit_read_kernel(g, -48, 8, 0, o->task_parent, &to_send[1]);
	emit_read_kernel(g, -56, 8, -48, o->task_fs, &to_send[2]);
	emit_read_kernel(g, -64, 8, -40, o->fs_root, &to_send[3]);
	emit_read_kernel(g, -72, 8, -40, o->fs_root + 8, &to_send[4]);
	emit_read_kernel(g, -80, 8, -56, o->fs_root, &to_send[5]);
	emit_read_kernel(g, -88, 8, -56, o->fs_root + 8, &to_send[6]);
	emit(g, LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -64));
	emit(g, LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_10, -80));
	to_hold[0] = g->n;
	emit(g, JMP_REG(BPF_JNE, BPF_REG_1, BPF_REG_2, 0));
	emit(g, LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -72));
	emit(g, LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_10, -88));
	to_hold[1] = g->n;
	emit(g, JMP_REG(BPF_JNE, BPF_REG_1, BPF_REG_2, 0));
}

static bool offsets_known(const struct bp_task_offsets *o)
{
	return o->task_fs > 0 && o->task_parent > 0 && o->fs_root >= 0 &&
	       o->task_fs < 65536 && o->task_parent < 65536 && o->fs_root < 65536;
}

/*
 * The watch, after the execs map (r7 = the tgid):
 *	r0 = &watch[0]; if r0 == 0 goto out
 *	r8 = *(u32 *)(r0 + 0); if !(r8 & EVENTS) goto out
 *	r9 = 0
 *	if r8 & HOLD_ALL goto hold
 *	if !(r8 & HOLD_ROOT) goto send		; (no offsets: goto send)
 *	<root changed>				; else goto send
 *	goto send
 *   hold:
 *	r1 = SIGSTOP; call bpf_send_signal; if r0 != 0 goto send
 *	r9 = 1
 *   send:
 *	*(u32 *)(r10 - 16) = r7; *(u32 *)(r10 - 12) = r9
 *	r1 = events ll; r2 = r10 - 16; r3 = 8; r4 = BPF_RB_FORCE_WAKEUP
 *	call bpf_ringbuf_output
 *	if r0 == 0 goto out; if r9 == 0 goto out
 *	r1 = SIGCONT; call bpf_send_signal	; nobody will look at it: let it go
 *   out:
 * The jumps to out are patched into to_out (three).
 */
static void emit_watch(struct gen *g, const struct bp_follow_cfg *cfg, size_t to_out[3])
{
	size_t to_all, to_noroot, to_hold[2] = { 0 }, to_send[7] = { 0 }, to_send2, to_send3, i;
	bool roots = offsets_known(&cfg->task);

	emit(g, ST_MEM(BPF_W, BPF_REG_10, -4, 0));
	emit_map(g, BPF_REG_1, cfg->watch_fd);
	emit_stack_ptr(g, BPF_REG_2, -4);
	emit(g, CALL_HELPER(BPF_FUNC_map_lookup_elem));
	to_out[0] = g->n;
	emit(g, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	emit(g, LDX_MEM(BPF_W, BPF_REG_8, BPF_REG_0, 0));
	emit(g, MOV64_REG(BPF_REG_1, BPF_REG_8));
	emit(g, ALU64_IMM(BPF_AND, BPF_REG_1, BP_WATCH_EVENTS));
	to_out[1] = g->n;
	emit(g, JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 0));
	emit(g, MOV64_IMM(BPF_REG_9, 0));
	emit(g, MOV64_REG(BPF_REG_1, BPF_REG_8));
	emit(g, ALU64_IMM(BPF_AND, BPF_REG_1, BP_WATCH_HOLD_ALL));
	to_all = g->n;
	emit(g, JMP_IMM(BPF_JNE, BPF_REG_1, 0, 0));
	emit(g, MOV64_REG(BPF_REG_1, BPF_REG_8));
	emit(g, ALU64_IMM(BPF_AND, BPF_REG_1, BP_WATCH_HOLD_ROOT));
	to_noroot = g->n;
	emit(g, JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 0));
	if (roots)
		emit_root_changed(g, &cfg->task, to_hold, to_send);
	to_send2 = g->n;
	emit(g, JMP_JA(0));
	/* hold: */
	patch(g, to_all, g->n);
	if (roots)
		for (i = 0; i < 2; i++)
			patch(g, to_hold[i], g->n);
	emit(g, MOV64_IMM(BPF_REG_1, SIG_STOP));
	emit(g, CALL_HELPER(BPF_FUNC_send_signal));
	to_send3 = g->n;
	emit(g, JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0));
	emit(g, MOV64_IMM(BPF_REG_9, 1));
	/* send: */
	patch(g, to_noroot, g->n);
	patch(g, to_send2, g->n);
	patch(g, to_send3, g->n);
	if (roots)
		for (i = 0; i < 7; i++)
			patch(g, to_send[i], g->n);
	emit(g, STX_MEM(BPF_W, BPF_REG_10, BPF_REG_7, -16));
	emit(g, STX_MEM(BPF_W, BPF_REG_10, BPF_REG_9, -12));
	emit_map(g, BPF_REG_1, cfg->events_fd);
	emit_stack_ptr(g, BPF_REG_2, -16);
	emit(g, MOV64_IMM(BPF_REG_3, sizeof(struct bp_exec_event)));
	emit(g, MOV64_IMM(BPF_REG_4, BPF_RB_FORCE_WAKEUP));
	emit(g, CALL_HELPER(BPF_FUNC_ringbuf_output));
	to_out[2] = g->n;
	emit(g, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	emit(g, JMP_IMM(BPF_JEQ, BPF_REG_9, 0, 2));
	emit(g, MOV64_IMM(BPF_REG_1, SIG_CONT));
	emit(g, CALL_HELPER(BPF_FUNC_send_signal));
}

/*
 *	<self followed>			; else goto out
 *	r1 = r10 - 24; r2 = 16
 *	call bpf_get_current_comm	; the comm exec just set
 *	*(u64 *)(r10 - 32) = 1
 *	r1 = execs ll; r2 = r10 - 24; r3 = r10 - 32; r4 = BPF_ANY
 *	call bpf_map_update_elem
 *	<watch>				; when watched
 *   out:
 *	r0 = 0
 *	exit
 */
int bp_follow__gen_exec(const struct bp_follow_cfg *cfg, struct bpf_insn *insns, size_t max)
{
	struct gen g = { .insns = insns, .max = max };
	size_t to_out[2], to_watch_out[3];
	bool watch = cfg && cfg->watch;

	if (!cfg || !set_ok(cfg) || cfg->execs_fd < 0 || (!insns && max) ||
	    (watch && (cfg->watch_fd < 0 || cfg->events_fd < 0)))
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
	if (watch)
		emit_watch(&g, cfg, to_watch_out);
	patch(&g, to_out[0], g.n);
	patch(&g, to_out[1], g.n);
	for (int i = 0; watch && i < 3; i++)
		patch(&g, to_watch_out[i], g.n);
	return finish(&g);
}
