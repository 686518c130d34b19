/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A fetch plan: plain data that says how to fetch each argument of one probe
 * point. The resolver fills it; the prologue generator compiles it. Two probe
 * points whose plans are equal (bp_plan__equal) share one program instance.
 */
#ifndef BPFPROBE_PLAN_H
#define BPFPROBE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prologue/expr.h"

/* Arguments a plan fetches: a record's (the record ABI); the register
 * ABI takes BP_MAX_REG_ARGS of them, in R3..R5. */
#define BP_MAX_ARGS	16
#define BP_MAX_REG_ARGS	3
#define BP_MAX_DEREFS	8

enum bp_base_kind {
	BP_BASE_NONE = 0,	/* unused slot */
	BP_BASE_REG,		/* value = regs[reg] + add */
	BP_BASE_CONST,		/* value = add */
	BP_BASE_ADDR,		/* value = add + load bias (globals, statics) */
	BP_BASE_CTX,		/* value = ((u64 *)ctx)[reg] + add: argument
				 * reg (from 0) of an fentry/fexit program,
				 * whose ctx is the arguments' u64 array */
	BP_BASE_EXPR,		/* value = expr's result + add (prologue/expr.h) */
};

/* bp_fetch.reg of a BP_FETCH_USTACK taken by frame pointers (0: copied) */
#define BP_USTACK_REG_FP	1

/* Arguments an fentry ctx can hold (the kernel's MAX_BPF_FUNC_ARGS). */
#define BP_CTX_MAX_ARGS	12

/*
 * How a BP_BASE_ADDR fetch (or an expression's BP_XOP_ADDR and
 * BP_XOP_ENTRY_REG) learns the load bias of the probed object: the
 * run-time address of a known link-time address, the anchor, minus the
 * anchor. Both anchors are the probe point's own address.
 */
enum bp_anchor_kind {
	BP_ANCHOR_IP = 0,	/* pt_regs ip: the probed instruction (uprobe) */
	BP_ANCHOR_FUNC_IP,	/* bpf_get_func_ip(): the probed function's entry,
				 * where a uretprobe sits (kernel 6.6+) */
};

/*
 * What a fetch leaves: a value (in R3..R5 for the register ABI, in a
 * record member for the record ABI), or, record ABI only, bytes copied
 * into a record member by its last read.
 */
enum bp_fetch_kind {
	BP_FETCH_VALUE = 0,
	BP_FETCH_STRING,	/* the last read copies a NUL-terminated string of at
				 * most len bytes, its NUL included (the _str helpers) */
	BP_FETCH_BYTES,		/* the last read copies len bytes */
	/*
	 * The value is a stack's id (a bpfprobe_stack_t, unwind/stack_sample.h),
	 * no base or read: USTACK copies the user registers and stack into a
	 * sample of the stack ring buffer, KSTACK asks bpf_get_stackid() for
	 * the kernel stack (the stack map), with BP_STACK_KERNEL_BIT set.
	 * A USTACK whose reg is BP_USTACK_REG_FP writes, instead of the
	 * stack's bytes, the return addresses of the kernel's frame-pointer
	 * walk (bpf_get_stack, BPF_F_USER_STACK; util/stack_sample.h).
	 */
	BP_FETCH_USTACK,
	BP_FETCH_KSTACK,
};

/*
 * One argument:
 *   v = base value (see bp_base_kind); for BP_BASE_ADDR,
 *       v = add - anchor + run-time address of the anchor; for
 *       BP_BASE_EXPR, v = the value expr computes + add (a failed read
 *       in it fails the fetch);
 *   for i in 0..nderef-1: v = *(v + deref_off[i])
 *       reading 8 bytes, except the last deref which reads 'size' bytes,
 *       from user memory when bit i of user_mask is set, else kernel memory;
 *   if bit_size: v = (v >> bit_off) & ((1 << bit_size) - 1);
 *   finally v is truncated to 'size' bytes (or bit_size bits) and sign- or
 *   zero-extended to 64 bits according to is_signed.
 */
struct bp_fetch {
	enum bp_base_kind base;
	uint8_t reg;		/* DWARF register number (prologue/arch.h);
				 * BP_BASE_CTX: the argument's index */
	int64_t add;
	uint8_t nderef;
	int32_t deref_off[BP_MAX_DEREFS];
	uint32_t user_mask;
	uint8_t size;		/* 1, 2, 4 or 8 */
	bool is_signed;
	uint8_t bit_off;	/* bitfields, and members of small structs held */
	uint8_t bit_size;	/* in registers: 0 when the whole value is meant */
	uint64_t anchor;	/* BP_BASE_ADDR, _EXPR: link-time address of the anchor */
	uint8_t anchor_kind;	/* BP_BASE_ADDR, _EXPR: enum bp_anchor_kind */
	struct bp_expr expr;	/* BP_BASE_EXPR */
	/*
	 * The record ABI: kind (enum bp_fetch_kind); STRING and BYTES have at
	 * least one read, whose last copies len bytes to the member at rec_off
	 * (size is then 8, that of the address); a VALUE is stored at rec_off
	 * in its member's store_size bytes (1, 2, 4 or 8: the low bytes of
	 * the 64-bit value, as a C conversion).
	 */
	uint8_t kind;
	uint8_t store_size;
	uint16_t len;
	uint32_t rec_off;
};

struct bp_plan {
	int nargs;
	/*
	 * The record ABI: the prologue fills a record of rec_size bytes and
	 * hands the program its address in r2; bit i of the __u64 at err_off
	 * (< 0: none) is set when argument i could not be fetched.
	 */
	bool record;
	uint32_t rec_size;
	int32_t err_off;
	struct bp_fetch args[BP_MAX_ARGS];
};

bool bp_fetch__equal(const struct bp_fetch *a, const struct bp_fetch *b);
bool bp_plan__equal(const struct bp_plan *a, const struct bp_plan *b);
/* Whether a plan reads entry values (BP_XOP_ENTRY_REG): its probe point
 * needs the companion probe at its function's entry (entry_save.h). */
bool bp_plan__needs_entry_values(const struct bp_plan *plan);
/* Human-readable form, e.g. "s32 *(u64 *)(%rdi + 8) + 4". Returns snprintf's value. */
int bp_fetch__format(const struct bp_fetch *f, char *buf, size_t len);

#endif /* BPFPROBE_PLAN_H */
