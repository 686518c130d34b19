/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Compiles a fetch plan to BPF instructions. Pure: no kernel needed.
 *
 * Contract of the generated prologue (it runs first, r1 = ctx = struct pt_regs *):
 *   on success: r2 = 0, r3..r5 = fetched args (unused ones 0), r1 = ctx
 *   on any failed read: r2 = 1 (non-zero), r3..r5 = 0, r1 = ctx
 * except that registers in unread (the program never reads them) may be
 * left unset. It may use r6..r9, the 8 bytes at r10-8 and, for an
 * expression (BP_BASE_EXPR), BP_EXPR_STACK_BYTES (expr_gen.h) from r10-24
 * down; the program body follows it directly (falls through from the last
 * prologue instruction).
 */
#ifndef BPFPROBE_PROLOGUE_H
#define BPFPROBE_PROLOGUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>
#include "prologue/plan.h"

/* r2 = r3 = r4 = r5 = 0: what the prototype is loaded with. */
#define BP_PREAMBLE_LEN 4
void bp_prologue__preamble(struct bpf_insn *insns);

/*
 * The registers of r1..r5 a program never reads before writing them (bit
 * r: BPF_REG_r), which its prologue need not set: those its BTF prototype
 * does not declare, and those the liveness of its body (liveness.h) finds
 * unread. 0: unknown, all are set.
 */
#define BP_UNREAD_ALL	0x3e	/* every one of r1..r5 */
/* what a prototype of nparams parameters leaves unread: r(nparams+1)..r5 */
#define BP_UNREAD_PARAMS(nparams) \
	((nparams) >= 5 ? 0 : BP_UNREAD_ALL & ~((2u << (nparams)) - 1))

/* Upper bound on bp_prologue__gen()'s output for any plan. */
#define BP_PROLOGUE_MAX_INSNS 4096

/*
 * Writes the prologue for plan into insns (room for max), for a program
 * that never reads the registers in unread (BP_UNREAD_*). Returns the
 * number of instructions, or -EINVAL (bad plan) / -E2BIG (no room).
 */
int bp_prologue__gen(const struct bp_plan *plan, uint8_t unread,
		     struct bpf_insn *insns, size_t max);

/* What a plan's prologue may refer to beyond the plan. */
struct bp_prologue_opts {
	/* the entry-value map (prologue/entry_save.h) the plan's
	 * BP_XOP_ENTRY_REG read; < 0: none, and such a plan is -EINVAL */
	int entry_map_fd;
	/* $ustack's ring buffer of samples (util/stack_sample.h) and $kstack's
	 * stack map (BPF_MAP_TYPE_STACK_TRACE); < 0: none, and a plan that
	 * fetches such a stack is -EINVAL (resolve, which makes no maps,
	 * shows fd 0) */
	int stack_samples_fd;
	int stack_map_fd;
	/*
	 * The kernel accepts cpu v4's sign-extending instructions (Linux
	 * 6.6+): loads (BPF_LDX | BPF_MEMSX) from pt_regs and the stack, and
	 * moves (BPF_ALU64 | BPF_MOV with off 8, 16, 32). Then a signed 8-,
	 * 16- or 32-bit value costs one instruction, else two shifts more.
	 * The caller knows (the loader asks the kernel); false: never used.
	 */
	bool cpu_v4;
};

/* bp_prologue__gen() with opts (NULL: none). */
int bp_prologue__gen_opts(const struct bp_plan *plan, uint8_t unread,
			  const struct bp_prologue_opts *opts,
			  struct bpf_insn *insns, size_t max);

/*
 * The record ABI (plan->record): the prologue fills the plan's record at
 * r10 + rec_off (negative, 8-byte aligned, below everything the body and
 * bp_prologue__stack_use() take) and leaves its address in r2, r1 = ctx.
 * Returns the number of instructions, or -EINVAL / -E2BIG.
 */
int bp_prologue__gen_record(const struct bp_plan *plan, int rec_off, uint8_t unread,
			    const struct bp_prologue_opts *opts, struct bpf_insn *insns,
			    size_t max);

/* Bytes of the stack below r10 a prologue for plan uses itself. */
int bp_prologue__stack_use(const struct bp_plan *plan);

/* The record ABI's prototype preamble: r2 = the value of map_fd (an array
 * of one record, never read at run time), r3 = r4 = r5 = 0. */
#define BP_RECORD_PREAMBLE_LEN 5
void bp_prologue__record_preamble(struct bpf_insn *insns, int map_fd);

/* One instruction as readable BPF assembly ("r3 = *(u64 *)(r6 +112)").
 * ldimm64 takes two slots: pass both (next may be NULL otherwise).
 * Returns snprintf's value. */
int bp_insn__format(const struct bpf_insn *insn, const struct bpf_insn *next,
		    char *buf, size_t len);

#endif /* BPFPROBE_PROLOGUE_H */
