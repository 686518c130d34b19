// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Fetch expression tests (prologue/expr.h, expr_gen.c, entry_save.c).
 *
 * Random expressions are compiled into prologues, run in the strict BPF
 * interpreter (bpf_interp.h) against fake registers, memory, task and
 * entry-value map, and compared with a plain C evaluation of the same
 * expression (fetch_model.h). The checks of malformed expressions, the
 * companion program that saves entry values, and the shapes the resolver
 * emits (thread-locals, entry values) are tested one by one. The random
 * expressions run with cpu v4's sign-extending instructions and without
 * (RUN_BOTH), where the interpreter refuses them.
 *
 * BP_TEST_VERBOSE=1 prints the listings.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "prologue/arch.h"
#include "prologue/arch_x86_64.h"
#include "prologue/entry_save.h"
#include "prologue/expr.h"
#include "prologue/plan.h"
#include "prologue/prologue.h"
#include "tests/unit/bpf_interp.h"
#include "tests/unit/fetch_model.h"
#include "tests/unit/insn.h"
#include "tests/unit/rng.h"
#include "tests/unit/test.h"

#define ENTRY_FD	7
#define PID_TGID	0x0000123400001235ULL

static bool verbose(void)
{
	return vm_verbose();
}

/* The form under test: with cpu v4's sign-extending instructions or not. */
static bool cpu_v4;

#define RUN_BOTH(fn)	RUN_TWICE(fn, cpu_v4, "_cpu_v4")

static void dump_prog(const struct bpf_insn *insns, int n)
{
	vm_dump(insns, n);
}

/* --- building expressions ------------------------------------------------ */

static void op(struct bp_fetch *f, int o, int reg, int size, int flags, int64_t imm)
{
	CHECK(bp_expr__push(&f->expr, o, reg, size, flags, imm), "expression full");
}

static struct bp_fetch expr_fetch(int size, bool is_signed)
{
	return (struct bp_fetch){ .base = BP_BASE_EXPR, .size = size, .is_signed = is_signed };
}

/* --- running ------------------------------------------------------------- */

struct run {
	int n;
	uint64_t r[6];
	struct bpf_insn insns[BP_PROLOGUE_MAX_INSNS + 1];
};

static bool run_plan(const struct bp_plan *plan, const struct pt_regs_fake *regs,
		     struct run *out)
{
	struct bp_prologue_opts opts = { .entry_map_fd = ENTRY_FD, .cpu_v4 = cpu_v4 };
	struct vm vm = { .ctx = regs, .pid_tgid = PID_TGID, .count_fd = -1,
			 .cpu_v4 = cpu_v4 };
	int i;

	memset(out, 0, sizeof(*out));
	out->n = bp_prologue__gen_opts(plan, 0, &opts, out->insns, BP_PROLOGUE_MAX_INSNS);
	CHECK(out->n > 0, "gen failed: %d", out->n);
	if (out->n <= 0)
		return false;
	out->insns[out->n] = EXIT_INSN;
	i = vm_first_unreachable(out->insns, out->n + 1);
	CHECK(i < 0, "insn %d is unreachable (the verifier refuses that)", i);
	vm.r[1] = (struct vreg){ V_CTX, 0 };
	vm.r[10] = (struct vreg){ V_STACK, 0 };
	if (vm_run(&vm, out->insns, out->n + 1) == 0) {
		for (i = 2; i <= 5; i++)
			if (vm.r[i].kind != V_SCALAR)
				vm_fail(&vm, out->n, "r%d not a scalar at the end", i);
		if (vm.r[1].kind != V_CTX || vm.r[1].v)
			vm_fail(&vm, out->n, "r1 is not ctx at the end");
	}
	CHECK(!vm.err[0], "%s", vm.err);
	if (vm.err[0] || verbose())
		dump_prog(out->insns, out->n);
	for (i = 0; i < 6; i++)
		out->r[i] = vm.r[i].v;
	return !vm.err[0];
}

static void print_plan(const struct bp_plan *p)
{
	char buf[1024];

	for (int i = 0; i < p->nargs; i++) {
		bp_fetch__format(&p->args[i], buf, sizeof(buf));
		printf("#  arg%d: %s\n", i, buf);
	}
}

/* Runs plan and compares r2..r5 with the model; returns r2 (0: fetched). */
static int check_plan(const struct bp_plan *plan, const struct pt_regs_fake *regs)
{
	struct model_env env = { .regs = regs, .pid_tgid = PID_TGID };
	struct run run;
	uint64_t want[6];
	int i;

	if (!run_plan(plan, regs, &run)) {
		print_plan(plan);
		return -1;
	}
	ref_plan(plan, &env, want);
	CHECK(!!run.r[2] == !!want[2], "r2 = %" PRIu64 ", want %" PRIu64, run.r[2], want[2]);
	for (i = 3; i < 3 + plan->nargs; i++)
		CHECK(run.r[i] == want[i], "r%d = 0x%" PRIx64 ", want 0x%" PRIx64, i,
		      run.r[i], want[i]);
	if (test_cur_failed)
		print_plan(plan);
	return (int)!!run.r[2];
}

/* --- checking ------------------------------------------------------------ */

