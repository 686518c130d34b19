/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A fetch expression: a small stack program, plain data, that computes the
 * base value of a fetch the fixed plan shapes cannot express (arithmetic
 * between run-time values, reads at computed addresses, a thread's TLS
 * block, a register's value at the function's entry). The resolver
 * translates DWARF expressions into it; the prologue compiles it to BPF
 * with bounded code (no loops: branches only go forward).
 *
 * Values are 64-bit; the stack holds at most BP_EXPR_MAX_DEPTH of them, and
 * a valid expression leaves exactly one (bp_expr__check).
 */
#ifndef BPFPROBE_EXPR_H
#define BPFPROBE_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BP_EXPR_MAX_OPS		64
#define BP_EXPR_MAX_DEPTH	8

enum bp_xop {
	BP_XOP_NONE = 0,
	/* push */
	BP_XOP_REG,		/* regs[reg] + imm (a DWARF register pt_regs holds) */
	BP_XOP_CONST,		/* imm */
	BP_XOP_ADDR,		/* imm, a link-time address, plus the load bias
				 * (learnt from the fetch's anchor) */
	BP_XOP_TASK,		/* the current task (bpf_get_current_task()) */
	/* pop the frame's CFA, push the value register reg held when the
	 * function whose link-time entry is imm was entered, in the activation
	 * with that CFA: saved by a companion probe at that entry (see
	 * prologue/entry_save.h). No such entry (attached mid-call, another
	 * function's activation): the fetch fails. */
	BP_XOP_ENTRY_REG,
	/* pop a, push the size bytes at a + imm (zero-extended): user memory
	 * with BP_XF_USER, else kernel memory; a failed read fails the fetch */
	BP_XOP_DEREF,
	BP_XOP_PLUS_CONST,	/* top += imm */
	/* pop b, pop a, push a OP b; with BP_XF_IMM, b is imm (not popped) */
	BP_XOP_ADD, BP_XOP_SUB, BP_XOP_MUL,
	BP_XOP_DIV,		/* BP_XF_SIGNED: signed; b == 0 fails the fetch */
	BP_XOP_MOD,		/* BP_XF_SIGNED: C's signed %; b == 0 fails */
	BP_XOP_AND, BP_XOP_OR, BP_XOP_XOR,
	BP_XOP_SHL, BP_XOP_SHR,	/* by b >= 64: 0 */
	BP_XOP_SHRA,		/* arithmetic; by b >= 64: the sign, repeated */
	/* compares, 1 or 0: signed with BP_XF_SIGNED, else unsigned */
	BP_XOP_EQ, BP_XOP_NE, BP_XOP_LT, BP_XOP_LE, BP_XOP_GT, BP_XOP_GE,
	/* the top, changed in place */
	BP_XOP_NEG, BP_XOP_NOT, BP_XOP_ABS,
	BP_XOP_EXT,		/* keep the low size*8 bits (size 1..7 bytes),
				 * sign-extended with BP_XF_SIGNED, else zero */
	/* stack */
	BP_XOP_DUP, BP_XOP_DROP, BP_XOP_SWAP, BP_XOP_OVER,
	BP_XOP_ROT,		/* a b c -> c a b (DWARF's DW_OP_rot) */
	BP_XOP_PICK,		/* push the entry imm below the top (0: dup) */
	/* forward control flow: skip the next imm ops */
	BP_XOP_SKIP,
	BP_XOP_BRA,		/* pop; skip when it is not 0 */
	BP_XOP_MAX,
};

#define BP_XF_USER	1
#define BP_XF_SIGNED	2
#define BP_XF_IMM	4	/* a binary op's right operand is imm */

struct bp_expr_op {
	uint8_t op;		/* enum bp_xop */
	uint8_t reg;		/* REG, ENTRY_REG: a DWARF register number */
	uint8_t size;		/* DEREF: 1, 2, 4 or 8; EXT: 1..7 */
	uint8_t flags;		/* BP_XF_* */
	int64_t imm;
};

struct bp_expr {
	uint8_t nops;
	struct bp_expr_op ops[BP_EXPR_MAX_OPS];
};

/*
 * 0 when expr is well formed: known ops with valid operands, a stack that
 * never underflows nor grows past BP_EXPR_MAX_DEPTH, branches that stay
 * inside it and meet with equal depths, one value at the end. -EINVAL
 * otherwise, with *bad the index of the first bad op (nops: the end).
 */
int bp_expr__check(const struct bp_expr *expr, int *bad);

/* The stack depth before each op, depth[nops] after the last (-1: an op
 * every path skips); 0 or -EINVAL as bp_expr__check. */
int bp_expr__depths(const struct bp_expr *expr, int *depth);

/* The deepest the stack gets (for a well-formed expr). */
int bp_expr__max_depth(const struct bp_expr *expr);

/* Whether expr calls a helper (reads memory, the task, entry values). */
bool bp_expr__needs_call(const struct bp_expr *expr);
/* Whether it has an op of that kind. */
bool bp_expr__has(const struct bp_expr *expr, enum bp_xop op);

bool bp_expr__equal(const struct bp_expr *a, const struct bp_expr *b);

/* Appends op; false when expr is full. */
bool bp_expr__push(struct bp_expr *expr, enum bp_xop op, uint8_t reg, uint8_t size,
		   uint8_t flags, int64_t imm);
/* Appends every op of tail; false when it does not fit. */
bool bp_expr__append(struct bp_expr *expr, const struct bp_expr *tail);

/* "%rbx 16 + *u64 1 +": postfix, readable; snprintf's value. */
int bp_expr__format(const struct bp_expr *expr, char *buf, size_t len);

/* The op's name as text ("shl"). */
const char *bp_xop__name(int op);

#endif /* BPFPROBE_EXPR_H */
