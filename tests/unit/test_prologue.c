// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Prologue generator tests.
 *
 * Instruction-level tests pin exact sequences for the common shapes;
 * value-level tests run the generated code in a small, strict BPF
 * interpreter (bpf_interp.h) against a fake pt_regs and a fake address
 * space, and compare with a straightforward C model of the plan semantics
 * (prologue/plan.h). The generated code is followed by one EXIT, so an EXIT
 * inside the prologue is refused.
 *
 * Both forms are tested: with cpu v4's sign-extending loads and moves
 * (Linux 6.6+) and without, where the interpreter refuses them as an
 * older kernel's verifier does. The value-level tests run in both
 * (RUN_BOTH: the second run's name ends in _cpu_v4).
 *
 * BP_TEST_VERBOSE=1 prints the listings the tests generate.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "prologue/arch.h"
#include "prologue/arch_x86_64.h"
#include "prologue/plan.h"
#include "prologue/liveness.h"
#include "prologue/prologue.h"
#include "tests/unit/bpf_interp.h"
#include "tests/unit/fetch_model.h"
#include "tests/unit/insn.h"
#include "tests/unit/rng.h"
#include "tests/unit/test.h"

#define ALU_IMM(OP, D, IMM)	I(BPF_ALU64 | (OP) | BPF_K, D, 0, 0, IMM)
#define LDX(SZ, D, S, OFF)	I(BPF_LDX | (SZ) | BPF_MEM, D, S, OFF, 0)
#define JNE_IMM(D, IMM, OFF)	I(BPF_JMP | BPF_JNE | BPF_K, D, 0, OFF, IMM)


static bool verbose(void)
{
	return vm_verbose();
}

/* The form under test: with cpu v4's sign-extending instructions or not. */
static bool cpu_v4;

#define RUN_BOTH(fn)	RUN_TWICE(fn, cpu_v4, "_cpu_v4")

/* bp_prologue__gen() in the form under test */
static int gen(const struct bp_plan *plan, uint8_t unread, struct bpf_insn *insns,
	       size_t max)
{
	struct bp_prologue_opts opts = { .entry_map_fd = -1, .cpu_v4 = cpu_v4 };

	return bp_prologue__gen_opts(plan, unread, &opts, insns, max);
}

static void dump_prog(const struct bpf_insn *insns, int n)
{
	vm_dump(insns, n);
}

struct run {
	int n;			/* prologue length */
	uint64_t r[6];		/* r0..r5 at the end (r1: 0 when it is ctx) */
	bool r1_is_ctx;
	int user_calls, kernel_calls, func_ip_calls;
	bool stack_used;
	uint32_t written;
	struct bpf_insn insns[BP_PROLOGUE_MAX_INSNS + 1];
};

static bool reads_reg(uint8_t unread, int reg)
{
	return !(unread & (1u << reg));
}

/* Generates the prologue for plan and a program that never reads the
 * registers in unread, appends EXIT and runs it. Those registers may be
 * left anything. */
static bool run_plan_unread(const struct bp_plan *plan, uint8_t unread,
			    const struct pt_regs_fake *regs, struct run *out)
{
	struct vm vm = { .ctx = regs, .cpu_v4 = cpu_v4 };
	int i;

	memset(out, 0, sizeof(*out));
	out->n = gen(plan, unread, out->insns, BP_PROLOGUE_MAX_INSNS);
	/* only a program that reads none of r2..r5 may get no prologue */
	CHECK(out->n > 0 || (out->n == 0 && (unread & 0x3c) == 0x3c),
	      "gen failed: %d", out->n);
	if (out->n < 0)
		return false;
	out->insns[out->n] = EXIT_INSN;
	i = vm_first_unreachable(out->insns, out->n + 1);
	CHECK(i < 0, "insn %d is unreachable (the verifier refuses that)", i);

	vm.r[1] = (struct vreg){ V_CTX, 0 };
	vm.r[10] = (struct vreg){ V_STACK, 0 };
	if (vm_run(&vm, out->insns, out->n + 1) == 0) {
		for (i = 2; i <= 5; i++) {
			if (reads_reg(unread, i) && vm.r[i].kind != V_SCALAR)
				vm_fail(&vm, out->n, "r%d not a scalar at the end", i);
		}
	}
	CHECK(!vm.err[0], "%s", vm.err);
	if (vm.err[0] || verbose())
		dump_prog(out->insns, out->n);
	if (vm.err[0])
		return false;

	for (i = 0; i < 6; i++)
		out->r[i] = vm.r[i].v;
	out->r1_is_ctx = vm.r[1].kind == V_CTX && vm.r[1].v == 0;
	out->user_calls = vm.user_calls;
	out->kernel_calls = vm.kernel_calls;
	out->func_ip_calls = vm.func_ip_calls;
	out->stack_used = vm.stack_used;
	out->written = vm.written;
	CHECK(out->r1_is_ctx || !reads_reg(unread, 1), "r1 is not ctx at the end");
	return true;
}

static bool run_plan(const struct bp_plan *plan, const struct pt_regs_fake *regs,
		     struct run *out)
{
	return run_plan_unread(plan, 0, regs, out);
}

static void check_against_ref_unread(const struct bp_plan *plan, uint8_t unread,
				     const struct pt_regs_fake *regs, struct run *run)
{
	uint64_t want[6];
	int i;

	struct model_env env = { .regs = regs };

	if (!run_plan_unread(plan, unread, regs, run))
		return;
	ref_plan(plan, &env, want);
	CHECK(!reads_reg(unread, 2) || !!run->r[2] == !!want[2],
	      "r2 = %" PRIu64 ", want %" PRIu64, run->r[2], want[2]);
	for (i = 3; i <= 5; i++)
		CHECK(!reads_reg(unread, i) || run->r[i] == want[i],
		      "r%d = 0x%" PRIx64 ", want 0x%" PRIx64, i, run->r[i], want[i]);
}

static void check_against_ref(const struct bp_plan *plan,
			      const struct pt_regs_fake *regs, struct run *run)
{
	check_against_ref_unread(plan, 0, regs, run);
}

/* ------------------------------------------------------------------ */
/* Plans                                                               */

static struct bp_fetch reg_arg(int reg, int size, bool is_signed)
{
	return (struct bp_fetch){ .base = BP_BASE_REG, .reg = reg, .size = size,
				  .is_signed = is_signed };
}

static struct bp_fetch const_arg(int64_t v, int size, bool is_signed)
{
	return (struct bp_fetch){ .base = BP_BASE_CONST, .add = v, .size = size,
				  .is_signed = is_signed };
}

static struct bp_plan plan1(struct bp_fetch a)
{
	return (struct bp_plan){ .nargs = 1, .args = { a } };
}

static void check_seq_unread(const struct bp_plan *plan, uint8_t unread,
			     const struct bpf_insn *want, int nwant)
{
	struct bpf_insn got[BP_PROLOGUE_MAX_INSNS];
	char why[256];
	int n;

	n = gen(plan, unread, got, ARRAY_SIZE(got));
	CHECK(vm_same_insns(got, n, want, nwant, why, sizeof(why)), "%s%s", cpu_v4 ? "cpu v4: " : "",
	      why);
	if (test_cur_failed || verbose())
		dump_prog(got, n > 0 ? n : 0);
}

static void check_seq(const struct bp_plan *plan, const struct bpf_insn *want, int nwant)
{
	check_seq_unread(plan, 0, want, nwant);
}

/* check_seq_unread() in the form with cpu v4 (v4) or without */
static void check_seq_form(bool v4, const struct bp_plan *plan, uint8_t unread,
			   const struct bpf_insn *want, int nwant)
{
	bool was = cpu_v4;

	cpu_v4 = v4;
	check_seq_unread(plan, unread, want, nwant);
	cpu_v4 = was;
}

/* ------------------------------------------------------------------ */
/* Instruction-level tests                                             */

/* fentry: argument i is the u64 at ctx + 8 * i */
static struct bp_fetch ctx_arg(int i, int size, bool is_signed)
{
	return (struct bp_fetch){ .base = BP_BASE_CTX, .reg = i, .size = size,
				  .is_signed = is_signed };
}

static void test_seq_ctx_args(void)
{
	struct bp_plan p = {
		.nargs = 2,
		.args = { ctx_arg(3, 8, false), ctx_arg(0, 4, true) },
	};
	const struct bpf_insn want[] = {
		LDX(BPF_DW, 3, 1, 24),
		LDX(BPF_DW, 4, 1, 0),
		ALU_IMM(BPF_LSH, 4, 32),
		ALU_IMM(BPF_ARSH, 4, 32),
		MOV_IMM(2, 0), MOV_IMM(5, 0),
	};
	/* an fentry slot is loaded whole (narrow loads of it are left to
	 * other tools), then cut: with cpu v4 by a sign-extending move */
	const struct bpf_insn want_v4[] = {
		LDX(BPF_DW, 3, 1, 24),
		LDX(BPF_DW, 4, 1, 0),
		MOVSX(4, 4, 32),
		MOV_IMM(2, 0), MOV_IMM(5, 0),
	};
	char buf[64];

	check_seq(&p, want, ARRAY_SIZE(want));
	check_seq_form(true, &p, 0, want_v4, ARRAY_SIZE(want_v4));
	p.args[0].add = 8;
	bp_fetch__format(&p.args[0], buf, sizeof(buf));
	CHECK_STR(buf, "u64 ctx[3] + 8");
	p.args[0] = ctx_arg(BP_CTX_MAX_ARGS, 8, false);
	CHECK_INT(gen(&p, 0, NULL, 0), -EINVAL);
}

static void test_preamble(void)
{
	struct bpf_insn insns[BP_PREAMBLE_LEN];
	const struct bpf_insn want[] = {
		MOV_IMM(2, 0), MOV_IMM(3, 0), MOV_IMM(4, 0), MOV_IMM(5, 0),
	};
	struct bp_plan none = { .nargs = 0 };
	char why[256];

	bp_prologue__preamble(insns);
	CHECK(vm_same_insns(insns, BP_PREAMBLE_LEN, want, ARRAY_SIZE(want), why, sizeof(why)),
	      "%s", why);
	/* an argument-less plan compiles to the same thing */
	check_seq(&none, want, ARRAY_SIZE(want));
}

/*
 * A register cut to 1, 2 or 4 bytes: an unsigned one is a narrow load of
 * its low bytes (pt_regs is little-endian: they are at its offset), which
 * zero-extends, in both forms; a signed one is loaded whole and shifted
 * twice, or with cpu v4 loaded narrow, sign-extending.
 */
static void test_seq_reg_widths(void)
{
	struct bp_plan p = plan1(reg_arg(BP_REG_RDI, 4, true));
	const struct bpf_insn want[] = {
		LDX(BPF_DW, 3, 1, 112),
		ALU_IMM(BPF_LSH, 3, 32),
		ALU_IMM(BPF_ARSH, 3, 32),
		MOV_IMM(2, 0), MOV_IMM(4, 0), MOV_IMM(5, 0),
	};
	const struct bpf_insn want_v4[] = {
		LDXSX(BPF_W, 3, 1, 112),
		MOV_IMM(2, 0), MOV_IMM(4, 0), MOV_IMM(5, 0),
	};
	static const struct { int size, sz; } w[] = {
		{ 1, BPF_B }, { 2, BPF_H }, { 4, BPF_W }, { 8, BPF_DW },
	};

	check_seq(&p, want, ARRAY_SIZE(want));
	check_seq_form(true, &p, 0, want_v4, ARRAY_SIZE(want_v4));
	/* every width and sign, for a body that reads err and the argument */
	for (unsigned int i = 0; i < ARRAY_SIZE(w); i++) {
		int shift = 64 - 8 * w[i].size;
		const struct bpf_insn narrow[] = { LDX(w[i].sz, 3, 1, 104), MOV_IMM(2, 0) };
		const struct bpf_insn narrow_sx[] = { LDXSX(w[i].sz, 3, 1, 104), MOV_IMM(2, 0) };
		const struct bpf_insn shifts[] = {
			LDX(BPF_DW, 3, 1, 104),
			ALU_IMM(BPF_LSH, 3, shift),
			ALU_IMM(BPF_ARSH, 3, shift),
			MOV_IMM(2, 0),
		};

		p = plan1(reg_arg(BP_REG_RSI, w[i].size, false));
		check_seq_form(false, &p, 0x32, narrow, ARRAY_SIZE(narrow));
		check_seq_form(true, &p, 0x32, narrow, ARRAY_SIZE(narrow));
		p.args[0].is_signed = true;
		if (w[i].size == 8) {
			check_seq_form(false, &p, 0x32, narrow, ARRAY_SIZE(narrow));
			check_seq_form(true, &p, 0x32, narrow, ARRAY_SIZE(narrow));
		} else {
			check_seq_form(false, &p, 0x32, shifts, ARRAY_SIZE(shifts));
			check_seq_form(true, &p, 0x32, narrow_sx, ARRAY_SIZE(narrow_sx));
		}
	}
}

/*
 * Three register arguments: a load each. The case, int a, long b,
 * unsigned short c and a body that reads all three and err: perf's
 * prologue is the three 64-bit loads and r2 = 0, without the extensions
 * (and wrong for a negative a); so is the cpu v4 form, with them.
 */
static void test_seq_three_regs(void)
{
	struct bp_plan p = {
		.nargs = 3,
		.args = { reg_arg(BP_REG_RDI, 8, false),
			  reg_arg(BP_REG_RSI, 8, true),
			  reg_arg(BP_REG_RDX, 1, false) },
	};
	const struct bpf_insn wide[] = {
		LDX(BPF_DW, 3, 1, 112),
		LDX(BPF_DW, 4, 1, 104),
		LDX(BPF_B, 5, 1, 96),
		MOV_IMM(2, 0),
	};
	const struct bpf_insn old[] = {
		LDX(BPF_DW, 3, 1, 112),
		ALU_IMM(BPF_LSH, 3, 32),
		ALU_IMM(BPF_ARSH, 3, 32),
		LDX(BPF_DW, 4, 1, 104),
		LDX(BPF_H, 5, 1, 96),
		MOV_IMM(2, 0),
	};
	const struct bpf_insn v4[] = {
		LDXSX(BPF_W, 3, 1, 112),
		LDX(BPF_DW, 4, 1, 104),
		LDX(BPF_H, 5, 1, 96),
		MOV_IMM(2, 0),
	};
	/* the body reads r2..r5, not ctx */
	uint8_t unread = BP_UNREAD_ALL & ~0x3c;

	check_seq_form(false, &p, 0, wide, ARRAY_SIZE(wide));
	check_seq_form(true, &p, 0, wide, ARRAY_SIZE(wide));
	p.args[0] = reg_arg(BP_REG_RDI, 4, true);
	p.args[2] = reg_arg(BP_REG_RDX, 2, false);
	check_seq_form(false, &p, unread, old, ARRAY_SIZE(old));
	check_seq_form(true, &p, unread, v4, ARRAY_SIZE(v4));
}

/*
 * A register plus a constant is cut after the addition: a sign-extending
 * move with cpu v4. Members of a struct held in a register whose bytes are
 * whole and aligned are loaded alone (bits 32..63: the 4 bytes at +4).
 */
static void test_seq_reg_add_and_bits(void)
{
	struct bp_plan p = plan1(reg_arg(BP_REG_RDI, 2, true));
	const struct bpf_insn add_old[] = {
		LDX(BPF_DW, 3, 1, 112),
		ALU_IMM(BPF_ADD, 3, 5),
		ALU_IMM(BPF_LSH, 3, 48),
		ALU_IMM(BPF_ARSH, 3, 48),
		MOV_IMM(2, 0),
	};
	const struct bpf_insn add_v4[] = {
		LDX(BPF_DW, 3, 1, 112),
		ALU_IMM(BPF_ADD, 3, 5),
		MOVSX(3, 3, 16),
		MOV_IMM(2, 0),
	};
	const struct bpf_insn hi_old[] = {
		LDX(BPF_DW, 3, 1, 112),
		ALU_IMM(BPF_ARSH, 3, 32),
		MOV_IMM(2, 0),
	};
	const struct bpf_insn hi_v4[] = {
		LDXSX(BPF_W, 3, 1, 116),
		MOV_IMM(2, 0),
	};
	const struct bpf_insn byte1[] = {
		LDX(BPF_B, 3, 1, 113),
		MOV_IMM(2, 0),
	};
	/* bits 4..11: not whole bytes; bits 8..23: not aligned to 2 */
	const struct bpf_insn odd[] = {
		LDX(BPF_DW, 3, 1, 112),
		ALU_IMM(BPF_RSH, 3, 4),
		ALU_IMM(BPF_AND, 3, 0xff),
		MOV_IMM(2, 0),
	};
	/* two shifts either way */
	const struct bpf_insn unaligned[] = {
		LDX(BPF_DW, 3, 1, 112),
		ALU_IMM(BPF_LSH, 3, 40),
		ALU_IMM(BPF_ARSH, 3, 48),
		MOV_IMM(2, 0),
	};

	p.args[0].add = 5;
	check_seq_form(false, &p, 0x32, add_old, ARRAY_SIZE(add_old));
	check_seq_form(true, &p, 0x32, add_v4, ARRAY_SIZE(add_v4));

	p = plan1(reg_arg(BP_REG_RDI, 8, true));
	p.args[0].bit_off = 32;
	p.args[0].bit_size = 32;
	check_seq_form(false, &p, 0x32, hi_old, ARRAY_SIZE(hi_old));
	check_seq_form(true, &p, 0x32, hi_v4, ARRAY_SIZE(hi_v4));

	p.args[0].is_signed = false;
	p.args[0].bit_off = 8;
	p.args[0].bit_size = 8;
	check_seq_form(false, &p, 0x32, byte1, ARRAY_SIZE(byte1));
	check_seq_form(true, &p, 0x32, byte1, ARRAY_SIZE(byte1));

	p.args[0].bit_off = 4;
	check_seq_form(true, &p, 0x32, odd, ARRAY_SIZE(odd));

	p.args[0].is_signed = true;
	p.args[0].bit_off = 8;
	p.args[0].bit_size = 16;
	check_seq_form(false, &p, 0x32, unaligned, ARRAY_SIZE(unaligned));
	check_seq_form(true, &p, 0x32, unaligned, ARRAY_SIZE(unaligned));
}

/* *(s32 *)rdi, from user memory */
static void test_seq_one_deref(void)
{
	struct bp_fetch f = reg_arg(BP_REG_RDI, 4, true);
	struct bp_plan p;
	const struct bpf_insn want[] = {
		MOV_REG(6, 1),
		LDX(BPF_DW, 3, 6, 112),
		MOV_REG(1, 10),
		ALU_IMM(BPF_ADD, 1, -8),
		MOV_IMM(2, 4),
		CALL(BPF_FUNC_probe_read_user),
		JNE_IMM(0, 0, 5),
		LDX(BPF_W, 3, 10, -8),
		ALU_IMM(BPF_LSH, 3, 32),
		ALU_IMM(BPF_ARSH, 3, 32),
		MOV_IMM(2, 0),
		JA(2),
		MOV_IMM(2, 1),
		MOV_IMM(3, 0),
		MOV_IMM(4, 0),
		MOV_IMM(5, 0),
		MOV_REG(1, 6),
	};

	/* the slot the read filled, loaded sign-extending */
	const struct bpf_insn want_v4[] = {
		MOV_REG(6, 1),
		LDX(BPF_DW, 3, 6, 112),
		MOV_REG(1, 10),
		ALU_IMM(BPF_ADD, 1, -8),
		MOV_IMM(2, 4),
		CALL(BPF_FUNC_probe_read_user),
		JNE_IMM(0, 0, 3),
		LDXSX(BPF_W, 3, 10, -8),
		MOV_IMM(2, 0),
		JA(2),
		MOV_IMM(2, 1),
		MOV_IMM(3, 0),
		MOV_IMM(4, 0),
		MOV_IMM(5, 0),
		MOV_REG(1, 6),
	};

	f.nderef = 1;
	f.user_mask = 1;
	p = plan1(f);
	check_seq(&p, want, ARRAY_SIZE(want));
	check_seq_form(true, &p, 0, want_v4, ARRAY_SIZE(want_v4));
}

/*
 * A stack-passed argument (a short at rsp + 8) and a bitfield in memory
 * (bits 16..31 of a u32 word at +4 of a kernel pointer): the read fills
 * the slot with the storage's bytes, and the kept ones are loaded from it
 * when they are whole and aligned. The body reads err and the argument.
 */
static void test_seq_stack_slot(void)
{
	struct bp_fetch f = reg_arg(BP_REG_RSP, 2, true);
	struct bp_plan p;
#define READ_TO_SLOT(REG, OFF, SIZE, FN)				\
		MOV_REG(6, 1),						\
		LDX(BPF_DW, 3, 6, REG),					\
		ALU_IMM(BPF_ADD, 3, OFF),				\
		MOV_REG(1, 10),						\
		ALU_IMM(BPF_ADD, 1, -8),				\
		MOV_IMM(2, SIZE),					\
		CALL(FN)
	const struct bpf_insn old[] = {
		READ_TO_SLOT(152, 8, 2, BPF_FUNC_probe_read_user),
		JNE_IMM(0, 0, 5),
		LDX(BPF_H, 3, 10, -8),
		ALU_IMM(BPF_LSH, 3, 48),
		ALU_IMM(BPF_ARSH, 3, 48),
		OK_THEN_ERR_R3,
	};
	const struct bpf_insn v4[] = {
		READ_TO_SLOT(152, 8, 2, BPF_FUNC_probe_read_user),
		JNE_IMM(0, 0, 3),
		LDXSX(BPF_H, 3, 10, -8),
		OK_THEN_ERR_R3,
	};
	const struct bpf_insn bits_old[] = {
		READ_TO_SLOT(40, 4, 4, BPF_FUNC_probe_read_kernel),
		JNE_IMM(0, 0, 5),
		LDX(BPF_W, 3, 10, -8),
		ALU_IMM(BPF_LSH, 3, 32),
		ALU_IMM(BPF_ARSH, 3, 48),
		OK_THEN_ERR_R3,
	};
	const struct bpf_insn bits_v4[] = {
		READ_TO_SLOT(40, 4, 4, BPF_FUNC_probe_read_kernel),
		JNE_IMM(0, 0, 3),
		LDXSX(BPF_H, 3, 10, -6),
		OK_THEN_ERR_R3,
	};
	const struct bpf_insn bits_unsigned[] = {
		READ_TO_SLOT(40, 4, 4, BPF_FUNC_probe_read_kernel),
		JNE_IMM(0, 0, 3),
		LDX(BPF_H, 3, 10, -6),
		OK_THEN_ERR_R3,
	};
#undef READ_TO_SLOT

	f.add = 8;
	f.nderef = 1;
	f.user_mask = 1;
	p = plan1(f);
	check_seq_form(false, &p, 0x32, old, ARRAY_SIZE(old));
	check_seq_form(true, &p, 0x32, v4, ARRAY_SIZE(v4));

	f = reg_arg(BP_REG_RBX, 4, true);
	f.add = 4;
	f.nderef = 1;
	f.bit_off = 16;
	f.bit_size = 16;
	p = plan1(f);
	check_seq_form(false, &p, 0x32, bits_old, ARRAY_SIZE(bits_old));
	check_seq_form(true, &p, 0x32, bits_v4, ARRAY_SIZE(bits_v4));
	p.args[0].is_signed = false;
	check_seq_form(false, &p, 0x32, bits_unsigned, ARRAY_SIZE(bits_unsigned));
	check_seq_form(true, &p, 0x32, bits_unsigned, ARRAY_SIZE(bits_unsigned));
}

/*
 * With the program's prototype known (unread), registers it never reads
 * are left alone: int prog(void *ctx, int err, u64 a) gets no r4/r5 zeroing,
 * int prog(void *ctx) no prologue at all.
 */
static void test_seq_only_what_the_program_reads(void)
{
	struct bp_plan p = plan1(reg_arg(BP_REG_RDI, 8, false));
	const struct bpf_insn want_reg[] = {
		LDX(BPF_DW, 3, 1, 112),
		MOV_IMM(2, 0),
	};
	struct bp_fetch f = reg_arg(BP_REG_RDI, 4, true);
	const struct bpf_insn want_deref[] = {
		MOV_REG(6, 1),
		LDX(BPF_DW, 3, 6, 112),
		MOV_REG(1, 10),
		ALU_IMM(BPF_ADD, 1, -8),
		MOV_IMM(2, 4),
		CALL(BPF_FUNC_probe_read_user),
		JNE_IMM(0, 0, 5),
		LDX(BPF_W, 3, 10, -8),
		ALU_IMM(BPF_LSH, 3, 32),
		ALU_IMM(BPF_ARSH, 3, 32),
		MOV_IMM(2, 0),
		JA(2),
		MOV_IMM(2, 1),
		MOV_IMM(3, 0),
		MOV_REG(1, 6),
	};
	struct bp_plan none = { .nargs = 0 };
	struct bpf_insn buf[8];

	CHECK_INT(BP_UNREAD_PARAMS(0), 0x3e);
	CHECK_INT(BP_UNREAD_PARAMS(3), 0x30);
	CHECK_INT(BP_UNREAD_PARAMS(5), 0);
	check_seq_unread(&p, BP_UNREAD_PARAMS(3), want_reg, ARRAY_SIZE(want_reg));
	f.nderef = 1;
	f.user_mask = 1;
	p = plan1(f);
	check_seq_unread(&p, BP_UNREAD_PARAMS(3), want_deref, ARRAY_SIZE(want_deref));
	CHECK_INT(gen(&none, BP_UNREAD_PARAMS(1), buf, ARRAY_SIZE(buf)), 0);
}

static int gen_count_unread(const struct bp_plan *p, uint8_t unread)
{
	struct bpf_insn insns[BP_PROLOGUE_MAX_INSNS];

	return gen(p, unread, insns, ARRAY_SIZE(insns));
}

static int gen_count(const struct bp_plan *p)
{
	return gen_count_unread(p, 0);
}

/* What the loader puts in a plan for a program without BTF: the registers
 * of r1..r5 its body does not read (loader/instance.c). */
static uint8_t body_unread(const struct bpf_insn *body, size_t n)
{
	return BP_UNREAD_ALL & ~bp_liveness__entry(body, n);
}

/*
 * Without BTF, the liveness of the body decides: a body that reads err and
 * the one argument (r2, r3) gets the load, its extension and r2 = 0, as
 * perf's prologue (load, r2 = 0) plus the extension perf does not do; one
 * that reads nothing gets no prologue at all.
 */
static void test_seq_body_liveness(void)
{
	/* return err + a */
	const struct bpf_insn reads_r2_r3[] = {
		MOV_REG(0, 3),
		I(BPF_ALU64 | BPF_ADD | BPF_X, 0, 2, 0, 0),
		EXIT_INSN,
	};
	const struct bpf_insn reads_nothing[] = {
		MOV_IMM(0, 0),
		EXIT_INSN,
	};
	const struct bpf_insn want_u64[] = {
		LDX(BPF_DW, 3, 1, 104),
		MOV_IMM(2, 0),
	};
	const struct bpf_insn want_s32[] = {
		LDX(BPF_DW, 3, 1, 104),
		ALU_IMM(BPF_LSH, 3, 32),
		ALU_IMM(BPF_ARSH, 3, 32),
		MOV_IMM(2, 0),
	};
	const struct bpf_insn want_u16[] = {
		LDX(BPF_H, 3, 1, 104),
		MOV_IMM(2, 0),
	};
	struct bp_plan p = plan1(reg_arg(BP_REG_RSI, 8, false));
	struct bp_plan none = { .nargs = 0 };
	struct bpf_insn buf[BP_PROLOGUE_MAX_INSNS];
	uint8_t unread;

	CHECK_INT(body_unread(reads_r2_r3, ARRAY_SIZE(reads_r2_r3)), 0x32);
	CHECK_INT(body_unread(reads_nothing, ARRAY_SIZE(reads_nothing)), 0x3e);

	unread = body_unread(reads_r2_r3, ARRAY_SIZE(reads_r2_r3));
	check_seq_unread(&p, unread, want_u64, ARRAY_SIZE(want_u64));
	p.args[0] = reg_arg(BP_REG_RSI, 4, true);
	check_seq_unread(&p, unread, want_s32, ARRAY_SIZE(want_s32));
	p.args[0] = reg_arg(BP_REG_RSI, 2, false);
	check_seq_unread(&p, unread, want_u16, ARRAY_SIZE(want_u16));

	unread = body_unread(reads_nothing, ARRAY_SIZE(reads_nothing));
	CHECK_INT(gen(&none, unread, buf, ARRAY_SIZE(buf)), 0);
	/* with an argument it does not read either: still nothing to do */
	CHECK_INT(gen(&p, unread, buf, ARRAY_SIZE(buf)), 0);
	/* a body that reads only r4 (its second argument, not fetched) */
	{
		const struct bpf_insn want_r4[] = { MOV_IMM(4, 0) };

		check_seq_unread(&none, BP_UNREAD_ALL & ~(1u << 4), want_r4,
				 ARRAY_SIZE(want_r4));
	}
}

/*
 * The second shape still fetches every argument and sets r2 (a failed read
 * must reach the program), but zeroes only what the body reads and gives
 * r1 back only to a body that reads ctx.
 */
static void test_seq_slow_body_liveness(void)
{
	struct bp_fetch f = reg_arg(BP_REG_RDI, 8, false);
	const struct bpf_insn want[] = {
		MOV_REG(6, 1),
		LDX(BPF_DW, 3, 6, 112),
		MOV_REG(1, 10),
		ALU_IMM(BPF_ADD, 1, -8),
		MOV_IMM(2, 8),
		CALL(BPF_FUNC_probe_read_user),
		JNE_IMM(0, 0, 3),
		LDX(BPF_DW, 3, 10, -8),
		OK_THEN_ERR_R3,
	};
	/* if (err) return 0; return a;  -- no ctx, no r4/r5 */
	const struct bpf_insn body[] = {
		MOV_IMM(0, 0),
		JNE_IMM(2, 0, 1),
		MOV_REG(0, 3),
		EXIT_INSN,
	};
	uint8_t unread = body_unread(body, ARRAY_SIZE(body));
	struct bp_plan p;

	f.nderef = 1;
	f.user_mask = 1;
	p = plan1(f);
	CHECK_INT(unread, 0x32);
	check_seq_unread(&p, unread, want, ARRAY_SIZE(want));
	/* reading ctx brings the restore back */
	unread &= ~(1u << 1);
	CHECK_INT(gen_count_unread(&p, unread), ARRAY_SIZE(want) + 1);
}

static void test_insn_counts(void)
{
	struct bp_fetch f = reg_arg(BP_REG_RDI, 4, true);
	struct bp_plan p;
	int n_reg, n_1, n_3;

	/* a register-only argument: one load plus the extension */
	p = plan1(reg_arg(BP_REG_RDI, 8, false));
	CHECK_INT(gen_count(&p), 1 + 3);
	p = plan1(reg_arg(BP_REG_RDI, 4, true));
	n_reg = gen_count(&p);
	CHECK_INT(n_reg, 3 + 3);
	/* with cpu v4 the extension is the load's */
	cpu_v4 = true;
	CHECK_INT(gen_count(&p), 1 + 3);
	f.nderef = 1;
	p = plan1(f);
	CHECK_INT(gen_count(&p), 15);
	cpu_v4 = false;

	n_1 = gen_count(&p);
	CHECK_INT(n_1, 17);

	f.nderef = 3;
	f.deref_off[0] = 8;
	f.deref_off[1] = 16;
	f.deref_off[2] = 4;
	p = plan1(f);
	n_3 = gen_count(&p);
	/* each further deref costs six, plus one when it has an offset;
	 * from three reads on, r9 holds the slot's address: two to set it
	 * up, one saved on every read */
	CHECK_INT(n_3, n_1 + 1 + 2 * 7 + 2 - 3);

	/* a register arg next to a deref arg adds one load, no detour */
	p.nargs = 2;
	p.args[1] = reg_arg(BP_REG_RSI, 8, false);
	CHECK_INT(gen_count(&p), n_3 + 1);

	/* constants: one move, two only when they need all 64 bits */
	p = plan1(const_arg(42, 8, false));
	CHECK_INT(gen_count(&p), 1 + 3);
	p = plan1(const_arg(0x123456789abcdef0LL, 8, false));
	CHECK_INT(gen_count(&p), 2 + 3);

	if (verbose())
		printf("# counts: reg-only %d, 1 deref %d, 3 derefs %d\n",
		       n_reg, n_1, n_3);
}

/* The worst plan must still fit the advertised bound. */
static void test_worst_case_fits(void)
{
	struct bp_plan p = { .nargs = 3 };
	struct bpf_insn insns[BP_PROLOGUE_MAX_INSNS];
	int i, k, n;

	for (i = 0; i < 3; i++) {
		struct bp_fetch *f = &p.args[i];

		*f = reg_arg(BP_REG_RSP, 8, false);
		f->add = 0x7fffffffffffLL;	/* needs ld_imm64 */
		f->nderef = BP_MAX_DEREFS;
		for (k = 0; k < BP_MAX_DEREFS; k++)
			f->deref_off[k] = -0x1000 - k;
		f->bit_off = 3;
		f->bit_size = 40;
	}
	n = gen(&p, 0, insns, ARRAY_SIZE(insns));
	CHECK(n > 0 && n <= BP_PROLOGUE_MAX_INSNS, "n = %d", n);

	/* globals at a return probe: a bpf_get_func_ip() call per argument */
	for (i = 0; i < 3; i++) {
		p.args[i].base = BP_BASE_ADDR;
		p.args[i].anchor_kind = BP_ANCHOR_FUNC_IP;
		p.args[i].anchor = 0x1000;
	}
	n = gen(&p, 0, insns, ARRAY_SIZE(insns));
	CHECK(n > 0 && n <= BP_PROLOGUE_MAX_INSNS, "n = %d (func_ip)", n);
}

static void test_bad_plans(void)
{
	struct bpf_insn insns[BP_PROLOGUE_MAX_INSNS];
	struct bp_plan p;
	int n, max;

	p = plan1(reg_arg(BP_REG_RDI, 4, true));
	p.nargs = 4;
	CHECK_INT(gen(&p, 0, insns, ARRAY_SIZE(insns)), -EINVAL);
	p.nargs = -1;
	CHECK_INT(gen(&p, 0, insns, ARRAY_SIZE(insns)), -EINVAL);

	p = plan1(reg_arg(BP_REG_RDI, 3, true));
	CHECK_INT(gen(&p, 0, insns, ARRAY_SIZE(insns)), -EINVAL);
	p = plan1(reg_arg(BP_REG_RDI, 16, true));
	CHECK_INT(gen(&p, 0, insns, ARRAY_SIZE(insns)), -EINVAL);
	p = plan1(reg_arg(BP_REG_MAX, 8, true));
	CHECK_INT(gen(&p, 0, insns, ARRAY_SIZE(insns)), -EINVAL);

	p = plan1(reg_arg(BP_REG_RDI, 8, false));
	p.args[0].nderef = BP_MAX_DEREFS + 1;
	CHECK_INT(gen(&p, 0, insns, ARRAY_SIZE(insns)), -EINVAL);

	p = plan1(reg_arg(BP_REG_RDI, 8, false));
	p.args[0].bit_off = 60;
	p.args[0].bit_size = 8;
	CHECK_INT(gen(&p, 0, insns, ARRAY_SIZE(insns)), -EINVAL);
	p.args[0].bit_size = 0;
	CHECK_INT(gen(&p, 0, insns, ARRAY_SIZE(insns)), -EINVAL);

	/* a hole in the used arguments */
	p = (struct bp_plan){ .nargs = 2, .args = { reg_arg(BP_REG_RDI, 8, 0) } };
	CHECK_INT(gen(&p, 0, insns, ARRAY_SIZE(insns)), -EINVAL);

	/* a global's address: fine with a known anchor kind */
	p = plan1(reg_arg(BP_REG_RDI, 8, false));
	p.args[0].base = BP_BASE_ADDR;
	CHECK(gen(&p, 0, insns, ARRAY_SIZE(insns)) > 0, "address base");
	p.args[0].anchor_kind = 7;
	CHECK_INT(gen(&p, 0, insns, ARRAY_SIZE(insns)), -EINVAL);

	/* garbage past nargs is ignored */
	p = plan1(reg_arg(BP_REG_RDI, 8, false));
	p.args[2].size = 3;
	p.args[2].nderef = 200;
	CHECK(gen(&p, 0, insns, ARRAY_SIZE(insns)) > 0, "nargs ignored");

	/* too little room: -E2BIG for every max below the real length */
	p = plan1(reg_arg(BP_REG_RDI, 4, true));
	p.args[0].nderef = 2;
	n = gen_count(&p);
	for (max = 0; max < n; max++)
		CHECK_INT(gen(&p, 0, insns, max), -E2BIG);
	CHECK_INT(gen(&p, 0, insns, n), n);
	p = (struct bp_plan){ .nargs = 0 };
	CHECK_INT(gen(&p, 0, insns, 3), -E2BIG);
}

/* With a tight buffer nothing is written past max. */
static void test_no_overrun(void)
{
	struct bpf_insn insns[32];
	struct bp_plan p = plan1(reg_arg(BP_REG_RDI, 4, true));
	int i, n;

	p.args[0].nderef = 2;
	n = gen_count(&p);
	memset(insns, 0xab, sizeof(insns));
	CHECK_INT(gen(&p, 0, insns, 5), -E2BIG);
	for (i = 5; i < 32; i++)
		CHECK(insns[i].code == 0xab, "insn %d written (n %d)", i, n);
}

static const char *fmt1(const struct bpf_insn *insn, const struct bpf_insn *next)
{
	static char buf[128];

	bp_insn__format(insn, next, buf, sizeof(buf));
	return buf;
}

static void test_insn_format(void)
{
	const struct bpf_insn ld[2] = {
		I(BPF_LD | BPF_DW | BPF_IMM, 1, 0, 0, (int32_t)0x9abcdef0),
		I(0, 0, 0, 0, 0x12345678),
	};
	struct bpf_insn x;
	char small[8];

	CHECK_STR(fmt1(&LDX(BPF_DW, 3, 1, 112), NULL), "r3 = *(u64 *)(r1 +112)");
	CHECK_STR(fmt1(&LDX(BPF_W, 7, 10, -8), NULL), "r7 = *(u32 *)(r10 -8)");
	CHECK_STR(fmt1(&LDX(BPF_B, 7, 10, 0), NULL), "r7 = *(u8 *)(r10 +0)");
	CHECK_STR(fmt1(&ALU_IMM(BPF_ADD, 7, -8), NULL), "r7 += -8");
	CHECK_STR(fmt1(&MOV32_REG(3, 3), NULL), "w3 = w3");
	CHECK_STR(fmt1(&ALU_IMM(BPF_LSH, 3, 32), NULL), "r3 <<= 32");
	CHECK_STR(fmt1(&ALU_IMM(BPF_ARSH, 3, 32), NULL), "r3 s>>= 32");
	CHECK_STR(fmt1(&ALU_IMM(BPF_RSH, 3, 5), NULL), "r3 >>= 5");
	CHECK_STR(fmt1(&ALU_IMM(BPF_AND, 3, 255), NULL), "r3 &= 255");
	CHECK_STR(fmt1(&MOV_REG(6, 1), NULL), "r6 = r1");
	CHECK_STR(fmt1(&MOV_IMM(2, 0), NULL), "r2 = 0");
	CHECK_STR(fmt1(&I(BPF_ALU | BPF_MOV | BPF_K, 3, 0, 0, -1), NULL), "w3 = -1");
	CHECK_STR(fmt1(&I(BPF_ALU64 | BPF_ADD | BPF_X, 3, 2, 0, 0), NULL), "r3 += r2");
	CHECK_STR(fmt1(&I(BPF_ALU64 | BPF_NEG, 3, 0, 0, 0), NULL), "r3 = -r3");
	CHECK_STR(fmt1(&I(BPF_ALU | BPF_END | BPF_TO_BE, 3, 0, 0, 16), NULL),
		  "r3 = be16 r3");
	CHECK_STR(fmt1(&JNE_IMM(0, 0, 9), NULL), "if r0 != 0x0 goto pc+9");
	CHECK_STR(fmt1(&I(BPF_JMP | BPF_JEQ | BPF_X, 1, 2, -2, 0), NULL),
		  "if r1 == r2 goto pc-2");
	CHECK_STR(fmt1(&I(BPF_JMP32 | BPF_JSGT | BPF_K, 1, 0, 1, 5), NULL),
		  "if w1 s> 0x5 goto pc+1");
	CHECK_STR(fmt1(&JA(3), NULL), "goto pc+3");
	CHECK_STR(fmt1(&CALL(BPF_FUNC_probe_read_user), NULL),
		  "call bpf_probe_read_user#112");
	CHECK_STR(fmt1(&CALL(BPF_FUNC_probe_read_kernel), NULL),
		  "call bpf_probe_read_kernel#113");
	CHECK_STR(fmt1(&ld[0], &ld[1]), "r1 = 0x123456789abcdef0 ll");
	CHECK_STR(fmt1(&I(BPF_STX | BPF_DW | BPF_MEM, 10, 1, -8, 0), NULL),
		  "*(u64 *)(r10 -8) = r1");
	CHECK_STR(fmt1(&I(BPF_ST | BPF_W | BPF_MEM, 10, 0, -4, 7), NULL),
		  "*(u32 *)(r10 -4) = 7");
	CHECK_STR(fmt1(&EXIT_INSN, NULL), "exit");
	CHECK_STR(fmt1(&I(0xff, 0, 0, 0, 0), NULL), "(unknown opcode 0xff)");
	CHECK_STR(fmt1(&I(BPF_JMP32 | BPF_EXIT, 0, 0, 0, 0), NULL),
		  "(unknown opcode 0x96)");

	/* snprintf semantics: the full length comes back even when cut */
	x = LDX(BPF_DW, 3, 1, 112);
	CHECK_INT(bp_insn__format(&x, NULL, small, sizeof(small)),
		  strlen("r3 = *(u64 *)(r1 +112)"));
	CHECK_STR(small, "r3 = *(");
}

/* Everything the generator emits has a readable form. */
static void test_generated_code_formats(void)
{
	struct bp_plan p = {
		.nargs = 3,
		.args = { reg_arg(BP_REG_RDI, 4, true),
			  const_arg(-0x123456789LL, 8, false),
			  reg_arg(BP_REG_RSP, 2, false) },
	};
	struct bpf_insn insns[BP_PROLOGUE_MAX_INSNS];
	char buf[128];
	int i, n;

	p.args[0].nderef = 2;
	p.args[0].add = 0x100000000LL;
	p.args[0].bit_off = 3;
	p.args[0].bit_size = 5;
	p.args[2].nderef = 1;
	p.args[2].user_mask = 1;
	n = gen(&p, 0, insns, ARRAY_SIZE(insns));
	CHECK(n > 0, "n = %d", n);
	for (i = 0; i < n; i++) {
		bp_insn__format(&insns[i], i + 1 < n ? &insns[i + 1] : NULL,
				buf, sizeof(buf));
		CHECK(!strstr(buf, "unknown") && !strstr(buf, "without"),
		      "insn %d: %s", i, buf);
		if (insns[i].code == (BPF_LD | BPF_DW | BPF_IMM))
			i++;	/* the second half is no instruction */
	}
	if (verbose())
		dump_prog(insns, n);
}

/* ------------------------------------------------------------------ */
/* Plan helpers                                                        */

static void test_pt_regs_off(void)
{
	int r;

	for (r = 0; r < BP_REG_MAX; r++)
		CHECK(bp_arch__pt_regs_off(r) == pt_off[r], "reg %d: %d", r,
		      bp_arch__pt_regs_off(r));
	CHECK_INT(bp_arch__pt_regs_off(-1), -1);
	CHECK_INT(bp_arch__pt_regs_off(BP_REG_MAX), -1);
	CHECK_STR(bp_arch__reg_name(BP_REG_RDI), "rdi");
	CHECK_STR(bp_arch__reg_name(BP_REG_RSP), "rsp");
	CHECK_STR(bp_arch__reg_name(BP_REG_R8), "r8");
	CHECK_STR(bp_arch__reg_name(BP_REG_RIP), "rip");
	CHECK(!bp_arch__reg_name(BP_REG_MAX), "name past the end");
}

static const char *ffmt(const struct bp_fetch *f)
{
	static char buf[160];

	bp_fetch__format(f, buf, sizeof(buf));
	return buf;
}

static void test_fetch_format(void)
{
	struct bp_fetch f = reg_arg(BP_REG_RDI, 4, true);
	char small[6];

	CHECK_STR(ffmt(&f), "s32 %rdi");
	f.nderef = 2;
	f.deref_off[0] = 8;
	f.deref_off[1] = 4;
	f.user_mask = 3;
	CHECK_STR(ffmt(&f), "s32 *(u32 *)(*(u64 *)(%rdi + 8) + 4) [user]");
	f.user_mask = 1;
	CHECK_STR(ffmt(&f), "s32 *(u32 *)(*(u64 *)(%rdi + 8) + 4) [user mask 0x1]");

	f = reg_arg(BP_REG_RSP, 8, false);
	f.add = 8;
	f.nderef = 1;
	CHECK_STR(ffmt(&f), "u64 *(u64 *)(%rsp + 8)");
	f.add = -16;
	f.nderef = 0;
	CHECK_STR(ffmt(&f), "u64 %rsp - 16");

	f = reg_arg(BP_REG_RSI, 4, false);
	f.nderef = 1;
	f.bit_off = 5;
	f.bit_size = 3;
	CHECK_STR(ffmt(&f), "u3 *(u32 *)(%rsi) [bits 5..7]");

	f = const_arg(42, 8, false);
	CHECK_STR(ffmt(&f), "u64 const 42");
	f.nderef = 1;
	f.add = 0x1000;
	CHECK_STR(ffmt(&f), "u64 *(u64 *)(0x1000)");

	f = reg_arg(BP_REG_RDI, 4, true);
	CHECK_INT(bp_fetch__format(&f, small, sizeof(small)), strlen("s32 %rdi"));
	CHECK_STR(small, "s32 %");
}

static void test_plan_equal(void)
{
	struct bp_plan a = plan1(reg_arg(BP_REG_RDI, 4, true)), b;

	a.args[0].nderef = 1;
	a.args[0].deref_off[0] = 8;
	a.args[0].user_mask = 1;
	b = a;
	CHECK(bp_plan__equal(&a, &b), "copies differ");

	/* ignored: offsets past nderef, mask bits past nderef, args past nargs */
	b.args[0].deref_off[3] = 99;
	b.args[0].user_mask |= 0x10;
	b.args[2] = reg_arg(BP_REG_RAX, 8, false);
	CHECK(bp_plan__equal(&a, &b), "ignored fields matter");
	CHECK(bp_fetch__equal(&a.args[0], &b.args[0]), "fetch: ignored fields matter");

	b = a;
	b.args[0].deref_off[0] = 16;
	CHECK(!bp_plan__equal(&a, &b), "offset");
	b = a;
	b.args[0].is_signed = false;
	CHECK(!bp_plan__equal(&a, &b), "sign");
	b = a;
	b.args[0].user_mask = 0;
	CHECK(!bp_plan__equal(&a, &b), "user_mask");
	b = a;
	b.args[0].reg = BP_REG_RSI;
	CHECK(!bp_plan__equal(&a, &b), "reg");
	b = a;
	b.args[0].bit_size = 3;
	CHECK(!bp_plan__equal(&a, &b), "bit_size");
	b = a;
	b.nargs = 2;
	CHECK(!bp_plan__equal(&a, &b), "nargs");
}

/* ------------------------------------------------------------------ */
/* Value-level tests                                                   */

static void test_val_negative_int(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_plan p = {
		.nargs = 3,
		.args = { reg_arg(BP_REG_RDI, 4, true),
			  reg_arg(BP_REG_RSI, 1, true),
			  reg_arg(BP_REG_RDX, 2, true) },
	};
	struct run run;

	set_reg(&regs, BP_REG_RDI, 0xdeadbeef00000000ULL | (uint32_t)-10);
	set_reg(&regs, BP_REG_RSI, 0x12345678abcdef80ULL);
	set_reg(&regs, BP_REG_RDX, 0x0000000100007fffULL);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[2], 0);
	CHECK_INT((int64_t)run.r[3], -10);
	CHECK_INT((int64_t)run.r[4], -128);
	CHECK_INT((int64_t)run.r[5], 0x7fff);
	/* register-only plans neither call, nor use the stack, nor r6..r9 */
	CHECK_INT(run.user_calls + run.kernel_calls, 0);
	CHECK(!run.stack_used, "stack used");
	CHECK(!(run.written & 0x3c0), "r6..r9 written: 0x%x", run.written);
}