static void test_check(void)
{
	struct bp_fetch f = expr_fetch(8, false);
	int bad;

	/* empty */
	CHECK_INT(bp_expr__check(&f.expr, &bad), -EINVAL);
	op(&f, BP_XOP_REG, BP_REG_RBX, 0, 0, 0);
	CHECK_INT(bp_expr__check(&f.expr, &bad), 0);
	/* two values left */
	op(&f, BP_XOP_CONST, 0, 0, 0, 3);
	CHECK_INT(bp_expr__check(&f.expr, &bad), -EINVAL);
	CHECK_INT(bad, 2);
	op(&f, BP_XOP_SHL, 0, 0, 0, 0);
	CHECK_INT(bp_expr__check(&f.expr, &bad), 0);
	/* underflow */
	op(&f, BP_XOP_ADD, 0, 0, 0, 0);
	CHECK_INT(bp_expr__check(&f.expr, &bad), -EINVAL);
	CHECK_INT(bad, 3);

	/* too deep */
	f = expr_fetch(8, false);
	for (int i = 0; i <= BP_EXPR_MAX_DEPTH; i++)
		op(&f, BP_XOP_CONST, 0, 0, 0, i);
	CHECK_INT(bp_expr__check(&f.expr, &bad), -EINVAL);
	CHECK_INT(bad, BP_EXPR_MAX_DEPTH);

	/* bad operands: a register pt_regs lacks, a 3-byte read */
	f = expr_fetch(8, false);
	op(&f, BP_XOP_REG, BP_REG_XMM0, 0, 0, 0);
	CHECK_INT(bp_expr__check(&f.expr, &bad), -EINVAL);
	f = expr_fetch(8, false);
	op(&f, BP_XOP_REG, BP_REG_RDI, 0, 0, 0);
	op(&f, BP_XOP_DEREF, 0, 3, BP_XF_USER, 0);
	CHECK_INT(bp_expr__check(&f.expr, &bad), -EINVAL);

	/* branches: forward, inside, meeting with equal depths */
	f = expr_fetch(8, false);
	op(&f, BP_XOP_REG, BP_REG_RDI, 0, 0, 0);
	op(&f, BP_XOP_DUP, 0, 0, 0, 0);
	op(&f, BP_XOP_BRA, 0, 0, 0, 1);
	op(&f, BP_XOP_NEG, 0, 0, 0, 0);
	CHECK_INT(bp_expr__check(&f.expr, &bad), 0);
	f.expr.ops[2].imm = 2;		/* past the end */
	CHECK_INT(bp_expr__check(&f.expr, &bad), -EINVAL);
	f.expr.ops[2].imm = 1;
	f.expr.ops[3].op = BP_XOP_DUP;	/* depths 1 and 2 meet at the end */
	CHECK_INT(bp_expr__check(&f.expr, &bad), -EINVAL);
	f.expr.ops[2].op = BP_XOP_SKIP;	/* the skipped op does not count */
	f.expr.ops[2].imm = 1;
	op(&f, BP_XOP_DROP, 0, 0, 0, 0);
	CHECK_INT(bp_expr__check(&f.expr, &bad), 0);
	f.expr.nops--;
	CHECK_INT(bp_expr__check(&f.expr, &bad), -EINVAL);
	f.expr.ops[1].op = BP_XOP_NOT;
	CHECK_INT(bp_expr__check(&f.expr, &bad), 0);
	f.expr.ops[2].imm = -1;		/* backwards */
	CHECK_INT(bp_expr__check(&f.expr, &bad), -EINVAL);

	/* a malformed expression makes a malformed plan */
	{
		struct bp_plan p = { .nargs = 1, .args = { expr_fetch(8, false) } };
		struct bpf_insn insns[BP_PROLOGUE_MAX_INSNS];

		CHECK_INT(bp_prologue__gen(&p, 0, insns, ARRAY_SIZE(insns)), -EINVAL);
	}
}

static void test_format(void)
{
	struct bp_fetch f = expr_fetch(4, true);
	char buf[256];

	op(&f, BP_XOP_REG, BP_REG_RBX, 0, 0, 0);
	op(&f, BP_XOP_PLUS_CONST, 0, 0, 0, 16);
	op(&f, BP_XOP_DEREF, 0, 8, BP_XF_USER, 0);
	op(&f, BP_XOP_CONST, 0, 0, 0, 3);
	op(&f, BP_XOP_SHL, 0, 0, 0, 0);
	op(&f, BP_XOP_EXT, 0, 4, BP_XF_SIGNED, 0);
	bp_expr__format(&f.expr, buf, sizeof(buf));
	CHECK_STR(buf, "%rbx 16 + *u64 3 << sext32");
	bp_fetch__format(&f, buf, sizeof(buf));
	CHECK_STR(buf, "s32 [%rbx 16 + *u64 3 << sext32]");

	/* immediate operands: a register plus, a read at plus, op with */
	f = expr_fetch(8, false);
	op(&f, BP_XOP_REG, BP_REG_RBX, 0, 0, 16);
	op(&f, BP_XOP_DEREF, 0, 4, BP_XF_USER, -8);
	op(&f, BP_XOP_LT, 0, 0, BP_XF_IMM | BP_XF_SIGNED, 3);
	bp_expr__format(&f.expr, buf, sizeof(buf));
	CHECK_STR(buf, "%rbx 16 + -8 + *u32 3 s<");

	f = expr_fetch(8, false);
	f.anchor = 0x1139;
	op(&f, BP_XOP_ADDR, 0, 0, 0, 0x4010);
	op(&f, BP_XOP_REG, BP_REG_RSP, 0, 0, 0);
	op(&f, BP_XOP_ENTRY_REG, BP_REG_RDI, 0, 0, 0x1120);
	op(&f, BP_XOP_DIV, 0, 0, BP_XF_SIGNED, 0);
	bp_fetch__format(&f, buf, sizeof(buf));
	CHECK_STR(buf, "u64 [@0x4010 %rsp entry(%rdi@0x1120) s/] [load bias: ip - 0x1139]");
}

