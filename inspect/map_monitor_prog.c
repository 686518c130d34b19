// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The code of a map monitor's program (map_monitor_prog.h):
 *
 *	<the map guard>			; other maps end here
 *	r6 = r1				; ctx
 *	r1 = ringbuf ll
 *	r2 = SIZE
 *	r3 = 0
 *	call bpf_ringbuf_reserve
 *	if r0 == 0 goto out		; full: the kernel counts nothing, nor do we
 *	r7 = r0
 *	call bpf_ktime_get_ns		; *(u64 *)(r7 + TS) = r0
 *	call bpf_get_current_pid_tgid	; *(u64 *)(r7 + PID) = r0
 *	r0 = *(u64 *)(r6 + flags_off)	; or 0
 *	*(u64 *)(r7 + FLAGS) = r0
 *	r1 = r7 + COMM; r2 = 16; call bpf_get_current_comm
 *	*(u32 *)(r7 + FUNC) = func
 *	call bpf_get_smp_processor_id	; *(u32 *)(r7 + CPU) = r0
 *	*(u32 *)(r7 + CPU + 4) = 0
 *	r8 = 0
 *	r1 = r7 + KEY; r2 = key_size; r3 = *(u64 *)(r6 + key_off)
 *	call bpf_probe_read_kernel; r8 |= r0
 *	(updates: the same for the value)
 *	*(u32 *)(r7 + ERR) = r8
 *	r1 = r7; r2 = 0; call bpf_ringbuf_submit
 *   out:
 *	r0 = 0
 *	exit
 */
#include <errno.h>
#include <stdbool.h>

#include "inspect/map_monitor_prog.h"
#include "prologue/insn.h"

struct gen {
	struct bpf_insn *insns;
	size_t max, n;
};

static void emit(struct gen *g, struct bpf_insn insn)
{
	if (g->n < g->max)
		g->insns[g->n] = insn;
	g->n++;
}

static void emit_call_store(struct gen *g, int fn, int size, int off)
{
	emit(g, CALL_HELPER(fn));
	emit(g, STX_MEM(size, BPF_REG_7, BPF_REG_0, off));
}

/* r1 = r7 + off; r2 = size; r3 = *(u64 *)(ctx + src); read; r8 |= r0 */
static void emit_copy(struct gen *g, int off, uint32_t size, int src)
{
	emit(g, MOV64_REG(BPF_REG_1, BPF_REG_7));
	emit(g, ALU64_IMM(BPF_ADD, BPF_REG_1, off));
	emit(g, MOV64_IMM(BPF_REG_2, size));
	emit(g, LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, src));
	emit(g, CALL_HELPER(BPF_FUNC_probe_read_kernel));
	emit(g, ALU64_REG(BPF_OR, BPF_REG_8, BPF_REG_0));
}

size_t bp_mrec__size(const struct bp_mrec_prog *p)
{
	return BP_MREC_VALUE(p->key_size) + (p->value_off >= 0 ? p->value_size : 0);
}

int bp_mrec__gen(const struct bp_mrec_prog *p, struct bpf_insn *insns, size_t max)
{
	struct gen g = { .insns = insns, .max = max };
	size_t to_out;
	int n;

	if (!p->key_size || p->key_off < 0 || p->key_off % 8 ||
	    (p->value_off >= 0 && (!p->value_size || p->value_size > BP_MREC_MAX_VALUE)))
		return -EINVAL;
	n = p->guards ? bp_guards__gen(p->guards, insns, max) : 0;
	if (n < 0)
		return n;
	g.n = n;
	emit(&g, MOV64_REG(BPF_REG_6, BPF_REG_1));
	emit(&g, LD_MAP_FD_0(BPF_REG_1, p->rb_fd));
	emit(&g, LD_MAP_FD_1());
	emit(&g, MOV64_IMM(BPF_REG_2, bp_mrec__size(p)));
	emit(&g, MOV64_IMM(BPF_REG_3, 0));
	emit(&g, CALL_HELPER(BPF_FUNC_ringbuf_reserve));
	to_out = g.n;
	emit(&g, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	emit(&g, MOV64_REG(BPF_REG_7, BPF_REG_0));
	emit_call_store(&g, BPF_FUNC_ktime_get_ns, BPF_DW, BP_MREC_TS);
	emit_call_store(&g, BPF_FUNC_get_current_pid_tgid, BPF_DW, BP_MREC_PID);
	if (p->flags_off >= 0)
		emit(&g, LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6, p->flags_off));
	else
		emit(&g, MOV64_IMM(BPF_REG_0, 0));
	emit(&g, STX_MEM(BPF_DW, BPF_REG_7, BPF_REG_0, BP_MREC_FLAGS));
	emit(&g, MOV64_REG(BPF_REG_1, BPF_REG_7));
	emit(&g, ALU64_IMM(BPF_ADD, BPF_REG_1, BP_MREC_COMM));
	emit(&g, MOV64_IMM(BPF_REG_2, 16));
	emit(&g, CALL_HELPER(BPF_FUNC_get_current_comm));
	emit(&g, ST_MEM(BPF_W, BPF_REG_7, BP_MREC_FUNC, p->func));
	emit_call_store(&g, BPF_FUNC_get_smp_processor_id, BPF_W, BP_MREC_CPU);
	emit(&g, ST_MEM(BPF_W, BPF_REG_7, BP_MREC_CPU + 4, 0));
	emit(&g, MOV64_IMM(BPF_REG_8, 0));
	emit_copy(&g, BP_MREC_KEY, p->key_size, p->key_off);
	if (p->value_off >= 0)
		emit_copy(&g, BP_MREC_VALUE(p->key_size), p->value_size, p->value_off);
	emit(&g, STX_MEM(BPF_W, BPF_REG_7, BPF_REG_8, BP_MREC_ERR));
	emit(&g, MOV64_REG(BPF_REG_1, BPF_REG_7));
	emit(&g, MOV64_IMM(BPF_REG_2, 0));
	emit(&g, CALL_HELPER(BPF_FUNC_ringbuf_submit));
	if (to_out < max)
		insns[to_out].off = (int16_t)(g.n - to_out - 1);
	emit(&g, MOV64_IMM(BPF_REG_0, 0));
	emit(&g, EXIT_INSN());
	if (g.n > max)
		return -E2BIG;
	return (int)g.n;
}