static void test_val_unsigned_zero_extended(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_plan p = {
		.nargs = 3,
		.args = { reg_arg(BP_REG_RDI, 1, false),
			  reg_arg(BP_REG_RSI, 2, false),
			  reg_arg(BP_REG_RDX, 4, false) },
	};
	struct run run;

	set_reg(&regs, BP_REG_RDI, 0xffffffffffffffefULL);
	set_reg(&regs, BP_REG_RSI, 0x1234567890abcdefULL);
	set_reg(&regs, BP_REG_RDX, 0xfedcba9890abcdefULL);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[2], 0);
	CHECK_INT(run.r[3], 0xef);
	CHECK_INT(run.r[4], 0xcdef);
	CHECK_INT(run.r[5], 0x90abcdef);
}

static void test_val_unused_args_zero(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_plan p = plan1(reg_arg(BP_REG_RCX, 8, false));
	struct run run;

	set_reg(&regs, BP_REG_RCX, 0x1122334455667788ULL);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[3], 0x1122334455667788LL);
	CHECK_INT(run.r[4], 0);
	CHECK_INT(run.r[5], 0);

	p.nargs = 0;
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK(!run.r[2] && !run.r[3] && !run.r[4] && !run.r[5], "not zero");
}

/* struct a { long x; struct b *b; }  struct b { long y[2]; struct c *c; }
 * struct c { int pad; int v; }  and the plan a->b->c->v with add 0. */
