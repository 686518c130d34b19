// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Register liveness of program bodies (prologue/liveness.c): which
 * registers a body reads before writing them, on some path from its first
 * instruction. Each test is a small hand-written body; the expected mask
 * is written out as the registers it names.
 */
#include <stdint.h>

#include "prologue/liveness.h"
#include "tests/unit/insn.h"
#include "tests/unit/test.h"

#define ADD_REG(D, S)		I(BPF_ALU64 | BPF_ADD | BPF_X, D, S, 0, 0)
#define ADD_IMM(D, IMM)		I(BPF_ALU64 | BPF_ADD | BPF_K, D, 0, 0, IMM)
#define LDX(D, S, OFF)		I(BPF_LDX | BPF_DW | BPF_MEM, D, S, OFF, 0)
#define STX(D, S, OFF)		I(BPF_STX | BPF_DW | BPF_MEM, D, S, OFF, 0)
#define ST_IMM(D, OFF, IMM)	I(BPF_ST | BPF_DW | BPF_MEM, D, 0, OFF, IMM)
#define ATOMIC(D, S, OFF, OP)	I(BPF_STX | BPF_DW | BPF_ATOMIC, D, S, OFF, OP)
#define CALL_SUB(OFF)		I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, OFF)
#define CALL_KFUNC(ID)		I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, ID)
#define JEQ_IMM(D, IMM, OFF)	I(BPF_JMP | BPF_JEQ | BPF_K, D, 0, OFF, IMM)
#define JNE_REG(D, S, OFF)	I(BPF_JMP | BPF_JNE | BPF_X, D, S, OFF, 0)
#define JLT32_REG(D, S, OFF)	I(BPF_JMP32 | BPF_JLT | BPF_X, D, S, OFF, 0)
#define LD_IMM64(D, LO, HI)	I(BPF_LD | BPF_DW | BPF_IMM, D, 0, 0, LO), I(0, 0, 0, 0, HI)

#define R(n) (1u << (n))
#define LIVE(insns) bp_liveness__entry(insns, ARRAY_SIZE(insns))
/* the argument registers the tests look at, and r0 */
#define R0_5(mask) ((mask) & 0x3f)

/* A helper id libbpf 1.1's header does not know yet. */
#define NEW_HELPER 10000

static void test_straight_line(void)
{
	/* r0 = r3; r0 += r2; r4 = 1; r0 += r4; exit */
	const struct bpf_insn body[] = {
		MOV_REG(0, 3),
		ADD_REG(0, 2),
		MOV_IMM(4, 1),
		ADD_REG(0, 4),
		EXIT_INSN,
	};
	/* r5 written by a 32-bit move before its read; r1 read by LDX */
	const struct bpf_insn body2[] = {
		MOV32_REG(5, 1),
		ADD_IMM(5, 1),
		LDX(0, 1, 8),
		EXIT_INSN,
	};

	CHECK_INT(LIVE(body), R(2) | R(3));
	CHECK_INT(LIVE(body2), R(1));
}

static void test_exit_reads_r0(void)
{
	const struct bpf_insn bare_exit[] = { EXIT_INSN };
	const struct bpf_insn set_first[] = { MOV_IMM(0, 0), EXIT_INSN };

	CHECK_INT(LIVE(bare_exit), R(0));
	CHECK_INT(LIVE(set_first), 0);
}

static void test_branch(void)
{
	/* if (r2 == 0) r0 = r4; else r0 = 0; -- r4 read on one side only */
	const struct bpf_insn body[] = {
		JEQ_IMM(2, 0, 2),
		MOV_IMM(0, 0),
		EXIT_INSN,
		MOV_REG(0, 4),
		EXIT_INSN,
	};
	/* a register compare reads both; a write on one side does not hide
	 * the read on the other */
	const struct bpf_insn body2[] = {
		JNE_REG(3, 5, 1),
		MOV_IMM(4, 0),
		MOV_REG(0, 4),
		EXIT_INSN,
	};

	CHECK_INT(LIVE(body), R(2) | R(4));
	CHECK_INT(LIVE(body2), R(3) | R(4) | R(5));
}