/* --- one by one ---------------------------------------------------------- */

static uint8_t umem[256], kmem[256];

static void setup_memory(void)
{
	memset(umem, 0, sizeof(umem));
	memset(kmem, 0, sizeof(kmem));
	mem_reset();
	mem_add(true, USER_BASE, umem, sizeof(umem));
	mem_add(false, KERN_BASE, kmem, sizeof(kmem));
}

/* DW_OP_breg3 16; DW_OP_deref; DW_OP_plus_uconst 1; DW_OP_stack_value */
static void test_add_after_read(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_plan p = { .nargs = 1, .args = { expr_fetch(4, true) } };
	struct bp_fetch *f = &p.args[0];

	setup_memory();
	put_u64(umem, 16, 41);
	set_reg(&regs, BP_REG_RBX, USER_BASE);
	op(f, BP_XOP_REG, BP_REG_RBX, 0, 0, 0);
	op(f, BP_XOP_PLUS_CONST, 0, 0, 0, 16);
	op(f, BP_XOP_DEREF, 0, 8, BP_XF_USER, 0);
	op(f, BP_XOP_PLUS_CONST, 0, 0, 0, 1);
	CHECK_INT(check_plan(&p, &regs), 0);

	/* the same address in kernel memory does not hold it: err */
	f->expr.ops[2].flags = 0;
	CHECK_INT(check_plan(&p, &regs), 1);
}

/* DW_OP_breg0 0; DW_OP_breg1 0; DW_OP_plus; DW_OP_lit3; DW_OP_shl, with
 * the other shapes around it: each argument lands in its register */
static void test_three_args(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_plan p = { .nargs = 3 };
	struct bp_fetch *f = &p.args[1];

	setup_memory();
	put_u64(umem, 8, 0xfffffffffffffff0ULL);
	set_reg(&regs, BP_REG_RAX, 5);
	set_reg(&regs, BP_REG_RDX, 7);
	set_reg(&regs, BP_REG_RDI, USER_BASE);
	p.args[0] = (struct bp_fetch){ .base = BP_BASE_REG, .reg = BP_REG_RDI, .nderef = 1,
				       .deref_off = { 8 }, .user_mask = 1, .size = 8,
				       .is_signed = true };
	*f = expr_fetch(8, false);
	op(f, BP_XOP_REG, BP_REG_RAX, 0, 0, 0);
	op(f, BP_XOP_REG, BP_REG_RDX, 0, 0, 0);
	op(f, BP_XOP_ADD, 0, 0, 0, 0);
	op(f, BP_XOP_CONST, 0, 0, 0, 3);
	op(f, BP_XOP_SHL, 0, 0, 0, 0);
	p.args[2] = (struct bp_fetch){ .base = BP_BASE_REG, .reg = BP_REG_RDX, .size = 4 };
	CHECK_INT(check_plan(&p, &regs), 0);
}

/*
 * A thread-local of a shared library whose module id is in its GOT (what
 * the resolver emits for DW_OP_form_tls_address): the task's fs base, the
 * DTV behind it, the module's block, plus the variable's offset.
 */
#define TASK_ADDR	(KERN_BASE + 0x40)
#define TP_OFF		0x28	/* task + TP_OFF holds the fs base */

static void test_tls_shape(void)
{
	struct pt_regs_fake regs = { 0 };
	struct bp_plan p = { .nargs = 1, .args = { expr_fetch(4, true) } };
	struct bp_fetch *f = &p.args[0];
	uint64_t tp = USER_BASE + 0x80, dtv = USER_BASE + 0x20, block = USER_BASE + 0xc0;

	setup_memory();
	fake_task = TASK_ADDR;
	put_u64(kmem, 0x40 + TP_OFF, tp);
	put_u64(umem, 0x88, dtv);		/* tp + 8: the DTV */
	put_u64(umem, 0x20 + 16 * 2, block);	/* dtv[2]: module 2's block */
	put_u64(umem, 0x10, 2);			/* the GOT slot: module id 2 */
	put_u32(umem, 0xc0 + 12, (uint32_t)-7);	/* the variable, at +12 */
	/* the GOT slot at link time 0x3010, probed at 0x1139: loaded at
	 * USER_BASE + 0x10 - 0x3010 */
	set_reg(&regs, BP_REG_RIP, USER_BASE + 0x10 - 0x3010 + 0x1139);
	f->anchor = 0x1139;
	op(f, BP_XOP_CONST, 0, 0, 0, 12);
	op(f, BP_XOP_TASK, 0, 0, 0, 0);
	op(f, BP_XOP_PLUS_CONST, 0, 0, 0, TP_OFF);
	op(f, BP_XOP_DEREF, 0, 8, 0, 0);
	op(f, BP_XOP_PLUS_CONST, 0, 0, 0, 8);
	op(f, BP_XOP_DEREF, 0, 8, BP_XF_USER, 0);
	op(f, BP_XOP_ADDR, 0, 0, 0, 0x3010);
	op(f, BP_XOP_DEREF, 0, 8, BP_XF_USER, 0);
	op(f, BP_XOP_CONST, 0, 0, 0, 16);
	op(f, BP_XOP_MUL, 0, 0, 0, 0);
	op(f, BP_XOP_ADD, 0, 0, 0, 0);
	op(f, BP_XOP_DEREF, 0, 8, BP_XF_USER, 0);
	op(f, BP_XOP_ADD, 0, 0, 0, 0);
	f->nderef = 1;
	f->user_mask = 1;
	CHECK_INT(check_plan(&p, &regs), 0);
	{
		struct model_env env = { .regs = &regs };
		uint64_t v = 0;

		CHECK(ref_fetch(f, &env, &v) && v == (uint64_t)-7, "model: 0x%" PRIx64, v);
	}
}