static uint8_t mem_a[32], mem_b[32], mem_c[16];
#define A_ADDR (USER_BASE + 0x1000)
#define B_ADDR (USER_BASE + 0x2000)
#define C_ADDR (USER_BASE + 0x3000)

static void setup_chain(void)
{
	memset(mem_a, 0x5a, sizeof(mem_a));
	memset(mem_b, 0x5b, sizeof(mem_b));
	memset(mem_c, 0x5c, sizeof(mem_c));
	put_u64(mem_a, 8, B_ADDR);
	put_u64(mem_b, 16, C_ADDR);
	put_u32(mem_c, 4, (uint32_t)-5);
	mem_reset();
	mem_add(true, A_ADDR, mem_a, sizeof(mem_a));
	mem_add(true, B_ADDR, mem_b, sizeof(mem_b));
	mem_add(true, C_ADDR, mem_c, sizeof(mem_c));
}

static struct bp_fetch chain_arg(void)
{
	struct bp_fetch f = reg_arg(BP_REG_RDI, 4, true);

	f.nderef = 3;
	f.deref_off[0] = 8;
	f.deref_off[1] = 16;
	f.deref_off[2] = 4;
	f.user_mask = 7;
	return f;
}

static void test_val_deref_chain(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_plan p = plan1(chain_arg());
	struct run run;

	setup_chain();
	set_reg(&regs, BP_REG_RDI, A_ADDR);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[2], 0);
	CHECK_INT((int64_t)run.r[3], -5);
	CHECK_INT(run.r[4], 0);
	CHECK_INT(run.r[5], 0);
	CHECK_INT(run.user_calls, 3);
	CHECK_INT(run.kernel_calls, 0);

	/* the same value unsigned: zero-extended by the 4-byte load alone */
	p.args[0].is_signed = false;
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[3], 0xfffffffbULL);

	/* the base add folds into the first offset */
	p.args[0].add = 0x40;
	set_reg(&regs, BP_REG_RDI, A_ADDR - 0x40);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[2], 0);
	CHECK_INT(run.r[3], 0xfffffffbULL);

	/* and a base add too large for an immediate */
	p.args[0].add = 0x100000000LL;
	set_reg(&regs, BP_REG_RDI, A_ADDR - 0x100000000ULL);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[3], 0xfffffffbULL);
}