static void test_loop(void)
{
	/*
	 * r0 = 0
	 * loop: r0 += r3	; r3 read in every round
	 *	 r5 = r4	; r4 read before the write below
	 *	 r4 = 1
	 *	 if w0 < w5 goto loop	; r5 written before this read
	 *	 exit
	 */
	const struct bpf_insn body[] = {
		MOV_IMM(0, 0),
		ADD_REG(0, 3),
		MOV_REG(5, 4),
		MOV_IMM(4, 1),
		JLT32_REG(0, 5, -4),
		EXIT_INSN,
	};
	/* r2 is written before the loop that reads it; r0 is not */
	const struct bpf_insn body2[] = {
		MOV_IMM(2, 7),
		ADD_REG(0, 2),
		JEQ_IMM(0, 9, -2),
		EXIT_INSN,
	};

	CHECK_INT(LIVE(body), R(3) | R(4));
	CHECK_INT(LIVE(body2), R(0));
}

static void test_ld_imm64(void)
{
	/* writes r3; its second slot (imm 3 in the high half) is no
	 * instruction reading r3's number */
	const struct bpf_insn body[] = {
		LD_IMM64(3, 1, 3),
		ADD_REG(3, 2),
		MOV_REG(0, 3),
		EXIT_INSN,
	};
	/* a jump into the second slot is malformed: everything counts */
	const struct bpf_insn into_slot[] = {
		JEQ_IMM(1, 0, 1),
		LD_IMM64(3, 1, 3),
		MOV_IMM(0, 0),
		EXIT_INSN,
	};
	/* a truncated ld_imm64 falls off the end */
	const struct bpf_insn truncated[] = {
		MOV_IMM(0, 0),
		I(BPF_LD | BPF_DW | BPF_IMM, 3, 0, 0, 1),
	};

	CHECK_INT(LIVE(body), R(2));
	CHECK_INT(LIVE(into_slot), BP_LIVE_ALL);
	CHECK_INT(LIVE(truncated), BP_LIVE_ALL);
}

static void test_helper_call(void)
{
	/* bpf_map_lookup_elem(r1, r2): 2 arguments; r3..r5 are clobbered by
	 * the call, so the reads after it are not reads from the entry */
	const struct bpf_insn two_args[] = {
		CALL(BPF_FUNC_map_lookup_elem),
		MOV_REG(0, 3),
		ADD_REG(0, 4),
		ADD_REG(0, 5),
		EXIT_INSN,
	};
	/* bpf_ktime_get_ns(): none */
	const struct bpf_insn no_args[] = {
		CALL(BPF_FUNC_ktime_get_ns),
		EXIT_INSN,
	};
	/* bpf_probe_read_user(r1, r2, r3) with r1, r2 set first */
	const struct bpf_insn set_some[] = {
		MOV_REG(1, 10),
		ADD_IMM(1, -8),
		MOV_IMM(2, 8),
		CALL(BPF_FUNC_probe_read_user),
		EXIT_INSN,
	};
	const struct bpf_insn unknown[] = {
		CALL(NEW_HELPER),
		EXIT_INSN,
	};
	const struct bpf_insn negative[] = {
		CALL(-1),
		EXIT_INSN,
	};

	CHECK_INT(R0_5(LIVE(two_args)), R(1) | R(2));
	CHECK_INT(R0_5(LIVE(no_args)), 0);
	CHECK_INT(R0_5(LIVE(set_some)), R(3));
	CHECK_INT(R0_5(LIVE(unknown)), R(1) | R(2) | R(3) | R(4) | R(5));
	CHECK_INT(R0_5(LIVE(negative)), R(1) | R(2) | R(3) | R(4) | R(5));
	CHECK_INT(bp_liveness__helper_args(BPF_FUNC_map_update_elem),
		  R(1) | R(2) | R(3) | R(4));
	CHECK_INT(bp_liveness__helper_args(BPF_FUNC_tail_call), R(1) | R(2) | R(3));
	CHECK_INT(bp_liveness__helper_args(BPF_FUNC_get_func_ip), R(1));
	CHECK_INT(bp_liveness__helper_args(NEW_HELPER), 0x3e);
}