/* --- narrow values ----------------------------------------------------------- */

/* The prologue of plan in the form v4, which must be want. */
static void check_seq_form(bool v4, const struct bp_plan *plan,
			   const struct bpf_insn *want, int nwant)
{
	struct bp_prologue_opts opts = { .entry_map_fd = ENTRY_FD, .cpu_v4 = v4 };
	struct bpf_insn got[BP_PROLOGUE_MAX_INSNS];
	char why[256];
	int n = bp_prologue__gen_opts(plan, 0x32, &opts, got, ARRAY_SIZE(got));

	CHECK(vm_same_insns(got, n, want, nwant, why, sizeof(why)), "%s: %s",
	      v4 ? "cpu v4" : "older", why);
	if (test_cur_failed || verbose())
		dump_prog(got, n > 0 ? n : 0);
}

#define LDX(SZ, D, S, OFF)	I(BPF_LDX | (SZ) | BPF_MEM, D, S, OFF, 0)
#define STX(SZ, D, S, OFF)	I(BPF_STX | (SZ) | BPF_MEM, D, S, OFF, 0)
#define ST(SZ, D, OFF, IMM)	I(BPF_ST | (SZ) | BPF_MEM, D, 0, OFF, IMM)
#define ALU(OP, D, IMM)		I(BPF_ALU64 | (OP) | BPF_K, D, 0, 0, IMM)
#define JNE(D, IMM, OFF)	I(BPF_JMP | BPF_JNE | BPF_K, D, 0, OFF, IMM)

/*
 * A narrow value read from memory and cut (DEREF, EXT: what the resolver
 * writes for it): the kept low bytes of the slot the read filled, loaded
 * zero- or sign-extending; a cut no narrower than an unsigned read costs
 * nothing; a sign-extending cut alone is one move with cpu v4; and the
 * expression's value is loaded from its slot as the fetch keeps it.
 * Expression slots start at r10-24.
 */
static void test_seq_narrow(void)
{
	struct bp_plan p = { .nargs = 1, .args = { expr_fetch(4, true) } };
	struct bp_fetch *f = &p.args[0];
#define READ(SIZE)								\
		MOV_REG(6, 1),							\
		LDX(BPF_DW, 0, 6, 112),		/* rdi */			\
		STX(BPF_DW, 10, 0, -24),					\
		LDX(BPF_DW, 3, 10, -24),					\
		MOV_REG(1, 10),							\
		ALU(BPF_ADD, 1, -24),						\
		MOV_IMM(2, SIZE),						\
		CALL(BPF_FUNC_probe_read_user),					\
		JNE(0, 0, 0)
	/* *(u64 *)rdi cut to s32: a sign-extending load of the slot; the
	 * fetch's own s32 then loads the slot as it is */
	const struct bpf_insn v4[] = {
		READ(8),
		LDXSX(BPF_W, 0, 10, -24),
		STX(BPF_DW, 10, 0, -24),
		LDXSX(BPF_W, 3, 10, -24),
		OK_THEN_ERR_R3,
	};
	const struct bpf_insn old[] = {
		READ(8),
		LDX(BPF_DW, 0, 10, -24),
		ALU(BPF_LSH, 0, 32),
		ALU(BPF_ARSH, 0, 32),
		STX(BPF_DW, 10, 0, -24),
		LDX(BPF_DW, 3, 10, -24),
		ALU(BPF_LSH, 3, 32),
		ALU(BPF_ARSH, 3, 32),
		OK_THEN_ERR_R3,
	};
	/* *(u16 *)rdi cut to u16, a u64 fetch: the read's zero-extension is
	 * the cut; cut to u8, a load of the slot's low byte, no zero fill */
	const struct bpf_insn u16[] = {
		MOV_REG(6, 1),
		LDX(BPF_DW, 0, 6, 112),
		STX(BPF_DW, 10, 0, -24),
		LDX(BPF_DW, 3, 10, -24),
		ST(BPF_DW, 10, -24, 0),
		MOV_REG(1, 10),
		ALU(BPF_ADD, 1, -24),
		MOV_IMM(2, 2),
		CALL(BPF_FUNC_probe_read_user),
		JNE(0, 0, 0),
		LDX(BPF_DW, 3, 10, -24),
		OK_THEN_ERR_R3,
	};
	const struct bpf_insn u8[] = {
		READ(2),
		LDX(BPF_B, 0, 10, -24),
		STX(BPF_DW, 10, 0, -24),
		LDX(BPF_DW, 3, 10, -24),
		OK_THEN_ERR_R3,
	};
	/* %rdi + 1 cut to s16 (no read): one move with cpu v4 */
	const struct bpf_insn sum_v4[] = {
		MOV_REG(6, 1),
		LDX(BPF_DW, 0, 6, 112),
		ALU(BPF_ADD, 0, 1),
		STX(BPF_DW, 10, 0, -24),
		LDX(BPF_DW, 0, 10, -24),
		MOVSX(0, 0, 16),
		STX(BPF_DW, 10, 0, -24),
		LDX(BPF_DW, 3, 10, -24),
		MOV_IMM(2, 0),
	};
	struct bpf_insn fixed[ARRAY_SIZE(old)];
#undef READ

	op(f, BP_XOP_REG, BP_REG_RDI, 0, 0, 0);
	op(f, BP_XOP_DEREF, 0, 8, BP_XF_USER, 0);
	op(f, BP_XOP_EXT, 0, 4, BP_XF_SIGNED, 0);
	/* the jumps to the error block: past what follows them */
	memcpy(fixed, v4, sizeof(v4));
	fixed[8].off = 5;
	check_seq_form(true, &p, fixed, ARRAY_SIZE(v4));
	memcpy(fixed, old, sizeof(old));
	fixed[8].off = 9;
	check_seq_form(false, &p, fixed, ARRAY_SIZE(old));

	*f = expr_fetch(8, false);
	op(f, BP_XOP_REG, BP_REG_RDI, 0, 0, 0);
	op(f, BP_XOP_DEREF, 0, 2, BP_XF_USER, 0);
	op(f, BP_XOP_EXT, 0, 2, 0, 0);
	memcpy(fixed, u16, sizeof(u16));
	fixed[9].off = 3;
	check_seq_form(true, &p, fixed, ARRAY_SIZE(u16));
	check_seq_form(false, &p, fixed, ARRAY_SIZE(u16));
	f->expr.ops[2].size = 4;	/* a wider cut: nothing either */
	check_seq_form(false, &p, fixed, ARRAY_SIZE(u16));
	f->expr.ops[2].size = 1;
	memcpy(fixed, u8, sizeof(u8));
	fixed[8].off = 5;
	check_seq_form(false, &p, fixed, ARRAY_SIZE(u8));

	*f = expr_fetch(8, false);
	op(f, BP_XOP_REG, BP_REG_RDI, 0, 0, 1);
	op(f, BP_XOP_EXT, 0, 2, BP_XF_SIGNED, 0);
	check_seq_form(true, &p, sum_v4, ARRAY_SIZE(sum_v4));
}