/* fentry: the chain from ctx slot 1, kernel memory; slot 2 as is */
static void test_val_ctx_deref(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_plan p = { .nargs = 2, .args = { chain_arg(), ctx_arg(2, 2, false) } };
	struct run run;

	setup_chain();
	p.args[0].base = BP_BASE_CTX;
	p.args[0].reg = 1;
	p.args[0].user_mask = 0;
	regs.w[1] = A_ADDR;
	regs.w[2] = 0x1234abcd;
	/* the chain's memory is kernel memory now */
	mem_reset();
	mem_add(false, A_ADDR, mem_a, sizeof(mem_a));
	mem_add(false, B_ADDR, mem_b, sizeof(mem_b));
	mem_add(false, C_ADDR, mem_c, sizeof(mem_c));
	check_against_ref(&p, &regs, &run);
	CHECK_INT(run.r[2], 0);
	CHECK_INT((int64_t)run.r[3], -5);
	CHECK_INT(run.r[4], 0xabcd);
	CHECK_INT(run.kernel_calls, 3);
	CHECK_INT(run.user_calls, 0);
}

/* Every argument in its register, including after helper calls. */
static void test_val_mixed_args(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_plan p = {
		.nargs = 3,
		.args = { chain_arg(), reg_arg(BP_REG_RSI, 2, true), chain_arg() },
	};
	struct run run;
	int perm;

	setup_chain();
	set_reg(&regs, BP_REG_RDI, A_ADDR);
	set_reg(&regs, BP_REG_RSI, 0xffff0000fffffff0ULL);
	p.args[2].size = 8;
	p.args[2].deref_off[2] = 0;
	p.args[2].nderef = 3;
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[2], 0);
	CHECK_INT((int64_t)run.r[3], -5);
	CHECK_INT((int64_t)run.r[4], -16);
	CHECK_INT(run.r[5], 0xfffffffb5c5c5c5cULL);

	/* every arrangement of deref and register args */
	for (perm = 0; perm < 8; perm++) {
		int i;

		p.nargs = 3;
		for (i = 0; i < 3; i++)
			p.args[i] = perm & (1 << i) ? chain_arg()
						    : reg_arg(BP_REG_RSI, 4, false);
		check_against_ref(&p, &regs, &run);
	}
}

