// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The prologue generator: compiles a fetch plan (prologue/plan.h) to BPF
 * instructions that leave the fetched arguments in r3..r5.
 *
 * Two shapes:
 *
 *  - No argument dereferences memory: nothing can fail and no helper is
 *    called, so each argument is loaded straight from ctx (r1) into its
 *    output register and extended there. No stack, no error path.
 *
 *  - Some argument calls a helper (it dereferences memory, or it is a
 *    global at a uretprobe, whose load bias comes from bpf_get_func_ip()),
 *    or is an expression (expr_gen.c, its stack below r10-24):
 *    ctx is kept in r6 across the calls, each read lands in the 8-byte
 *    slot at r10-8, and a finished argument waits in r7..r9 (callee-saved)
 *    until no more calls follow. The last such argument and all the
 *    others are computed directly in r3..r5 after the final call. A failed
 *    read (or a zero function address) jumps to a shared error block.
 *
 * At fentry/fexit the arguments are the u64 array ctx points to, not
 * pt_regs: a BP_BASE_CTX fetch loads its slot (ctx + 8 * index).
 *
 * A value narrower than 64 bits is loaded narrow where it sits whole and
 * aligned (pt_regs, and the stack slot a read filled, are little-endian:
 * the low bytes of a register are at its offset): the load zero-extends,
 * and with cpu v4 (bp_prologue_opts.cpu_v4) a BPF_MEMSX load sign-extends.
 * Else it is loaded whole and cut to size: a sign-extending move with cpu
 * v4, two shifts without. So `int a, long b, unsigned short c` in registers
 * costs one load each.
 *
 * A global's address is its link-time address plus the load bias of the
 * probed object, which is the run-time address of the probe point minus
 * its link-time address (the plan's anchor): pt_regs ip at a uprobe, which
 * the kernel sets to the probed instruction, or bpf_get_func_ip() at a
 * uretprobe, where ip is already the return address in the caller.
 *
 * The layout of the second shape:
 *
 *	r6 = r1
 *	<fetch dereferencing args>	; on failure: goto err
 *	<move/compute args into r3..r5>
 *	r2 = 0
 *	goto unused
 *   err:
 *	r2 = 1
 *	r3.. = 0			; one per used arg
 *   unused:
 *	r(3+nargs).. = 0		; unused args, shared by both paths
 *	r1 = r6
 *	<program body>
 *
 * Registers the program never reads (unread: its prototype does
 * not declare them, or its body writes them before any read) are left
 * alone, except r2 and the fetched arguments of the second shape: a
 * failed read must still reach r2, and perf sets them the same way.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "prologue/arch.h"
#include "prologue/insn_buf.h"
#include "prologue/expr_gen.h"
#include "prologue/fetch_gen.h"
#include "prologue/insn.h"
#include "prologue/prologue.h"

/* May the program read register reg (r1..r5) before writing it? Its
 * prototype and the liveness of its body say (the caller's unread). */
static bool reads(const struct bp_fgen *g, int reg)
{
	return !(g->unread & (1u << reg));
}

/* Zeroes what the program reads of r(3+from)..r5. */
static void zero_args_from(struct bp_fgen *g, const struct bp_plan *plan, int from)
{
	for (int i = from; i < BP_MAX_REG_ARGS; i++)
		if (reads(g, BPF_REG_3 + i))
			bp_fgen__emit(g, MOV64_IMM(BPF_REG_3 + i, 0));
}

static void gen_fast(struct bp_fgen *g, const struct bp_plan *plan)
{
	int i;

	for (i = 0; i < plan->nargs; i++)
		if (reads(g, BPF_REG_3 + i))
			bp_fgen__direct(g, BPF_REG_3 + i, BPF_REG_1, &plan->args[i]);
	if (reads(g, BPF_REG_2))
		bp_fgen__emit(g, MOV64_IMM(BPF_REG_2, 0));
	zero_args_from(g, plan, plan->nargs);
}

static void gen_slow(struct bp_fgen *g, const struct bp_plan *plan)
{
	size_t goto_unused, err, unused;
	int i, k, last = -1;

	for (i = 0; i < plan->nargs; i++) {
		if (bp_fgen__needs_call(&plan->args[i]))
			last = i;
	}

	bp_fgen__emit(g, MOV64_REG(BP_CTX_SAVE_REG, BPF_REG_1));
	for (i = 0, k = 0; i < plan->nargs; i++)
		k += plan->args[i].nderef;
	if (k >= BP_SLOT_REG_MIN_READS) {
		bp_fgen__emit(g, MOV64_REG(BP_SLOT_REG, BPF_REG_10));
		bp_fgen__emit(g, ALU64_IMM(BPF_ADD, BP_SLOT_REG, BP_SLOT_OFF));
		g->slot_in_r9 = true;
	}
	for (i = 0; i < plan->nargs; i++) {
		if (bp_fgen__needs_call(&plan->args[i]))
			bp_fgen__call(g, i == last ? BPF_REG_3 + i : BPF_REG_7 + i,
				      &plan->args[i]);
	}

	/* no helper calls from here on: r3..r5 are safe to fill */
	for (i = 0; i < plan->nargs; i++) {
		if (!bp_fgen__needs_call(&plan->args[i]))
			bp_fgen__direct(g, BPF_REG_3 + i, BP_CTX_SAVE_REG,
					&plan->args[i]);
		else if (i != last)
			bp_fgen__emit(g, MOV64_REG(BPF_REG_3 + i, BPF_REG_7 + i));
	}
	bp_fgen__emit(g, MOV64_IMM(BPF_REG_2, 0));
	/* nothing can fail (an expression over registers only): no error
	 * block, which the verifier would refuse as unreachable */
	if (!g->e.nerr_jumps) {
		zero_args_from(g, plan, plan->nargs);
		if (reads(g, BPF_REG_1))
			bp_fgen__emit(g, MOV64_REG(BPF_REG_1, BP_CTX_SAVE_REG));
		return;
	}
	goto_unused = g->e.n;
	bp_fgen__emit(g, JMP_JA(0));

	err = g->e.n;
	bp_fgen__emit(g, MOV64_IMM(BPF_REG_2, 1));
	for (i = 0; i < plan->nargs; i++)
		if (reads(g, BPF_REG_3 + i))
			bp_fgen__emit(g, MOV64_IMM(BPF_REG_3 + i, 0));

	unused = g->e.n;
	zero_args_from(g, plan, plan->nargs);
	if (reads(g, BPF_REG_1))
		bp_fgen__emit(g, MOV64_REG(BPF_REG_1, BP_CTX_SAVE_REG));

	bp_emit__patch(&g->e, goto_unused, unused);
	bp_emit__patch_errs(&g->e, err);
}

void bp_prologue__preamble(struct bpf_insn *insns)
{
	int i;

	for (i = 0; i < BP_PREAMBLE_LEN; i++)
		insns[i] = MOV64_IMM(BPF_REG_2 + i, 0);
}

void bp_prologue__record_preamble(struct bpf_insn *insns, int map_fd)
{
	insns[0] = LD_MAP_VALUE_0(BPF_REG_2, map_fd);
	insns[1] = LD_MAP_VALUE_1(0);
	for (int i = 0; i < 3; i++)
		insns[2 + i] = MOV64_IMM(BPF_REG_3 + i, 0);
}

int bp_prologue__gen(const struct bp_plan *plan, uint8_t unread,
		     struct bpf_insn *insns, size_t max)
{
	return bp_prologue__gen_opts(plan, unread, NULL, insns, max);
}

int bp_prologue__gen_opts(const struct bp_plan *plan, uint8_t unread,
			  const struct bp_prologue_opts *opts,
			  struct bpf_insn *insns, size_t max)
{
	struct bp_fgen g = {
		.e = { .insns = insns, .max = max },
		.unread = unread,
		.entry_map_fd = opts ? opts->entry_map_fd : -1,
		.stack_samples_fd = opts ? opts->stack_samples_fd : -1,
		.stack_map_fd = opts ? opts->stack_map_fd : -1,
		.cpu_v4 = opts && opts->cpu_v4,
	};
	bool has_call = false;
	int i, err;

	if (!plan || (!insns && max))
		return -EINVAL;
	/* the register ABI: values in r3..r5 (record_gen.c does records) */
	if (plan->nargs < 0 || plan->nargs > BP_MAX_REG_ARGS || plan->record)
		return -EINVAL;
	for (i = 0; i < plan->nargs; i++) {
		err = bp_fgen__check(&plan->args[i]);
		if (!err && (plan->args[i].kind == BP_FETCH_STRING ||
			     plan->args[i].kind == BP_FETCH_BYTES))
			err = -EINVAL;
		if (err)
			return err;
		if (bp_fgen__needs_call(&plan->args[i]))
			has_call = true;
	}

	if (has_call)
		gen_slow(&g, plan);
	else
		gen_fast(&g, plan);	/* nargs == 0 ends up as the preamble */

	if (g.err)
		return g.err;
	if (g.e.n > max || g.e.n > BP_PROLOGUE_MAX_INSNS)
		return -E2BIG;
	return (int)g.e.n;
}