static void test_trace_printk(void)
{
	/*
	 * The verifier checks only fmt and its size, but the helper reads
	 * three more: clang compiles bpf_printk("c=%lu", c) for a program
	 * parameter c that already is in r3 to fmt and size only (the
	 * program of tests/bpf/args__mixed.bpf.c), so r3 is a read.
	 */
	const struct bpf_insn in_place[] = {
		LD_IMM64(1, 0, 0),
		MOV_IMM(2, 26),
		CALL(BPF_FUNC_trace_printk),
		MOV_IMM(0, 0),
		EXIT_INSN,
	};
	/* bpf_trace_printk(fmt, 6, b, 0, 0) with b in r4: all three set */
	const struct bpf_insn set_three[] = {
		MOV_REG(1, 10),
		ADD_IMM(1, -16),
		MOV_IMM(2, 6),
		MOV_REG(3, 4),
		MOV_IMM(4, 0),
		MOV_IMM(5, 0),
		CALL(BPF_FUNC_trace_printk),
		EXIT_INSN,
	};
	/* bpf_trace_printk(fmt, 6, b) with b in r4: r4, and r5 unset */
	const struct bpf_insn set_one[] = {
		MOV_REG(1, 10),
		ADD_IMM(1, -16),
		MOV_IMM(2, 6),
		MOV_REG(3, 4),
		CALL(BPF_FUNC_trace_printk),
		EXIT_INSN,
	};

	CHECK_INT(R0_5(LIVE(in_place)), R(3) | R(4) | R(5));
	CHECK_INT(R0_5(LIVE(set_three)), R(4));
	CHECK_INT(R0_5(LIVE(set_one)), R(4) | R(5));
	CHECK_INT(bp_liveness__helper_args(BPF_FUNC_trace_printk), 0x3e);
	/* the array-taking variant has four plain arguments */
	CHECK_INT(bp_liveness__helper_args(BPF_FUNC_trace_vprintk),
		  R(1) | R(2) | R(3) | R(4));
}

static void test_pseudo_calls(void)
{
	/* a static subprogram may take five arguments; its callee-saved
	 * registers survive, r0..r5 do not */
	const struct bpf_insn sub[] = {
		MOV_IMM(2, 0),
		CALL_SUB(2),
		ADD_REG(0, 6),
		EXIT_INSN,
		MOV_IMM(0, 0),
		EXIT_INSN,
	};
	const struct bpf_insn kfunc[] = {
		CALL_KFUNC(1234),
		MOV_REG(0, 3),
		EXIT_INSN,
	};

	CHECK_INT(LIVE(sub), R(1) | R(3) | R(4) | R(5) | R(6));
	CHECK_INT(R0_5(LIVE(kfunc)), R(1) | R(2) | R(3) | R(4) | R(5));
}

static void test_stores_are_reads(void)
{
	/* a spill of r2 is a read of r2, and of r10 */
	const struct bpf_insn spill[] = {
		STX(10, 2, -8),
		MOV_IMM(0, 0),
		EXIT_INSN,
	};
	/* ST reads only its address register */
	const struct bpf_insn st[] = {
		ST_IMM(4, 0, 7),
		MOV_IMM(0, 0),
		EXIT_INSN,
	};

	CHECK_INT(LIVE(spill), R(2) | R(10));
	CHECK_INT(LIVE(st), R(4));
}

static void test_atomics(void)
{
	/* lock *(u64 *)(r3 + 0) += r4: reads both, writes neither */
	const struct bpf_insn add[] = {
		ATOMIC(3, 4, 0, BPF_ADD),
		MOV_REG(0, 4),
		EXIT_INSN,
	};
	/* r4 = atomic_fetch_add(r3 + 0, r4): the old value lands in r4 */
	const struct bpf_insn fetch[] = {
		ATOMIC(3, 4, 0, BPF_ADD | BPF_FETCH),
		MOV_REG(0, 4),
		EXIT_INSN,
	};
	/* r5 = xchg: reads r5 first, so live although written */
	const struct bpf_insn xchg[] = {
		ATOMIC(10, 5, -8, BPF_XCHG),
		MOV_IMM(0, 0),
		EXIT_INSN,
	};
	/* cmpxchg compares with r0 and writes r0, not src */
	const struct bpf_insn cmpxchg[] = {
		ATOMIC(10, 2, -8, BPF_CMPXCHG),
		ADD_REG(0, 2),
		EXIT_INSN,
	};
	const struct bpf_insn cmpxchg_r0_set[] = {
		MOV_IMM(0, 1),
		ATOMIC(10, 2, -8, BPF_CMPXCHG),
		EXIT_INSN,
	};

	CHECK_INT(LIVE(add), R(3) | R(4));
	CHECK_INT(LIVE(fetch), R(3) | R(4));
	CHECK_INT(LIVE(xchg), R(5) | R(10));
	CHECK_INT(LIVE(cmpxchg), R(0) | R(2) | R(10));
	CHECK_INT(LIVE(cmpxchg_r0_set), R(2) | R(10));
}