static void test_val_stack_arg(void)
{
	static uint8_t stack[64];
	struct pt_regs_fake regs = { 0 };
	struct bp_fetch f = reg_arg(BP_REG_RSP, 4, true);
	struct bp_plan p;
	struct run run;

	memset(stack, 0xee, sizeof(stack));
	put_u32(stack, 8, (uint32_t)-123456);
	mem_reset();
	mem_add(true, USER_BASE + 0x8000, stack, sizeof(stack));
	set_reg(&regs, BP_REG_RSP, USER_BASE + 0x8000);
	f.add = 8;
	f.nderef = 1;
	f.user_mask = 1;
	p = plan1(f);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[2], 0);
	CHECK_INT((int64_t)run.r[3], -123456);
	CHECK_INT(run.user_calls, 1);
}

static void test_val_failed_read(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_plan p = {
		.nargs = 3,
		.args = { reg_arg(BP_REG_RSI, 8, false), chain_arg(),
			  const_arg(7, 8, false) },
	};
	struct run run;

	setup_chain();
	set_reg(&regs, BP_REG_RSI, 0x1234);

	/* NULL pointer at the first level */
	set_reg(&regs, BP_REG_RDI, 0);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK(run.r[2] != 0, "r2 = 0 after a failed read");
	CHECK_INT(run.r[3], 0);
	CHECK_INT(run.r[4], 0);
	CHECK_INT(run.r[5], 0);

	/* a bad pointer in the middle of the chain */
	put_u64(mem_b, 16, 0xdead0000);
	set_reg(&regs, BP_REG_RDI, A_ADDR);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK(run.r[2] != 0, "r2 = 0 after a failed read");
	CHECK(!run.r[3] && !run.r[4] && !run.r[5], "args not cleared");
	CHECK_INT(run.user_calls, 3);

	/* the first arg succeeds, the second fails: still nothing leaks */
	p.args[0] = chain_arg();
	p.args[0].nderef = 2;
	p.args[0].size = 8;
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK(run.r[2] != 0, "r2 = 0 after a failed read");
	CHECK(!run.r[3] && !run.r[4] && !run.r[5], "args not cleared");

	/* and fixed, everything is there */
	put_u64(mem_b, 16, C_ADDR);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[2], 0);
	CHECK_INT(run.r[3], C_ADDR);
	CHECK_INT((int64_t)run.r[4], -5);
	CHECK_INT(run.r[5], 7);
}

