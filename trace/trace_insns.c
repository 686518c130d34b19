// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The generated programs' instructions (trace_gen.h). The prologue runs
 * before them and hands over r1 = ctx and r2 = the record, on the stack.
 * A program that records a hit:
 *
 *	r6 = r1; r7 = r2
 *	r0 = bpf_ringbuf_reserve(&trace_events, HDR + record, 0)
 *	if r0 == 0: count the loss in trace_lost[0] (per CPU); return 0
 *	r8 = r0
 *	hdr->time_ns = bpf_ktime_get_ns()
 *	hdr->tid, pid = bpf_get_current_pid_tgid()
 *	bpf_get_current_comm(hdr->comm, 16)
 *	hdr->point = bpf_get_attach_cookie(r6); hdr->prog = N
 *	copy the record, 8 bytes at a time (the prologue zeroed all of it)
 *	bpf_ringbuf_submit(r8, BPF_RB_NO_WAKEUP, or BPF_RB_FORCE_WAKEUP once
 *		a quarter of the ring is waiting: bpf_ringbuf_query()); return 0
 *
 * A wakeup per record (the default) is an irq_work per hit: 12 us a hit
 * in a VM where its interrupt exits to the host, against 0.2 us without.
 * The reader reads every 50 ms (trace_out.c) and when woken.
 *
 * One that counts (count): trace_counts[bpf_get_attach_cookie(ctx)] += 1,
 * an atomic add to this CPU's counter. One that keeps a histogram (hist):
 * trace_hist[cookie * BP_TRACE_HIST_SLOTS + slot] += 1, the slot the
 * member's power of two (or the last, when the member could not be read).
 * None uses more stack than the 4-byte key, so the record has the rest.
 */
#include <errno.h>
#include <stddef.h>
#include "prologue/insn.h"
#include "trace/trace_gen.h"

#define HDR_SIZE	((int)sizeof(struct bp_trace_hdr))
#define PERCPU_DEF_SIZE	32	/* type, key, value, max_entries */
#define RINGBUF_DEF_SIZE 16	/* type, max_entries */

void bp_trace__maps(const struct bp_trace *t, struct bp_trace_map_def *defs, int *n)
{
	__u32 off = 0;

	*n = 0;
	if (t->hist) {
		defs[(*n)++] = (struct bp_trace_map_def){
			.id = BP_TRACE_HIST, .name = BP_TRACE_MAP_HIST,
			.type = BPF_MAP_TYPE_PERCPU_ARRAY,
			.max_entries = (t->npoints ? t->npoints : 1) * BP_TRACE_HIST_SLOTS,
			.typed = true, .size = PERCPU_DEF_SIZE,
		};
	} else if (!t->count) {
		defs[(*n)++] = (struct bp_trace_map_def){
			.id = BP_TRACE_EVENTS, .name = BP_TRACE_MAP_EVENTS,
			.type = BPF_MAP_TYPE_RINGBUF, .max_entries = t->ring_size,
			.size = RINGBUF_DEF_SIZE,
		};
		defs[(*n)++] = (struct bp_trace_map_def){
			.id = BP_TRACE_LOST, .name = BP_TRACE_MAP_LOST,
			.type = BPF_MAP_TYPE_PERCPU_ARRAY, .max_entries = 1, .typed = true,
			.size = PERCPU_DEF_SIZE,
		};
	} else {
		defs[(*n)++] = (struct bp_trace_map_def){
			.id = BP_TRACE_COUNTS, .name = BP_TRACE_MAP_COUNTS,
			.type = BPF_MAP_TYPE_PERCPU_ARRAY,
			.max_entries = t->npoints ? t->npoints : 1, .typed = true,
			.size = PERCPU_DEF_SIZE,
		};
	}
	for (int i = 0; i < *n; i++) {
		defs[i].off = off;
		off += defs[i].size;
	}
}

struct emit {
	struct bpf_insn *insns;
	size_t n, max;
	struct bp_trace_reloc *relocs;
	int nrelocs;
};

static void put(struct emit *e, struct bpf_insn insn)
{
	if (e->n < e->max)
		e->insns[e->n] = insn;
	e->n++;
}

/* dst = &map (an ldimm64 libbpf relocates) */
static void put_map(struct emit *e, int dst, int map)
{
	if (e->nrelocs < BP_TRACE_MAX_RELOCS)
		e->relocs[e->nrelocs] = (struct bp_trace_reloc){ .insn = (int)e->n, .map = map };
	e->nrelocs++;
	put(e, INSN(BPF_LD | BPF_DW | BPF_IMM, dst, 0, 0, 0));
	put(e, INSN(0, 0, 0, 0, 0));
}