/* --- entry values --------------------------------------------------------- */

#define ENTRY_LINK	0x1120ULL	/* the function's link-time entry */
#define POINT_LINK	0x1150ULL	/* the probe point, later in it */
#define BIAS		0x555555554000ULL

/* Runs the companion program at the entry: regs as they are there. */
static void run_entry_save(const struct pt_regs_fake *regs)
{
	struct bpf_insn insns[BP_ENTRY_SAVE_MAX_INSNS];
	struct vm vm = { .ctx = regs, .pid_tgid = PID_TGID, .count_fd = -1,
			 .allow_exit = true };
	int n = bp_entry_save__gen(ENTRY_FD, insns, ARRAY_SIZE(insns));

	CHECK(n > 0, "gen: %d", n);
	if (n <= 0)
		return;
	vm.r[1] = (struct vreg){ V_CTX, 0 };
	vm.r[10] = (struct vreg){ V_STACK, 0 };
	vm_run(&vm, insns, n);
	CHECK(!vm.err[0] && vm.exited && vm.exit_pc == n - 1 && vm.exit_r0 == 0, "%s", vm.err);
	if (vm.err[0] || verbose())
		dump_prog(insns, n);
	CHECK_INT(bp_entry_save__gen(ENTRY_FD, insns, n - 1), -E2BIG);
}

static void reset_entries(void)
{
	fake_entry_fd = ENTRY_FD;
	fake_entry_value_size = bp_entry__value_size();
	nfake_entries = 0;
}

/* rdi's entry value at a later point whose CFA is rsp + 24 */
static struct bp_plan entry_plan(void)
{
	struct bp_plan p = { .nargs = 1, .args = { expr_fetch(4, true) } };
	struct bp_fetch *f = &p.args[0];

	f->anchor = POINT_LINK;
	op(f, BP_XOP_REG, BP_REG_RSP, 0, 0, 0);
	op(f, BP_XOP_PLUS_CONST, 0, 0, 0, 24);
	op(f, BP_XOP_ENTRY_REG, BP_REG_RDI, 0, 0, ENTRY_LINK);
	return p;
}

static void test_entry_values(void)
{
	struct pt_regs_fake at_entry = { 0 }, later = { 0 };
	struct bp_plan p = entry_plan();
	struct run run;

	reset_entries();
	CHECK(bp_entry__value_size() <= FAKE_ENTRY_VALUE_MAX, "value size %zu",
	      bp_entry__value_size());
	set_reg(&at_entry, BP_REG_RIP, BIAS + ENTRY_LINK);
	set_reg(&at_entry, BP_REG_RSP, 0x7ffc0000ff08ULL);	/* CFA ff10 */
	set_reg(&at_entry, BP_REG_RDI, (uint64_t)-12345);
	set_reg(&at_entry, BP_REG_RBX, 77);
	run_entry_save(&at_entry);
	CHECK_INT(nfake_entries, 1);
	CHECK(fake_entries[0].pid_tgid == PID_TGID && fake_entries[0].cfa == 0x7ffc0000ff10ULL,
	      "key %" PRIx64 " %" PRIx64, fake_entries[0].pid_tgid, fake_entries[0].cfa);

	/* later in the same call: rdi was reused, the CFA is rsp + 24 */
	set_reg(&later, BP_REG_RIP, BIAS + POINT_LINK);
	set_reg(&later, BP_REG_RSP, 0x7ffc0000fef8ULL);
	set_reg(&later, BP_REG_RDI, 999);
	CHECK_INT(check_plan(&p, &later), 0);
	if (run_plan(&p, &later, &run))
		CHECK(run.r[3] == (uint64_t)-12345, "r3 = %" PRId64, (int64_t)run.r[3]);

	/* another activation (another CFA), never entered while attached */
	set_reg(&later, BP_REG_RSP, 0x7ffc0000fe00ULL);
	CHECK_INT(check_plan(&p, &later), 1);

	/* the saved entry belongs to another function at that CFA */
	set_reg(&later, BP_REG_RSP, 0x7ffc0000fef8ULL);
	p.args[0].expr.ops[2].imm = ENTRY_LINK + 0x40;
	CHECK_INT(check_plan(&p, &later), 1);

	/* another thread */
	p = entry_plan();
	fake_entries[0].pid_tgid++;
	CHECK_INT(check_plan(&p, &later), 1);
	fake_entry_fd = 0;
}