/* A user pointer to a kernel object and back: only the right helpers work. */
static void test_val_user_kernel(void)
{
	static uint8_t user[16], kern[16];
	struct pt_regs_fake regs = { 0 };
	struct bp_fetch f = reg_arg(BP_REG_RDI, 8, false);
	struct bp_plan p;
	struct run run;

	put_u64(user, 0, KERN_BASE + 8);
	put_u64(kern, 8, 0x0123456789abcdefULL);
	mem_reset();
	mem_add(true, USER_BASE, user, sizeof(user));
	mem_add(false, KERN_BASE, kern, sizeof(kern));
	set_reg(&regs, BP_REG_RDI, USER_BASE);
	f.nderef = 2;
	f.user_mask = 1;	/* user first, then kernel */
	p = plan1(f);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[2], 0);
	CHECK_INT(run.r[3], 0x0123456789abcdefULL);
	CHECK_INT(run.user_calls, 1);
	CHECK_INT(run.kernel_calls, 1);

	p.args[0].user_mask = 2;	/* the wrong way round */
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK(run.r[2] != 0, "read from the wrong space succeeded");
	CHECK_INT(run.kernel_calls, 1);
	CHECK_INT(run.user_calls, 0);

	p.args[0].user_mask = 3;
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK(run.r[2] != 0, "read from the wrong space succeeded");
}

static void test_val_bitfields(void)
{
	static uint8_t obj[16];
	struct pt_regs_fake regs = { 0 };
	static const struct { uint8_t off, size; } fields[] = {
		{ 0, 1 }, { 5, 3 }, { 0, 8 }, { 4, 12 }, { 1, 31 }, { 0, 32 },
		{ 7, 32 }, { 3, 40 }, { 31, 33 }, { 0, 63 }, { 1, 63 },
		{ 0, 64 }, { 63, 1 }, { 24, 8 },
	};
	struct run run;
	unsigned int i, sz;
	int sgn;

	put_u64(obj, 0, 0xa5c3f00f9669e11eULL);
	put_u64(obj, 8, 0x7f00ff0180fe0102ULL);
	mem_reset();
	mem_add(false, KERN_BASE, obj, sizeof(obj));
	set_reg(&regs, BP_REG_RBX, 0xa5c3f00f9669e11eULL);
	set_reg(&regs, BP_REG_R12, KERN_BASE);

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		for (sgn = 0; sgn < 2; sgn++) {
			/* from a register */
			struct bp_plan p = plan1(reg_arg(BP_REG_RBX, 8, sgn));

			p.args[0].bit_off = fields[i].off;
			p.args[0].bit_size = fields[i].size;
			check_against_ref(&p, &regs, &run);

			/* from memory, through each storage size that holds it */
			for (sz = 1; sz <= 8; sz *= 2) {
				if (fields[i].off + fields[i].size > sz * 8)
					continue;
				p.args[0].base = BP_BASE_REG;
				p.args[0].reg = BP_REG_R12;
				p.args[0].size = sz;
				p.args[0].nderef = 1;
				p.args[0].deref_off[0] = 8;
				check_against_ref(&p, &regs, &run);
			}
		}
	}

	/* one spelled out: bits 5..7 of 0x1e are 0b000, of 0xe1 0b111 */
	{
		struct bp_plan p = plan1(reg_arg(BP_REG_RBX, 1, true));

		set_reg(&regs, BP_REG_RBX, 0xe1);
		p.args[0].bit_off = 5;
		p.args[0].bit_size = 3;
		if (run_plan(&p, &regs, &run))
			CHECK_INT((int64_t)run.r[3], -1);
		p.args[0].is_signed = false;
		if (run_plan(&p, &regs, &run))
			CHECK_INT(run.r[3], 7);
	}
}

static void test_val_constants(void)
{
	struct pt_regs_fake regs = { 0 };
	static const int64_t vals[] = {
		0, 42, -1, 0x7fffffff, 0x80000000LL, 0xffffffffLL,
		0x100000000LL, 0x123456789abcdef0LL, INT64_MIN, -0x80000001LL,
	};
	struct bp_plan p = {
		.nargs = 3,
		.args = { const_arg(0x123456789abcdef0LL, 8, false),
			  const_arg(-1, 4, false),
			  const_arg(0x80, 1, true) },
	};
	struct run run;
	unsigned int i, sz;

	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[3], 0x123456789abcdef0LL);
	CHECK_INT(run.r[4], 0xffffffffLL);
	CHECK_INT((int64_t)run.r[5], -128);

	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		for (sz = 1; sz <= 8; sz *= 2) {
			p = plan1(const_arg(vals[i], sz, i & 1));
			check_against_ref(&p, &regs, &run);
		}
	}

	/* a constant address, dereferenced */
	{
		static uint8_t word[8];

		put_u64(word, 0, 0xfeedfacecafebeefULL);
		mem_reset();
		mem_add(false, KERN_BASE + 0x100, word, sizeof(word));
		p = plan1(const_arg(KERN_BASE + 0xf0, 8, false));
		p.args[0].nderef = 1;
		p.args[0].deref_off[0] = 0x10;
		if (run_plan(&p, &regs, &run))
			CHECK_INT(run.r[3], 0xfeedfacecafebeefULL);
	}
}

/* ------------------------------------------------------------------ */
/* Random plans against the reference model                            */

static struct rng rng = { 0x9e3779b97f4a7c15ULL };

static uint64_t rnd(void)
{
	return rng_next(&rng);
}

static unsigned int rndn(unsigned int n)
{
	return rng_below(&rng, n);
}

static uint8_t rnd_user[256], rnd_kern[256];

static uint64_t rnd_pointer(void)
{
	return (rndn(2) ? USER_BASE : KERN_BASE) + rndn(256 - 8);
}

static void rnd_memory(void)
{
	size_t off;

	for (off = 0; off < 256; off += 8) {
		put_u64(rnd_user, off, rndn(2) ? rnd_pointer() : rnd());
		put_u64(rnd_kern, off, rndn(2) ? rnd_pointer() : rnd());
	}
	mem_reset();
	mem_add(true, USER_BASE, rnd_user, sizeof(rnd_user));
	mem_add(false, KERN_BASE, rnd_kern, sizeof(rnd_kern));
}

static struct bp_fetch rnd_fetch(void)
{
	static const uint8_t sizes[] = { 1, 2, 4, 8 };
	struct bp_fetch f = { 0 };
	int k;

	switch (rndn(7)) {
	case 0:
		f.base = BP_BASE_CONST;
		break;
	case 1:
		f.base = BP_BASE_ADDR;
		f.anchor_kind = rndn(2) ? BP_ANCHOR_FUNC_IP : BP_ANCHOR_IP;
		f.anchor = rndn(2) ? rnd() : rndn(1 << 20);
		break;
	default:
		f.base = BP_BASE_REG;
	}
	f.reg = rndn(BP_REG_MAX);
	switch (rndn(4)) {
	case 0: f.add = 0; break;
	case 1: f.add = (int64_t)rndn(64) - 32; break;
	case 2: f.add = f.base == BP_BASE_CONST ? (int64_t)rnd_pointer()
						: (int64_t)rnd(); break;
	default: f.add = (int64_t)rndn(1 << 20) << 20; break;
	}
	f.nderef = rndn(8) ? rndn(4) : rndn(BP_MAX_DEREFS + 1);
	for (k = 0; k < f.nderef; k++)
		f.deref_off[k] = rndn(4) ? (int)rndn(40) - 8 : (int32_t)rnd();
	f.user_mask = rnd();
	f.size = sizes[rndn(4)];
	f.is_signed = rndn(2);
	if (!rndn(4)) {
		f.bit_size = 1 + rndn(64);
		f.bit_off = rndn(64 - f.bit_size + 1);
	}
	return f;
}