/* r0 = map[*(u32 *)(r10 - 4)]; if found, lock *(u64 *)r0 += 1; then out */
static void add_one(struct emit *e, int map)
{
	put_map(e, BPF_REG_1, map);
	put(e, MOV64_REG(BPF_REG_2, BPF_REG_10));
	put(e, ALU64_IMM(BPF_ADD, BPF_REG_2, -4));
	put(e, CALL_HELPER(BPF_FUNC_map_lookup_elem));
	put(e, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 2));
	put(e, MOV64_IMM(BPF_REG_1, 1));
	put(e, ATOMIC_OP(BPF_DW, BPF_ADD, BPF_REG_0, BPF_REG_1, 0));
}

static void count_body(struct emit *e)
{
	/* r1 is ctx */
	put(e, CALL_HELPER(BPF_FUNC_get_attach_cookie));
	put(e, STX_MEM(BPF_W, BPF_REG_10, BPF_REG_0, -4));
	add_one(e, BP_TRACE_COUNTS);
}

/* Jumps at from (a put(JMP_*)) patched to land here. */
static void land(struct emit *e, const size_t *from, int n)
{
	for (int k = 0; k < n; k++)
		if (from[k] < e->max)
			e->insns[from[k]].off = (short)(e->n - from[k] - 1);
}

static void hist_body(struct emit *e, const struct bp_trace *t, int i)
{
	const struct bp_trace_prog *p = &t->progs[i];
	const struct bp_trace_member *m = &p->members[p->hist_member];
	static const int shifts[] = { 32, 16, 8, 4, 2, 1 };
	size_t to_add[4];
	int nadd = 0, bits = 8 * m->size;

	put(e, MOV64_REG(BPF_REG_7, BPF_REG_2));
	/* r1 is ctx */
	put(e, CALL_HELPER(BPF_FUNC_get_attach_cookie));
	put(e, MOV64_REG(BPF_REG_8, BPF_REG_0));
	put(e, ALU64_IMM(BPF_MUL, BPF_REG_8, BP_TRACE_HIST_SLOTS));
	if (p->err_off >= 0) {
		/* not read: the last slot */
		put(e, LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_7, (short)p->err_off));
		put(e, ALU64_IMM(BPF_RSH, BPF_REG_1, m->arg));
		put(e, ALU64_IMM(BPF_AND, BPF_REG_1, 1));
		put(e, MOV64_IMM(BPF_REG_2, BP_TRACE_HIST_VALUES));
		to_add[nadd++] = e->n;
		put(e, JMP_IMM(BPF_JNE, BPF_REG_1, 0, 0));
	}
	put(e, LDX_MEM(m->size == 1 ? BPF_B : m->size == 2 ? BPF_H : m->size == 4 ? BPF_W : BPF_DW,
		       BPF_REG_1, BPF_REG_7, (short)m->off));
	if (m->kind == BP_TRACE_SINT) {
		if (bits < 64) {
			put(e, ALU64_IMM(BPF_LSH, BPF_REG_1, 64 - bits));
			put(e, ALU64_IMM(BPF_ARSH, BPF_REG_1, 64 - bits));
		}
		put(e, MOV64_IMM(BPF_REG_2, 0));
		to_add[nadd++] = e->n;
		put(e, JMP_IMM(BPF_JSLT, BPF_REG_1, 0, 0));
	}
	put(e, MOV64_IMM(BPF_REG_2, 1));
	to_add[nadd++] = e->n;
	put(e, JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 0));
	/* r2 = 2 + the highest bit set: a binary search */
	put(e, MOV64_IMM(BPF_REG_2, 2));
	for (int k = 0; k < 6; k++) {
		put(e, MOV64_REG(BPF_REG_3, BPF_REG_1));
		put(e, ALU64_IMM(BPF_RSH, BPF_REG_3, shifts[k]));
		put(e, JMP_IMM(BPF_JEQ, BPF_REG_3, 0, 2));
		put(e, MOV64_REG(BPF_REG_1, BPF_REG_3));
		put(e, ALU64_IMM(BPF_ADD, BPF_REG_2, shifts[k]));
	}
	land(e, to_add, nadd);
	put(e, ALU64_REG(BPF_ADD, BPF_REG_8, BPF_REG_2));
	put(e, STX_MEM(BPF_W, BPF_REG_10, BPF_REG_8, -4));
	add_one(e, BP_TRACE_HIST);
}

