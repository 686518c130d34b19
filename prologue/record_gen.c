// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The record ABI's prologue (prologue.h): a plan with record set fills a
 * record of rec_size bytes on the BPF stack, below all that the program's
 * body and the prologue itself use, one member per fetch, and hands the
 * program its address in r2:
 *
 *	r6 = r1
 *	*(u64 *)(r10 + rec + 8k) = 0		; the whole record
 *	r7 = 0					; err bits, if it has err
 *	<each fetch, in SEC order:>
 *	  <its value in r3>; *(uN *)(r10 + rec + off) = r3
 *	  or <its string or bytes read to r10 + rec + off>
 *	  on a failed read: r7 |= 1 << i (its member stays 0; a read helper
 *	  zeroes what it failed to copy)
 *	*(u64 *)(r10 + rec + err_off) = r7
 *	r1 = r6
 *	r2 = r10 + rec
 *
 * The stack is the record's home because it is the program's own: a
 * uprobe program that is preempted, or one that runs again on the same
 * CPU meanwhile, cannot overwrite it, as it could per-CPU memory.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "prologue/expr_gen.h"
#include "prologue/fetch_gen.h"
#include "prologue/insn.h"
#include "prologue/prologue.h"

#define ERR_REG		BPF_REG_7

int bp_prologue__stack_use(const struct bp_plan *plan)
{
	int use = -BP_EXPR_STACK_OFF;

	for (int i = 0; i < plan->nargs && i < BP_MAX_ARGS; i++)
		if (plan->args[i].base == BP_BASE_EXPR)
			return use + BP_EXPR_STACK_BYTES;
	return use;
}

/* Whether every member a fetch writes lies inside the record. */
static int check_record(const struct bp_plan *plan, int rec_off)
{
	uint32_t size = plan->rec_size;

	if (!plan->record || !size || size > 512 || rec_off > -(int)size || rec_off < -512)
		return -EINVAL;
	if (plan->err_off >= 0 && (uint32_t)plan->err_off + 8 > size)
		return -EINVAL;
	for (int i = 0; i < plan->nargs; i++) {
		const struct bp_fetch *f = &plan->args[i];
		bool object = f->kind == BP_FETCH_STRING || f->kind == BP_FETCH_BYTES;
		uint32_t n = object ? f->len : f->store_size;

		if (!object && n != 1 && n != 2 && n != 4 && n != 8)
			return -EINVAL;
		if (!n || f->rec_off > size || n > size - f->rec_off)
			return -EINVAL;
	}
	return 0;
}

/* Fetch i, into its member. */
static void emit_fetch(struct bp_fgen *g, const struct bp_plan *plan, int i, int rec_off)
{
	const struct bp_fetch *f = &plan->args[i];
	int at = rec_off + (int)f->rec_off;

	if (f->kind == BP_FETCH_STRING || f->kind == BP_FETCH_BYTES) {
		bp_fgen__object(g, f, at);
		return;
	}
	if (bp_fgen__needs_call(f))
		bp_fgen__call(g, BPF_REG_3, f);
	else
		bp_fgen__direct(g, BPF_REG_3, BP_CTX_SAVE_REG, f);
	bp_fgen__emit(g, STX_MEM(bp_emit__size(f->store_size), BPF_REG_10, BPF_REG_3, at));
}

int bp_prologue__gen_record(const struct bp_plan *plan, int rec_off, uint8_t unread,
			    const struct bp_prologue_opts *opts, struct bpf_insn *insns,
			    size_t max)
{
	struct bp_fgen g = {
		.e = { .insns = insns, .max = max },
		.unread = unread,
		.entry_map_fd = opts ? opts->entry_map_fd : -1,
		.stack_samples_fd = opts ? opts->stack_samples_fd : -1,
		.stack_map_fd = opts ? opts->stack_map_fd : -1,
		.cpu_v4 = opts && opts->cpu_v4,
	};
	bool has_err;
	int i, err;

	if (!plan || (!insns && max) || plan->nargs < 0 || plan->nargs > BP_MAX_ARGS)
		return -EINVAL;
	has_err = plan->err_off >= 0;
	err = check_record(plan, rec_off);
	for (i = 0; i < plan->nargs && !err; i++)
		err = bp_fgen__check(&plan->args[i]);
	if (err)
		return err;

	bp_fgen__emit(&g, MOV64_REG(BP_CTX_SAVE_REG, BPF_REG_1));
	for (uint32_t k = 0; k < plan->rec_size; k += 8)
		bp_fgen__emit(&g, ST_MEM(BPF_DW, BPF_REG_10, rec_off + (int)k, 0));
	if (has_err)
		bp_fgen__emit(&g, MOV64_IMM(ERR_REG, 0));
	for (i = 0; i < plan->nargs; i++) {
		size_t skip, fail;

		g.e.nerr_jumps = 0;
		emit_fetch(&g, plan, i, rec_off);
		if (!g.e.nerr_jumps)
			continue;
		if (!has_err) {
			/* nothing to say: a failed read skips the rest of it */
			bp_emit__patch_errs(&g.e, g.e.n);
			continue;
		}
		skip = g.e.n;
		bp_fgen__emit(&g, JMP_JA(0));
		fail = g.e.n;
		bp_fgen__emit(&g, ALU64_IMM(BPF_OR, ERR_REG, 1 << i));
		bp_emit__patch(&g.e, skip, g.e.n);
		bp_emit__patch_errs(&g.e, fail);
	}
	if (has_err)
		bp_fgen__emit(&g, STX_MEM(BPF_DW, BPF_REG_10, ERR_REG, rec_off + plan->err_off));
	bp_fgen__emit(&g, MOV64_REG(BPF_REG_1, BP_CTX_SAVE_REG));
	bp_fgen__emit(&g, MOV64_REG(BPF_REG_2, BPF_REG_10));
	bp_fgen__emit(&g, ALU64_IMM(BPF_ADD, BPF_REG_2, rec_off));
	/* r3..r5 mean nothing here: zeroed if the body reads them anyway */
	for (i = BPF_REG_3; i <= BPF_REG_5; i++)
		if (!(unread & (1u << i)))
			bp_fgen__emit(&g, MOV64_IMM(i, 0));
	if (g.err)
		return g.err;
	if (g.e.n > max || g.e.n > BP_PROLOGUE_MAX_INSNS)
		return -E2BIG;
	return (int)g.e.n;
}