static void test_entry_bad(void)
{
	struct bp_plan p = entry_plan();
	struct bpf_insn insns[BP_PROLOGUE_MAX_INSNS];
	struct bp_prologue_opts opts = { .entry_map_fd = ENTRY_FD };

	/* no map to read from */
	CHECK_INT(bp_prologue__gen(&p, 0, insns, ARRAY_SIZE(insns)), -EINVAL);
	/* no entry values at a return probe */
	p.args[0].anchor_kind = BP_ANCHOR_FUNC_IP;
	CHECK_INT(bp_prologue__gen_opts(&p, 0, &opts, insns, ARRAY_SIZE(insns)), -EINVAL);
	CHECK(bp_plan__needs_entry_values(&p), "needs entry values");
	p.args[0].expr.ops[2].op = BP_XOP_DEREF;
	p.args[0].expr.ops[2].size = 8;
	CHECK(!bp_plan__needs_entry_values(&p), "no entry values");
}

/* --- random expressions against the model ---------------------------------- */

static struct rng rng = { 0x243f6a8885a308d3ULL };

static uint64_t rnd(void)
{
	return rng_next(&rng);
}

static unsigned int rndn(unsigned int n)
{
	return rng_below(&rng, n);
}

static uint64_t rnd_pointer(void)
{
	return (rndn(2) ? USER_BASE : KERN_BASE) + (rndn(256 - 8) & ~7ULL);
}

/* numbers that make arithmetic interesting: small, signs, edges, pointers */
static int64_t rnd_number(void)
{
	static const int64_t edges[] = { 0, 1, -1, 63, 64, 65, INT64_MIN, INT64_MAX, 255, -256 };

	switch (rndn(5)) {
	case 0: return edges[rndn(ARRAY_SIZE(edges))];
	case 1: return (int64_t)rndn(32) - 8;
	case 2: return (int64_t)rnd_pointer();
	case 3: return (int64_t)rndn(1u << 31) << rndn(33);
	default: return (int64_t)rnd();
	}
}

static void rnd_memory(void)
{
	for (size_t off = 0; off < 256; off += 8) {
		put_u64(umem, off, rndn(2) ? rnd_pointer() : (uint64_t)rnd_number());
		put_u64(kmem, off, rndn(2) ? rnd_pointer() : (uint64_t)rnd_number());
	}
	mem_reset();
	mem_add(true, USER_BASE, umem, sizeof(umem));
	mem_add(false, KERN_BASE, kmem, sizeof(kmem));
}

static const uint8_t binops[] = {
	BP_XOP_ADD, BP_XOP_SUB, BP_XOP_MUL, BP_XOP_DIV, BP_XOP_MOD, BP_XOP_AND,
	BP_XOP_OR, BP_XOP_XOR, BP_XOP_SHL, BP_XOP_SHR, BP_XOP_SHRA, BP_XOP_EQ,
	BP_XOP_NE, BP_XOP_LT, BP_XOP_LE, BP_XOP_GT, BP_XOP_GE,
};

static const uint8_t regs_used[] = {
	BP_REG_RAX, BP_REG_RDX, BP_REG_RCX, BP_REG_RBX, BP_REG_RSI, BP_REG_RDI,
	BP_REG_RBP, BP_REG_RSP, BP_REG_R8, BP_REG_R15, BP_REG_RIP,
};

/* An op that leaves the depth as it is (what a branch may skip). */
static void rnd_neutral(struct bp_fetch *f, int depth)
{
	switch (rndn(depth >= 2 ? 5 : 4)) {
	case 0: op(f, BP_XOP_NEG, 0, 0, 0, 0); break;
	case 1: op(f, BP_XOP_NOT, 0, 0, 0, 0); break;
	case 2: op(f, BP_XOP_PLUS_CONST, 0, 0, 0, rnd_number()); break;
	case 3: op(f, BP_XOP_EXT, 0, 1 + rndn(7), rndn(2) ? BP_XF_SIGNED : 0, 0); break;
	default: op(f, BP_XOP_SWAP, 0, 0, 0, 0); break;
	}
}

