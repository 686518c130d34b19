/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Emitting BPF instructions into a bounded buffer, for the prologue's
 * code generators (prologue.c, expr_gen.c): counting past the end so the
 * caller can tell -E2BIG, and jumps to an error block patched at the end.
 */
#ifndef BPFPROBE_INSN_BUF_H
#define BPFPROBE_INSN_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

#include "prologue/expr.h"
#include "prologue/plan.h"

/* reads, bpf_get_func_ip() calls and an expression's checks, per argument */
#define BP_EMIT_MAX_ERR_JUMPS \
	(BP_MAX_ARGS * (BP_MAX_DEREFS + 2 + 2 * BP_EXPR_MAX_OPS))

struct bp_emit {
	struct bpf_insn *insns;
	size_t max;
	size_t n;		/* counts past max so the caller can tell -E2BIG */
	/* jumps to the error block, patched once it is placed */
	size_t err_jumps[BP_EMIT_MAX_ERR_JUMPS];
	int nerr_jumps;
};

void bp_emit(struct bp_emit *e, struct bpf_insn insn);
/* dst = v: ld_imm64, two slots */
void bp_emit__ld_imm64(struct bp_emit *e, int dst, uint64_t v);
/* dst = v, in as few instructions as possible */
void bp_emit__mov_imm(struct bp_emit *e, int dst, uint64_t v);
/* dst += v (mod 2^64); scratch holds a 64-bit v when needed */
void bp_emit__add(struct bp_emit *e, int dst, uint64_t v, int scratch);
/* BPF_B, BPF_H, BPF_W or BPF_DW: the size field of a bytes-wide access */
int bp_emit__size(int bytes);
/* a conditional jump to the error block */
void bp_emit__err_jump(struct bp_emit *e, struct bpf_insn jump);
/* points the jump at index at to index to, if it was written */
void bp_emit__patch(struct bp_emit *e, size_t at, size_t to);
/* every error jump to index to */
void bp_emit__patch_errs(struct bp_emit *e, size_t to);

#endif /* BPFPROBE_INSN_BUF_H */