/* How many of insns[0..n) are cpu v4's sign-extending loads and moves. */
static int count_v4(const struct bpf_insn *insns, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += insns[i].code == (BPF_ALU64 | BPF_MOV | BPF_X) ? insns[i].off != 0 :
		     BPF_CLASS(insns[i].code) == BPF_LDX && BPF_MODE(insns[i].code) == BPF_MEMSX;
	return k;
}

static void test_random_plans(void)
{
	struct pt_regs_fake regs;
	struct run run;
	int iter, r, ok = 0, failed = 0, max_n = 0, v4 = 0;

	for (iter = 0; iter < 3000 && !test_cur_failed; iter++) {
		struct bp_plan p = { .nargs = rndn(4) };
		struct bpf_insn tmp[BP_PROLOGUE_MAX_INSNS];
		int i;

		rnd_memory();
		for (r = 0; r < PT_REGS_SIZE / 8; r++)
			regs.w[r] = rndn(3) ? rnd_pointer() : rnd();
		/* a kernel without a function address at uprobes, now and then */
		fake_func_ip = rndn(8) ? rnd() : 0;
		for (i = 0; i < p.nargs; i++)
			p.args[i] = rnd_fetch();

		check_against_ref(&p, &regs, &run);
		if (test_cur_failed) {
			char buf[160];

			for (i = 0; i < p.nargs; i++) {
				bp_fetch__format(&p.args[i], buf, sizeof(buf));
				printf("#  arg%d: %s\n", i, buf);
			}
			break;
		}
		if (run.r[2])
			failed++;
		else
			ok++;
		if (run.n > max_n)
			max_n = run.n;
		/* the exact length is enough room, one less is not */
		CHECK_INT(gen(&p, 0, tmp, run.n), run.n);
		CHECK_INT(gen(&p, 0, tmp, run.n - 1), -E2BIG);
		/* cpu v4 never makes a prologue longer */
		v4 += count_v4(run.insns, run.n) > 0;
		if (cpu_v4) {
			cpu_v4 = false;
			CHECK(run.n <= gen(&p, 0, tmp, ARRAY_SIZE(tmp)), "%d insns with cpu v4, %d without",
			      run.n, gen(&p, 0, tmp, ARRAY_SIZE(tmp)));
			cpu_v4 = true;
		}
	}
	/* both outcomes must have been exercised */
	CHECK(ok > 300 && failed > 300, "ok %d failed %d", ok, failed);
	/* and the sign-extending instructions, where they are allowed */
	CHECK(cpu_v4 ? v4 > 600 : !v4, "%d prologues with cpu v4 instructions", v4);
	if (verbose())
		printf("# random: %d ok, %d failed reads, longest %d insns, %d with cpu v4 instructions\n",
		       ok, failed, max_n, v4);
}

/*
 * Random plans for programs that read random subsets of r1..r5: whatever
 * the program reads is set as the plan says (the checks skip the rest),
 * and the prologue is never longer than the one that sets everything.
 */
static void test_random_plans_unread(void)
{
	struct pt_regs_fake regs;
	struct run run;
	int iter, r, zero = 0;

	for (iter = 0; iter < 2000 && !test_cur_failed; iter++) {
		struct bp_plan p = { .nargs = rndn(4) };
		uint8_t unread;
		int i, all;

		rnd_memory();
		for (r = 0; r < PT_REGS_SIZE / 8; r++)
			regs.w[r] = rndn(3) ? rnd_pointer() : rnd();
		fake_func_ip = rndn(8) ? rnd() : 0;
		for (i = 0; i < p.nargs; i++)
			p.args[i] = rnd_fetch();
		all = gen_count(&p);
		unread = rnd() & BP_UNREAD_ALL;

		check_against_ref_unread(&p, unread, &regs, &run);
		CHECK(run.n <= all, "%d insns, %d when all registers are set", run.n, all);
		if (test_cur_failed) {
			char buf[160];

			printf("#  unread 0x%x\n", unread);
			for (i = 0; i < p.nargs; i++) {
				bp_fetch__format(&p.args[i], buf, sizeof(buf));
				printf("#  arg%d: %s\n", i, buf);
			}
			break;
		}
		zero += !run.n;
	}
	CHECK(zero > 0, "no plan went without a prologue");
}

/* ------------------------------------------------------------------ */
/* Globals: link-time addresses plus the load bias (issue 3)           */

/* A global at link-time 0x4010, probed at link-time 0x1139. */
#define G_LINK		0x4010ULL
#define G_PROBE		0x1139ULL
#define G_RUNTIME	(USER_BASE + 0x40)	/* where it is at run time */

static struct bp_fetch global_arg(enum bp_anchor_kind kind, int size, bool is_signed)
{
	struct bp_fetch f = { .base = BP_BASE_ADDR, .add = G_LINK, .anchor = G_PROBE,
			      .anchor_kind = kind, .nderef = 1, .user_mask = 1,
			      .size = size, .is_signed = is_signed };

	return f;
}

static uint8_t gmem[0x80];

static void setup_global(void)
{
	memset(gmem, 0, sizeof(gmem));
	put_u32(gmem, 0x40, (uint32_t)-1234);
	put_u64(gmem, 0x48, USER_BASE + 0x10);	/* a pointer... */
	put_u32(gmem, 0x14, 77);		/* ...to a struct with 77 at +4 */
	mem_reset();
	mem_add(true, USER_BASE, gmem, sizeof(gmem));
}

/* At a uprobe, pt_regs ip is the probed instruction: bias = ip - G_PROBE. */
static void test_val_global_ip(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_plan p = plan1(global_arg(BP_ANCHOR_IP, 4, true));
	struct run run;

	setup_global();
	set_reg(&regs, BP_REG_RIP, G_PROBE + (G_RUNTIME - G_LINK));
	fake_func_ip = 0;
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[2], 0);
	CHECK_INT((int64_t)run.r[3], -1234);
	CHECK_INT(run.func_ip_calls, 0);
	CHECK_INT(run.user_calls, 1);

	/* a member chain from it: ((struct *)g[1])->second */
	p.args[0].deref_off[0] = 8;
	p.args[0].deref_off[1] = 4;
	p.args[0].nderef = 2;
	p.args[0].user_mask = 3;
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[2], 0);
	CHECK_INT(run.r[3], 77);

	/* non-PIE: no bias at all */
	p = plan1(global_arg(BP_ANCHOR_IP, 4, true));
	p.args[0].add = G_RUNTIME;
	p.args[0].anchor = 0x401139;
	set_reg(&regs, BP_REG_RIP, 0x401139);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT((int64_t)run.r[3], -1234);
}

/* At a uretprobe ip is the return address: the anchor is the function's
 * entry from bpf_get_func_ip(), and a 0 from an old kernel is an error. */
static void test_val_global_func_ip(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_plan p = { .nargs = 3, .args = {
		reg_arg(BP_REG_RAX, 8, true),
		global_arg(BP_ANCHOR_FUNC_IP, 4, true),
		reg_arg(BP_REG_RDI, 8, false) } };
	struct run run;

	setup_global();
	set_reg(&regs, BP_REG_RAX, (uint64_t)-21000);
	set_reg(&regs, BP_REG_RDI, 99);
	set_reg(&regs, BP_REG_RIP, 0xdeadbeef000ULL);	/* the caller's */
	fake_func_ip = G_PROBE + (G_RUNTIME - G_LINK);
	check_against_ref(&p, &regs, &run);
	CHECK_INT(run.r[2], 0);
	CHECK_INT((int64_t)run.r[3], -21000);
	CHECK_INT((int64_t)run.r[4], -1234);
	CHECK_INT(run.r[5], 99);
	CHECK_INT(run.func_ip_calls, 1);

	fake_func_ip = 0;
	check_against_ref(&p, &regs, &run);
	CHECK_INT(run.r[2], 1);
	CHECK_INT(run.r[3], 0);
	CHECK_INT(run.r[4], 0);

	/* the address itself, no read: still a call, still checked */
	p.args[1].nderef = 0;
	p.args[1].size = 8;
	fake_func_ip = G_PROBE + 0x1000;
	check_against_ref(&p, &regs, &run);
	CHECK_INT(run.r[2], 0);
	CHECK_INT(run.r[4], G_LINK + 0x1000);
	CHECK_INT(run.user_calls, 0);
}

static void test_seq_global_ip(void)
{
	struct bp_plan p = plan1(global_arg(BP_ANCHOR_IP, 8, false));
	const struct bpf_insn want[] = {
		MOV_REG(6, 1),
		LDX(BPF_DW, 3, 6, 128),			/* ip */
		ALU_IMM(BPF_ADD, 3, (int32_t)(G_LINK - G_PROBE)),
		MOV_REG(1, 10),
		ALU_IMM(BPF_ADD, 1, -8),
		MOV_IMM(2, 8),
		CALL(BPF_FUNC_probe_read_user),
		JNE_IMM(0, 0, 3),
		LDX(BPF_DW, 3, 10, -8),
		MOV_IMM(2, 0),
		JA(2),
		MOV_IMM(2, 1),
		MOV_IMM(3, 0),
		MOV_IMM(4, 0),
		MOV_IMM(5, 0),
		MOV_REG(1, 6),
	};

	check_seq(&p, want, ARRAY_SIZE(want));
}

/* A struct member held in a register: bits of it (DW_OP_piece, by value). */
static void test_val_register_bits(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_fetch y = reg_arg(BP_REG_RDI, 8, true);
	struct bp_plan p;
	struct run run;

	y.bit_off = 32;
	y.bit_size = 32;
	p = plan1(y);
	set_reg(&regs, BP_REG_RDI, ((uint64_t)(uint32_t)-33 << 32) | 44);
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT((int64_t)run.r[3], -33);
	/* the low half, and a 7-bit signed field at bit 4 */
	p.args[0].bit_off = 0;
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT(run.r[3], 44);
	set_reg(&regs, BP_REG_RDI, (uint64_t)(0x7f & -20) << 4);
	p.args[0].bit_off = 4;
	p.args[0].bit_size = 7;
	if (!run_plan(&p, &regs, &run))
		return;
	CHECK_INT((int64_t)run.r[3], -20);
}

