/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Emitting one fetch (prologue/plan.h) as BPF instructions, for the
 * prologues of both ABIs (prologue.c: values in r3..r5; record_gen.c: a
 * record filled on the stack). ctx waits in BP_CTX_SAVE_REG across helper
 * calls; each read lands in the 8-byte slot at r10 + BP_SLOT_OFF; an
 * expression keeps its stack from r10 + BP_EXPR_STACK_OFF down
 * (BP_EXPR_STACK_BYTES, expr_gen.h). A failed read jumps to the error
 * block (bp_emit__err_jump).
 */
#ifndef BPFPROBE_FETCH_GEN_H
#define BPFPROBE_FETCH_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/bpf.h>

#include "prologue/insn_buf.h"
#include "prologue/plan.h"

/* The stack slot every read lands in. */
#define BP_SLOT_OFF	(-8)
/* Expressions keep their stack below the 8 bytes guards use at r10-16. */
#define BP_EXPR_STACK_OFF	(-24)
/* Scratch for 64-bit immediates; always rewritten before it matters. */
#define BP_SCRATCH_REG	BPF_REG_2
#define BP_CTX_SAVE_REG	BPF_REG_6

struct bp_fgen {
	struct bp_emit e;	/* the instructions, the jumps to err */
	/* registers of r1..r5 the program never reads (bp_prologue__gen) */
	uint8_t unread;
	int entry_map_fd;	/* entry values' map, or -1 */
	int stack_samples_fd;	/* $ustack's ring buffer, or -1 */
	int stack_map_fd;	/* $kstack's stack map, or -1 */
	bool cpu_v4;		/* sign-extending loads and moves (prologue.h) */
	int err;		/* an expression that cannot be compiled */
	/* r9 = r10 - 8 once, when there are enough reads to pay for it:
	 * each read then points r1 at the slot in one move, not two. r9 is
	 * free: only arguments before the last reading one wait in r7+i. */
	bool slot_in_r9;
};

#define BP_SLOT_REG	BPF_REG_9
/* the saving is one instruction a read, the setup costs two */
#define BP_SLOT_REG_MIN_READS 3

static inline void bp_fgen__emit(struct bp_fgen *g, struct bpf_insn insn)
{
	bp_emit(&g->e, insn);
}

/* Whether computing f calls a helper: then it belongs to a prologue's
 * call section. An expression always does: it needs ctx saved and
 * scratch registers. */
bool bp_fgen__needs_call(const struct bp_fetch *f);

/* dst = f's value, which reads no memory, from ctx (in register ctx). */
void bp_fgen__direct(struct bp_fgen *g, int dst, int ctx, const struct bp_fetch *f);

/* dst = f's value, through helper calls (ctx in BP_CTX_SAVE_REG). */
void bp_fgen__call(struct bp_fgen *g, int dst, const struct bp_fetch *f);

/*
 * The record ABI: f's last read (STRING or BYTES) copies f->len bytes to
 * the stack at r10 + dst_off; its other reads are as for a value.
 */
void bp_fgen__object(struct bp_fgen *g, const struct bp_fetch *f, int dst_off);

/* 0 when f is well-formed, else -EINVAL. */
int bp_fgen__check(const struct bp_fetch *f);

#endif /* BPFPROBE_FETCH_GEN_H */
