/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A reference model of fetch plans (prologue/plan.h) and fetch expressions
 * (prologue/expr.h), written from their documented semantics in plain C,
 * over the interpreter's fake pt_regs, fake memory, task and entry-value
 * map (bpf_interp.h): what the generated code must compute.
 */
#ifndef BPFPROBE_TEST_FETCH_MODEL_H
#define BPFPROBE_TEST_FETCH_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "prologue/plan.h"
#include "tests/unit/bpf_interp.h"

/* What the model needs beyond the fake memory. */
struct model_env {
	const struct pt_regs_fake *regs;
	uint64_t pid_tgid;	/* for entry values */
};

/* v truncated to width bits, sign- or zero-extended back to 64. */
uint64_t ref_extend(uint64_t v, int width, bool is_signed);

/* The value of f's expression (f->expr), false when the fetch fails. */
bool ref_expr(const struct bp_fetch *f, const struct model_env *env, uint64_t *out);

/* One argument; false when the fetch fails. */
bool ref_fetch(const struct bp_fetch *f, const struct model_env *env, uint64_t *out);

/* Expected r2..r5 (want[2..5]) for plan: r2 = 1 and all 0 on a failure. */
void ref_plan(const struct bp_plan *plan, const struct model_env *env, uint64_t want[6]);

#endif /* BPFPROBE_TEST_FETCH_MODEL_H */