static void test_global_plan_helpers(void)
{
	struct bp_fetch a = global_arg(BP_ANCHOR_IP, 4, true), b = a;

	CHECK(bp_fetch__equal(&a, &b), "same global");
	b.anchor += 4;
	CHECK(!bp_fetch__equal(&a, &b), "another anchor: another instance");
	b = a;
	b.anchor_kind = BP_ANCHOR_FUNC_IP;
	CHECK(!bp_fetch__equal(&a, &b), "another anchor kind");
	/* the anchor means nothing for a register base */
	a = reg_arg(BP_REG_RDI, 8, false);
	b = a;
	b.anchor = 5;
	CHECK(bp_fetch__equal(&a, &b), "anchor of a register fetch");

	a = global_arg(BP_ANCHOR_IP, 4, true);
	CHECK_STR(ffmt(&a), "s32 *(u32 *)(@0x4010) [load bias: ip - 0x1139] [user]");
	a.anchor_kind = BP_ANCHOR_FUNC_IP;
	CHECK_STR(ffmt(&a), "s32 *(u32 *)(@0x4010) [load bias: func_ip - 0x1139] [user]");
}

/* ------------------------------------------------------------------ */
/* The interpreter's cpu v4 instructions                               */

/* Runs insns (EXIT appended) on regs; r3 at the end, or fails. */
static bool run_insns(const struct bpf_insn *insns, int n, bool v4,
		      const struct pt_regs_fake *regs, uint64_t *r3, char *err, size_t len)
{
	struct bpf_insn prog[16];
	struct vm vm = { .ctx = regs, .cpu_v4 = v4 };

	memcpy(prog, insns, n * sizeof(*insns));
	prog[n] = EXIT_INSN;
	vm.r[1] = (struct vreg){ V_CTX, 0 };
	vm.r[10] = (struct vreg){ V_STACK, 0 };
	if (vm_run(&vm, prog, n + 1)) {
		snprintf(err, len, "%s", vm.err);
		return false;
	}
	*r3 = vm.r[3].v;
	return true;
}

/*
 * Sign-extending loads (from ctx and the stack) and moves give the low 8,
 * 16 or 32 bits sign-extended, nothing else; an older kernel's verifier
 * refuses them, and so does the interpreter without cpu v4, as it refuses
 * what no kernel accepts (an 8-byte one, a 32-bit move's off 32, a pointer
 * cut, another ALU op's off).
 */
static void test_interp_sign_extension(void)
{
	static const uint64_t vals[] = {
		0, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000,
		0xffffffff, 0x123456789abcdef0ULL, 0xfedcba9876543210ULL, ~0ULL,
	};
	static const struct { int bits, sz; } w[] = { { 8, BPF_B }, { 16, BPF_H }, { 32, BPF_W } };
	struct pt_regs_fake regs = { 0 };
	char err[200];
	uint64_t r3;

	for (unsigned int i = 0; i < ARRAY_SIZE(vals); i++) {
		set_reg(&regs, BP_REG_RSI, vals[i]);
		for (unsigned int k = 0; k < ARRAY_SIZE(w); k++) {
			uint64_t want = ref_extend(vals[i], w[k].bits, true);
			const struct bpf_insn ctx_load[] = { LDXSX(w[k].sz, 3, 1, 104) };
			const struct bpf_insn stack_load[] = {
				LDX(BPF_DW, 2, 1, 104),
				I(BPF_STX | BPF_DW | BPF_MEM, 10, 2, -8, 0),
				LDXSX(w[k].sz, 3, 10, -8),
			};
			const struct bpf_insn move[] = {
				LDX(BPF_DW, 2, 1, 104),
				MOVSX(3, 2, w[k].bits),
			};
			const struct bpf_insn move32[] = {
				LDX(BPF_DW, 3, 1, 104),
				I(BPF_ALU | BPF_MOV | BPF_X, 3, 3, w[k].bits, 0),
			};

			CHECK(run_insns(ctx_load, 1, true, &regs, &r3, err, sizeof(err)) &&
			      r3 == want, "ctx s%d of 0x%" PRIx64 ": 0x%" PRIx64 " %s",
			      w[k].bits, vals[i], r3, err);
			CHECK(run_insns(stack_load, 3, true, &regs, &r3, err, sizeof(err)) &&
			      r3 == want, "stack s%d of 0x%" PRIx64 ": 0x%" PRIx64 " %s",
			      w[k].bits, vals[i], r3, err);
			CHECK(run_insns(move, 2, true, &regs, &r3, err, sizeof(err)) && r3 == want,
			      "mov s%d of 0x%" PRIx64 ": 0x%" PRIx64 " %s", w[k].bits, vals[i],
			      r3, err);
			if (w[k].bits < 32)
				CHECK(run_insns(move32, 2, true, &regs, &r3, err, sizeof(err)) &&
				      r3 == (uint32_t)want, "w = (s%d)w of 0x%" PRIx64 ": 0x%" PRIx64 " %s",
				      w[k].bits, vals[i], r3, err);
			else
				CHECK(!run_insns(move32, 2, true, &regs, &r3, err, sizeof(err)),
				      "w = (s32)w ran");
			/* refused without cpu v4 */
			CHECK(!run_insns(ctx_load, 1, false, &regs, &r3, err, sizeof(err)) &&
			      strstr(err, "cpu v4"), "ctx load without cpu v4: %s", err);
			CHECK(!run_insns(stack_load, 3, false, &regs, &r3, err, sizeof(err)) &&
			      strstr(err, "cpu v4"), "stack load without cpu v4: %s", err);
			CHECK(!run_insns(move, 2, false, &regs, &r3, err, sizeof(err)) &&
			      strstr(err, "cpu v4"), "move without cpu v4: %s", err);
		}
	}
	{
		const struct bpf_insn dw[] = { LDXSX(BPF_DW, 3, 1, 104) };
		const struct bpf_insn ptr[] = { MOVSX(3, 1, 32) };
		const struct bpf_insn off24[] = { LDX(BPF_DW, 2, 1, 104), MOVSX(3, 2, 24) };
		const struct bpf_insn add_off[] = {
			LDX(BPF_DW, 3, 1, 104), I(BPF_ALU64 | BPF_ADD | BPF_X, 3, 3, 8, 0),
		};
		const struct bpf_insn imm_off[] = { I(BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 8, 1) };

		CHECK(!run_insns(dw, 1, true, &regs, &r3, err, sizeof(err)), "8-byte ldsx ran");
		CHECK(!run_insns(ptr, 1, true, &regs, &r3, err, sizeof(err)), "ctx cut ran");
		CHECK(!run_insns(off24, 2, true, &regs, &r3, err, sizeof(err)), "movsx 24 ran");
		CHECK(!run_insns(add_off, 2, true, &regs, &r3, err, sizeof(err)), "add with off ran");
		CHECK(!run_insns(imm_off, 1, true, &regs, &r3, err, sizeof(err)), "mov imm with off ran");
	}
}

/*
 * Negative values of every width, from registers, the stack and memory,
 * with and without cpu v4: the same values, the v4 form no longer and, in
 * the register shapes, perf's length or less (a load each and r2 = 0).
 */
static void test_val_every_width(void)
{
	static uint8_t word[16];
	static const struct { int size; uint64_t v; int64_t s; } w[] = {
		{ 1, 0x1122334455667780ULL, -128 }, { 2, 0xffffffffffff8001ULL, -32767 },
		{ 4, 0x00000000fffffffeULL, -2 }, { 8, 0x8000000000000000ULL, INT64_MIN },
	};
	struct pt_regs_fake regs = { 0 };
	struct run run;

	for (unsigned int i = 0; i < ARRAY_SIZE(w); i++) {
		struct bp_plan p = {
			.nargs = 3,
			.args = { reg_arg(BP_REG_RDI, w[i].size, true),
				  reg_arg(BP_REG_RSP, w[i].size, true),
				  reg_arg(BP_REG_RSI, w[i].size, false) },
		};
		int n[2];

		put_u64(word, 8, w[i].v);
		mem_reset();
		mem_add(true, USER_BASE, word, sizeof(word));
		set_reg(&regs, BP_REG_RDI, w[i].v);
		set_reg(&regs, BP_REG_RSP, USER_BASE);
		set_reg(&regs, BP_REG_RSI, KERN_BASE);
		/* the stack's argument at rsp + 8 */
		p.args[1].add = 8;
		p.args[1].nderef = 1;
		p.args[1].user_mask = 1;
		/* *(unsigned *)(rsi + 8) in kernel memory */
		p.args[2].add = 8;
		p.args[2].nderef = 1;
		mem_add(false, KERN_BASE, word, sizeof(word));
		for (int v4 = 0; v4 < 2; v4++) {
			cpu_v4 = v4;
			check_against_ref(&p, &regs, &run);
			CHECK_INT((int64_t)run.r[3], w[i].s);
			CHECK_INT((int64_t)run.r[4], w[i].s);
			CHECK_INT(run.r[5], ref_extend(w[i].v, w[i].size * 8, false));
			n[v4] = run.n;
		}
		cpu_v4 = false;
		CHECK(n[1] <= n[0], "size %d: %d insns with cpu v4, %d without", w[i].size, n[1], n[0]);
		/* a register alone: its load and r2 = 0 with cpu v4 */
		p.nargs = 1;
		cpu_v4 = true;
		CHECK_INT(gen_count_unread(&p, 0x32), 2);
		cpu_v4 = false;
		CHECK_INT(gen_count_unread(&p, 0x32), w[i].size == 8 ? 2 : 4);
	}
}

int main(void)
{
	RUN(test_interp_sign_extension);
	RUN(test_preamble);
	RUN(test_seq_ctx_args);
	RUN_BOTH(test_val_ctx_deref);
	RUN(test_seq_reg_widths);
	RUN(test_seq_three_regs);
	RUN(test_seq_reg_add_and_bits);
	RUN(test_seq_one_deref);
	RUN(test_seq_stack_slot);
	RUN(test_seq_only_what_the_program_reads);
	RUN(test_seq_body_liveness);
	RUN(test_seq_slow_body_liveness);
	RUN(test_insn_counts);
	RUN(test_worst_case_fits);
	RUN(test_bad_plans);
	RUN(test_no_overrun);
	RUN(test_insn_format);
	RUN(test_generated_code_formats);
	RUN(test_pt_regs_off);
	RUN(test_fetch_format);
	RUN(test_plan_equal);
	RUN_BOTH(test_val_negative_int);
	RUN_BOTH(test_val_unsigned_zero_extended);
	RUN_BOTH(test_val_unused_args_zero);
	RUN(test_val_every_width);
	RUN_BOTH(test_val_deref_chain);
	RUN_BOTH(test_val_mixed_args);
	RUN_BOTH(test_val_stack_arg);
	RUN_BOTH(test_val_failed_read);
	RUN_BOTH(test_val_user_kernel);
	RUN_BOTH(test_val_bitfields);
	RUN_BOTH(test_val_constants);
	RUN_BOTH(test_val_global_ip);
	RUN_BOTH(test_val_global_func_ip);
	RUN(test_seq_global_ip);
	RUN_BOTH(test_val_register_bits);
	RUN(test_global_plan_helpers);
	RUN_BOTH(test_random_plans);
	RUN_BOTH(test_random_plans_unread);
	return TEST_EXIT();
}