/* A random well-formed expression of about len ops. */
static void rnd_expr(struct bp_fetch *f, int len)
{
	static const uint8_t sizes[] = { 1, 2, 4, 8 };
	int d = 0;

	while (f->expr.nops < len || d != 1) {
		int room = BP_EXPR_MAX_OPS - f->expr.nops;
		unsigned int k = rndn(20);

		if (room <= d + 1) {
			/* finish: fold what is left */
			op(f, d ? BP_XOP_ADD : BP_XOP_CONST, 0, 0, 0, 1);
			d = d ? d - 1 : 1;
			continue;
		}
		if ((d == 0 || k < 6) && d < BP_EXPR_MAX_DEPTH && room > d + 4 && !rndn(4)) {
			/* what the resolver emits: a register's entry value at
			 * the CFA (rsp + 16 here), or a read at reg + offset */
			op(f, BP_XOP_REG, rndn(2) ? BP_REG_RSP : regs_used[rndn(ARRAY_SIZE(regs_used))],
			   0, 0, 0);
			op(f, BP_XOP_PLUS_CONST, 0, 0, 0, rndn(4) ? 16 : rndn(32));
			if (rndn(2))
				op(f, BP_XOP_ENTRY_REG, regs_used[rndn(ARRAY_SIZE(regs_used) - 1)], 0, 0,
				   rndn(4) ? (int64_t)ENTRY_LINK : (int64_t)rnd());
			else
				op(f, BP_XOP_DEREF, 0, sizes[rndn(4)], rndn(2) ? BP_XF_USER : 0, 0);
			d++;
		} else if (d == 0 || (k < 6 && d < BP_EXPR_MAX_DEPTH)) {
			switch (rndn(6)) {
			case 0: case 1:
				op(f, BP_XOP_REG, regs_used[rndn(ARRAY_SIZE(regs_used))], 0, 0,
				   rndn(3) ? 0 : (int64_t)rndn(64) - 16);
				break;
			case 2: case 3:
				op(f, BP_XOP_CONST, 0, 0, 0, rnd_number());
				break;
			case 4:
				op(f, BP_XOP_ADDR, 0, 0, 0, rnd_number());
				break;
			default:
				op(f, BP_XOP_TASK, 0, 0, 0, 0);
			}
			d++;
		} else if (k < 8) {
			op(f, BP_XOP_DEREF, 0, sizes[rndn(4)], rndn(2) ? BP_XF_USER : 0,
			   rndn(3) ? 0 : (int64_t)rndn(32) - 8);
		} else if (k < 9 && !rndn(3)) {
			op(f, BP_XOP_ENTRY_REG, regs_used[rndn(ARRAY_SIZE(regs_used) - 1)], 0, 0,
			   rndn(4) ? (int64_t)ENTRY_LINK : (int64_t)rnd());
		} else if (k < 13 && d >= 2) {
			op(f, binops[rndn(ARRAY_SIZE(binops))], 0, 0, rndn(2) ? BP_XF_SIGNED : 0, 0);
			d--;
		} else if (k < 13) {
			/* the right operand an immediate */
			op(f, binops[rndn(ARRAY_SIZE(binops))], 0, 0,
			   BP_XF_IMM | (rndn(2) ? BP_XF_SIGNED : 0), rnd_number());
		} else if (k < 15) {
			unsigned int u = rndn(5);

			op(f, u == 0 ? BP_XOP_NEG : u == 1 ? BP_XOP_NOT : u == 2 ? BP_XOP_ABS :
			      u == 3 ? BP_XOP_EXT : BP_XOP_PLUS_CONST, 0, 1 + rndn(7),
			   rndn(2) ? BP_XF_SIGNED : 0, rnd_number());
		} else if (k < 17 && d < BP_EXPR_MAX_DEPTH) {
			unsigned int u = rndn(3);

			if (u == 0 || d < 2)
				op(f, BP_XOP_DUP, 0, 0, 0, 0);
			else if (u == 1)
				op(f, BP_XOP_OVER, 0, 0, 0, 0);
			else
				op(f, BP_XOP_PICK, 0, 0, 0, rndn(d));
			d++;
		} else if (k < 18 && d >= 3) {
			op(f, rndn(2) ? BP_XOP_ROT : BP_XOP_SWAP, 0, 0, 0, 0);
		} else if (k < 19 && d >= 2 && room > 6) {
			/* a branch over one or two neutral ops */
			int n = 1 + rndn(2);

			if (rndn(2)) {
				op(f, BP_XOP_BRA, 0, 0, 0, n);
				d--;
			} else {
				op(f, BP_XOP_SKIP, 0, 0, 0, n);
			}
			for (int i = 0; i < n; i++)
				rnd_neutral(f, d);
		} else if (d >= 2) {
			op(f, BP_XOP_DROP, 0, 0, 0, 0);
			d--;
		}
	}
}

/* A random fetch around a random expression. */
static struct bp_fetch rnd_expr_fetch(void)
{
	static const uint8_t sizes[] = { 1, 2, 4, 8 };
	struct bp_fetch f = expr_fetch(sizes[rndn(4)], rndn(2));

	f.anchor = rndn(8) ? POINT_LINK : rnd();
	f.anchor_kind = BP_ANCHOR_IP;
	rnd_expr(&f, 1 + rndn(rndn(4) ? 12 : BP_EXPR_MAX_OPS - 4));
	if (!rndn(3))
		f.add = rnd_number();
	if (!rndn(3)) {
		f.nderef = 1 + rndn(2);
		f.deref_off[0] = rndn(16) - 8;
		f.deref_off[1] = rndn(16);
		f.user_mask = rnd();
	}
	if (!rndn(5)) {
		f.bit_size = 1 + rndn(63);
		f.bit_off = rndn(64 - f.bit_size + 1);
	}
	return f;
}

