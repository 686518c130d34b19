/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Fetch expressions compiled to BPF (expr_gen.c), for the prologue. */
#ifndef BPFPROBE_EXPR_GEN_H
#define BPFPROBE_EXPR_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "prologue/insn_buf.h"
#include "prologue/expr.h"

/* What compiling one expression needs to know. */
struct bp_expr_env {
	const struct bp_expr *expr;	/* well formed (bp_expr__check) */
	int ctx_reg;		/* a callee-saved register holding ctx */
	uint64_t anchor;	/* the fetch's anchor (plan.h) */
	int anchor_kind;
	int entry_map_fd;	/* the entry-value map; < 0: none */
	/* slot 0 of the expression's stack, below r10; BP_EXPR_MAX_DEPTH + 1
	 * slots from there down are used */
	int stack_off;
	bool cpu_v4;		/* sign-extending loads and moves (prologue.h) */
};

/* Bytes of BPF stack an expression may use below env->stack_off. */
#define BP_EXPR_STACK_BYTES	(8 * (BP_EXPR_MAX_DEPTH + 1))

/*
 * Emits expr's code, the result in dst (written last; r0..r5 are
 * clobbered), or with dst < 0 left in its stack slot, the 8 bytes at
 * r10 + env->stack_off. -EINVAL for an expression it cannot compile (an
 * entry value without a map, or at a return probe).
 */
int bp_expr__gen(struct bp_emit *e, const struct bp_expr_env *env, int dst);

#endif /* BPFPROBE_EXPR_GEN_H */