static void test_ld_abs(void)
{
	/* r0 = skb[r2 + 4]: reads r6 and r2, clobbers r0..r5 */
	const struct bpf_insn ind[] = {
		I(BPF_LD | BPF_IND | BPF_W, 0, 2, 0, 4),
		ADD_REG(0, 3),
		EXIT_INSN,
	};
	const struct bpf_insn abs[] = {
		I(BPF_LD | BPF_ABS | BPF_B, 0, 0, 0, 12),
		EXIT_INSN,
	};

	CHECK_INT(LIVE(ind), R(2) | R(6));
	CHECK_INT(LIVE(abs), R(6));
}

static void test_conservative(void)
{
	/* a jump out of the body, backwards or forwards */
	const struct bpf_insn out_fwd[] = {
		JEQ_IMM(1, 0, 5),
		MOV_IMM(0, 0),
		EXIT_INSN,
	};
	const struct bpf_insn out_back[] = {
		MOV_IMM(0, 0),
		JA(-3),
	};
	/* no exit: falls off the end */
	const struct bpf_insn no_exit[] = { MOV_IMM(0, 0) };
	/* CALL and EXIT are no JMP32 instructions; a register number past r10 */
	const struct bpf_insn call32[] = {
		I(BPF_JMP32 | BPF_CALL, 0, 0, 0, BPF_FUNC_ktime_get_ns),
		EXIT_INSN,
	};
	const struct bpf_insn bad_reg[] = {
		MOV_REG(0, 11),
		EXIT_INSN,
	};
	/* gotol: the 32-bit class's JA keeps its offset in imm */
	const struct bpf_insn gotol[] = {
		I(BPF_JMP32 | BPF_JA, 0, 0, 7, 1),
		MOV_REG(0, 3),
		MOV_REG(0, 4),
		EXIT_INSN,
	};

	CHECK_INT(LIVE(out_fwd), BP_LIVE_ALL);
	CHECK_INT(LIVE(out_back), BP_LIVE_ALL);
	CHECK_INT(LIVE(no_exit), BP_LIVE_ALL);
	CHECK_INT(LIVE(call32), BP_LIVE_ALL);
	CHECK_INT(LIVE(bad_reg), BP_LIVE_ALL);
	CHECK_INT(LIVE(gotol), R(4));
	CHECK_INT(bp_liveness__entry(NULL, 0), BP_LIVE_ALL);
}

/* Garbage of every kind terminates, stays in bounds (the ASan build runs
 * this too) and answers with registers r0..r10 only. */
static void test_random_garbage(void)
{
	static const uint8_t codes[] = {
		BPF_JMP | BPF_JA, BPF_JMP32 | BPF_JA, BPF_JMP | BPF_JEQ | BPF_K,
		BPF_JMP32 | BPF_JLT | BPF_X, BPF_JMP | BPF_CALL, BPF_JMP | BPF_EXIT,
		BPF_LD | BPF_DW | BPF_IMM, BPF_LD | BPF_ABS | BPF_W,
		BPF_ALU64 | BPF_MOV | BPF_X, BPF_ALU | BPF_END | BPF_X,
		BPF_STX | BPF_DW | BPF_ATOMIC, BPF_LDX | BPF_W | BPF_MEM,
	};
	struct bpf_insn insns[24];
	uint32_t x = 12345;
	int iter, i, all = 0;

	for (iter = 0; iter < 20000; iter++) {
		int n = 1 + iter % 24;
		uint16_t live;

		for (i = 0; i < n; i++) {
			x = x * 1103515245 + 12345;
			insns[i] = I(x >> 28 < 12 ? codes[x >> 28] : (x >> 8) & 0xff,
				     (x >> 4) % 12, (x >> 16) % 12, (int16_t)((x >> 20) % 9) - 4,
				     (x >> 24) % 3 ? (int32_t)((x >> 12) % 9) - 4 : (int32_t)x);
		}
		live = bp_liveness__entry(insns, n);
		CHECK(!(live & ~BP_LIVE_ALL), "mask 0x%x", live);
		all += live == BP_LIVE_ALL;
		if (test_cur_failed)
			break;
	}
	CHECK(all > 0 && all < 20000, "%d of 20000 were all live", all);
}

int main(void)
{
	RUN(test_straight_line);
	RUN(test_exit_reads_r0);
	RUN(test_branch);
	RUN(test_loop);
	RUN(test_ld_imm64);
	RUN(test_helper_call);
	RUN(test_trace_printk);
	RUN(test_pseudo_calls);
	RUN(test_stores_are_reads);
	RUN(test_atomics);
	RUN(test_ld_abs);
	RUN(test_conservative);
	RUN(test_random_garbage);
	return TEST_EXIT();
}