static void test_random_exprs(void)
{
	struct pt_regs_fake regs;
	int iter, ok = 0, failed = 0, longest = 0, ok_entry = 0, ok_deref = 0, ok_div = 0;
	struct bpf_insn tmp[BP_PROLOGUE_MAX_INSNS];
	struct bp_prologue_opts opts = { .entry_map_fd = ENTRY_FD, .cpu_v4 = cpu_v4 };
	struct bp_prologue_opts old = { .entry_map_fd = ENTRY_FD };

	reset_entries();
	for (iter = 0; iter < 8000 && !test_cur_failed; iter++) {
		struct bp_plan p = { .nargs = rndn(3) ? 1 : 2 + rndn(2) };
		int i, r, n;

		rnd_memory();
		for (r = 0; r < PT_REGS_SIZE / 8; r++)
			regs.w[r] = rndn(3) ? rnd_pointer() : (uint64_t)rnd_number();
		set_reg(&regs, BP_REG_RIP, BIAS + POINT_LINK);
		fake_task = rndn(4) ? KERN_BASE + (rndn(32) & ~7) : rnd();
		/* an entry value or two, saved for some CFA the expressions
		 * may compute (a register, or a pointer in memory) */
		nfake_entries = 0;
		for (i = 0; i < 2; i++) {
			struct fake_entry *e = &fake_entries[nfake_entries++];
			uint64_t entry = rndn(4) ? BIAS + ENTRY_LINK : rnd();

			e->pid_tgid = rndn(6) ? PID_TGID : PID_TGID + 1;
			e->cfa = rndn(4) ? regs.w[pt_off[BP_REG_RSP] / 8] + 16 : rnd_pointer();
			memcpy(e->value, &entry, 8);
			for (r = 0; r < BP_REG_MAX; r++)
				put_u64(e->value, BP_ENTRY_VALUE_REG_OFF(r), (uint64_t)rnd_number());
		}
		for (i = 0; i < p.nargs; i++)
			p.args[i] = rnd_expr_fetch();
		for (i = 0; i < p.nargs; i++)
			CHECK(!bp_expr__check(&p.args[i].expr, NULL), "generator made a bad expression");
		if (test_cur_failed)
			break;
		r = check_plan(&p, &regs);
		if (r < 0 || test_cur_failed)
			break;
		if (r)
			failed++;
		else
			ok++;
		for (i = 0; i < p.nargs && !r; i++) {
			ok_entry += bp_expr__has(&p.args[i].expr, BP_XOP_ENTRY_REG);
			ok_deref += bp_expr__has(&p.args[i].expr, BP_XOP_DEREF);
			ok_div += bp_expr__has(&p.args[i].expr, BP_XOP_DIV) ||
				  bp_expr__has(&p.args[i].expr, BP_XOP_MOD);
		}
		n = bp_prologue__gen_opts(&p, 0, &opts, tmp, ARRAY_SIZE(tmp));
		if (n > longest)
			longest = n;
		/* the exact length is enough room, one less is not */
		CHECK_INT(bp_prologue__gen_opts(&p, 0, &opts, tmp, n), n);
		CHECK_INT(bp_prologue__gen_opts(&p, 0, &opts, tmp, n - 1), -E2BIG);
		/* cpu v4 never makes a prologue longer */
		CHECK(n <= bp_prologue__gen_opts(&p, 0, &old, tmp, ARRAY_SIZE(tmp)),
		      "%d insns with cpu v4, %d without", n,
		      bp_prologue__gen_opts(&p, 0, &old, tmp, ARRAY_SIZE(tmp)));
	}
	/* both outcomes, and the ops that can fail, must have been exercised */
	CHECK(ok > 400 && failed > 400, "ok %d failed %d", ok, failed);
	CHECK(ok_entry > 20 && ok_deref > 100 && ok_div > 30, "entry %d deref %d div %d",
	      ok_entry, ok_deref, ok_div);
	if (verbose())
		printf("# random expressions: %d fetched (entry values %d, reads %d, divisions %d), %d failed, longest %d insns\n",
		       ok, ok_entry, ok_deref, ok_div, failed, longest);
	fake_entry_fd = 0;
}

/* The longest expressions of the most expensive ops still fit. */
static void test_worst_case_fits(void)
{
	static struct bpf_insn insns[BP_PROLOGUE_MAX_INSNS];
	struct bp_prologue_opts opts = { .entry_map_fd = ENTRY_FD };
	struct bp_plan p = { .nargs = 3 };
	int i, k, n;

	for (i = 0; i < 3; i++) {
		struct bp_fetch *f = &p.args[i];

		*f = expr_fetch(8, true);
		f->anchor = 0x1000;
		op(f, BP_XOP_CONST, 0, 0, 0, INT64_MIN);
		op(f, BP_XOP_CONST, 0, 0, 0, INT64_MAX);
		for (k = 2; k + 3 <= BP_EXPR_MAX_OPS; k += 3) {
			op(f, BP_XOP_ENTRY_REG, BP_REG_RBX, 0, 0, INT64_MIN);
			op(f, BP_XOP_DIV, 0, 0, BP_XF_SIGNED, 0);
			op(f, BP_XOP_CONST, 0, 0, 0, INT64_MIN);
		}
		f->expr.nops--;
		CHECK(!bp_expr__check(&f->expr, NULL), "arg %d", i);
		f->add = INT64_MIN;
		f->nderef = BP_MAX_DEREFS;
		f->bit_off = 3;
		f->bit_size = 40;
	}
	n = bp_prologue__gen_opts(&p, 0, &opts, insns, ARRAY_SIZE(insns));
	CHECK(n > 0 && n <= BP_PROLOGUE_MAX_INSNS, "n = %d", n);
	if (verbose())
		printf("# worst case: %d insns\n", n);
}

int main(void)
{
	RUN(test_check);
	RUN(test_format);
	RUN(test_add_after_read);
	RUN(test_three_args);
	RUN(test_tls_shape);
	RUN(test_entry_values);
	RUN(test_entry_bad);
	RUN(test_seq_narrow);
	RUN_BOTH(test_random_exprs);
	RUN(test_worst_case_fits);
	return TEST_EXIT();
}