static void record_body(struct emit *e, const struct bp_trace *t, int i)
{
	const struct bp_trace_prog *p = &t->progs[i];
	size_t branch;

	put(e, MOV64_REG(BPF_REG_6, BPF_REG_1));
	put(e, MOV64_REG(BPF_REG_7, BPF_REG_2));
	put_map(e, BPF_REG_1, BP_TRACE_EVENTS);
	put(e, MOV64_IMM(BPF_REG_2, HDR_SIZE + (int)p->rec_size));
	put(e, MOV64_IMM(BPF_REG_3, 0));
	put(e, CALL_HELPER(BPF_FUNC_ringbuf_reserve));
	branch = e->n;
	put(e, JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0));
	/* the ring is full: counted, the hit is lost */
	put(e, ST_MEM(BPF_W, BPF_REG_10, -4, 0));
	add_one(e, BP_TRACE_LOST);
	put(e, MOV64_IMM(BPF_REG_0, 0));
	put(e, EXIT_INSN());
	if (branch < e->max)
		e->insns[branch].off = (short)(e->n - branch - 1);

	put(e, MOV64_REG(BPF_REG_8, BPF_REG_0));
	put(e, CALL_HELPER(BPF_FUNC_ktime_get_ns));
	put(e, STX_MEM(BPF_DW, BPF_REG_8, BPF_REG_0, offsetof(struct bp_trace_hdr, time_ns)));
	put(e, CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	put(e, STX_MEM(BPF_DW, BPF_REG_8, BPF_REG_0, offsetof(struct bp_trace_hdr, tid)));
	put(e, MOV64_REG(BPF_REG_1, BPF_REG_8));
	put(e, ALU64_IMM(BPF_ADD, BPF_REG_1, offsetof(struct bp_trace_hdr, comm)));
	put(e, MOV64_IMM(BPF_REG_2, sizeof(((struct bp_trace_hdr *)0)->comm)));
	put(e, CALL_HELPER(BPF_FUNC_get_current_comm));
	put(e, MOV64_REG(BPF_REG_1, BPF_REG_6));
	put(e, CALL_HELPER(BPF_FUNC_get_attach_cookie));
	put(e, STX_MEM(BPF_W, BPF_REG_8, BPF_REG_0, offsetof(struct bp_trace_hdr, point)));
	put(e, ST_MEM(BPF_W, BPF_REG_8, offsetof(struct bp_trace_hdr, prog), i));
	for (uint32_t k = 0; k < p->rec_size; k += 8) {
		put(e, LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_7, (short)k));
		put(e, STX_MEM(BPF_DW, BPF_REG_8, BPF_REG_1, (short)(HDR_SIZE + k)));
	}
	/* the reader is woken only once a quarter of the ring waits */
	put_map(e, BPF_REG_1, BP_TRACE_EVENTS);
	put(e, MOV64_IMM(BPF_REG_2, BPF_RB_AVAIL_DATA));
	put(e, CALL_HELPER(BPF_FUNC_ringbuf_query));
	put(e, MOV64_IMM(BPF_REG_2, BPF_RB_NO_WAKEUP));
	put(e, JMP_IMM(BPF_JLT, BPF_REG_0, (int)(t->ring_size / 4), 1));
	put(e, MOV64_IMM(BPF_REG_2, BPF_RB_FORCE_WAKEUP));
	put(e, MOV64_REG(BPF_REG_1, BPF_REG_8));
	put(e, CALL_HELPER(BPF_FUNC_ringbuf_submit));
}

int bp_trace__insns(const struct bp_trace *t, int i, struct bpf_insn *insns, size_t max,
		    struct bp_trace_reloc *relocs, int *nrelocs)
{
	struct emit e = { .insns = insns, .max = max, .relocs = relocs };

	if (t->hist)
		hist_body(&e, t, i);
	else if (t->count)
		count_body(&e);
	else
		record_body(&e, t, i);
	put(&e, MOV64_IMM(BPF_REG_0, 0));
	put(&e, EXIT_INSN());
	if (e.n > max || e.nrelocs > BP_TRACE_MAX_RELOCS)
		return -E2BIG;
	*nrelocs = e.nrelocs;
	return (int)e.n;
}
