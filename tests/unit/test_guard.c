// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Guard tests (prologue/guard.c): the exact code of each form the loader
 * uses (the mark alone, the follow check, the map check), and the code run
 * in the strict interpreter (bpf_interp.h) with fake maps, fake kernel
 * memory and a fake current task: it must pass exactly when every guard
 * holds, leave ctx in r1 when it does, mark the runs that pass and count
 * what it refused; then with each prologue form and both ABIs behind it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>

#include "prologue/arch_x86_64.h"
#include "prologue/guard.h"
#include "prologue/plan.h"
#include "prologue/prologue.h"
#include "tests/unit/bpf_interp.h"
#include "tests/unit/insn.h"
#include "tests/unit/test.h"

#define COUNT_FD	9
#define RAN_FD		13
#define BITS_FD		15
#define SEED_FD		17
#define MAP_ADDR	(KERN_BASE + 0x100)
#define ID_OFF		24		/* of the map's id in the fake struct */

#define LDX(SZ, D, S, OFF)	I(BPF_LDX | (SZ) | BPF_MEM, D, S, OFF, 0)
#define ALU_IMM(OP, D, IMM)	I(BPF_ALU64 | (OP) | BPF_K, D, 0, 0, IMM)
#define ALU_REG(OP, D, S)	I(BPF_ALU64 | (OP) | BPF_X, D, S, 0, 0)
#define JMP_IMM(OP, D, IMM, OFF) I(BPF_JMP | (OP) | BPF_K, D, 0, OFF, IMM)
#define JMP32_IMM(OP, D, IMM, OFF) I(BPF_JMP32 | (OP) | BPF_K, D, 0, OFF, IMM)
#define JMP_REG(OP, D, S, OFF)	I(BPF_JMP | (OP) | BPF_X, D, S, OFF, 0)
#define ST(SZ, D, OFF, IMM)	I(BPF_ST | (SZ) | BPF_MEM, D, 0, OFF, IMM)
#define STX(SZ, D, S, OFF)	I(BPF_STX | (SZ) | BPF_MEM, D, S, OFF, 0)
/* r D = &value(FD) + OFF, r D = map FD: two slots each */
#define LD_VALUE(D, FD, OFF)	I(BPF_LD | BPF_DW | BPF_IMM, D, BPF_PSEUDO_MAP_VALUE, 0, FD), \
				I(0, 0, 0, 0, OFF)
#define LD_MAP(D, FD)		I(BPF_LD | BPF_DW | BPF_IMM, D, BPF_PSEUDO_MAP_FD, 0, FD), \
				I(0, 0, 0, 0, 0)

struct outcome {
	bool passed;		/* fell through to the program */
	bool r1_ctx;
	uint64_t counts[VM_MAX_KEYS];
	uint8_t ran[VM_RAN_BYTES];
};

/* the guards the loader gives a uprobe instance i: with following, the
 * bitmap check, its refusals counted; else the mark alone */
static struct bp_guards instance_guards(int i, bool follow)
{
	struct bp_guards gs = { .refused_fd = -1, .mark_ran = true, .ran_fd = RAN_FD,
				.ran_off = 64 * i };

	if (follow) {
		gs.n = 1;
		gs.v[0] = (struct bp_guard){ .kind = BP_GUARD_TGID_IN_BITMAP, .set_fd = BITS_FD,
					     .set_bytes = VM_BITS_BYTES, .seed = true,
					     .seed_fd = SEED_FD };
		gs.refused_fd = COUNT_FD;
		gs.count_base = i;
	}
	return gs;
}

static void set_bits(struct vm *vm, const uint32_t *set, int nset)
{
	for (int i = 0; i < nset; i++)
		if (set[i] < 8 * VM_BITS_BYTES)
			vm->bits[set[i] / 64] |= 1ull << (set[i] % 64);
}

/* the seed's __u32 after the bitmap in the next runs (0: none) */
static uint32_t seed_value;

/* Runs the guards' code followed by r0 = 0, exit for a task of tgid, with
 * rdi pointing at a fake kernel object whose id field is id. */
static struct outcome run(const struct bp_guards *gs, uint32_t tgid, uint32_t id,
			  const uint32_t *set, int nset)
{
	struct bpf_insn insns[BP_GUARDS_MAX_INSNS + 2];
	struct pt_regs_fake regs = {};
	struct vm vm = { .ctx = &regs };
	struct outcome o = {};
	uint8_t obj[64] = {};
	int n;

	n = bp_guards__gen(gs, insns, BP_GUARDS_MAX_INSNS);
	CHECK(n > 0, "gen: %d", n);
	if (n <= 0)
		return o;
	/* the program: r0 = 0; exit */
	insns[n] = MOV_IMM(BPF_REG_0, 0);
	insns[n + 1] = EXIT_INSN;
	CHECK_INT(vm_first_unreachable(insns, n + 2), -1);
	mem_reset();
	put_u32(obj, ID_OFF, id);
	mem_add(false, MAP_ADDR, obj, sizeof(obj));
	set_reg(&regs, BP_REG_RDI, MAP_ADDR);
	vm.r[1] = (struct vreg){ V_CTX, 0 };
	vm.r[10] = (struct vreg){ V_STACK, 0 };
	vm.allow_exit = true;
	vm.pid_tgid = (uint64_t)tgid << 32 | (tgid + 1);
	vm.count_fd = COUNT_FD;
	vm.ran_fd = RAN_FD;
	vm.bits_fd = BITS_FD;
	set_bits(&vm, set, nset);
	vm.seed_fd = SEED_FD;
	vm.seed = seed_value;
	vm_run(&vm, insns, n + 2);
	CHECK(!vm.err[0], "%s", vm.err);
	CHECK(vm.exited, "did not exit");
	o.passed = vm.exited && vm.exit_pc == n + 1;
	o.r1_ctx = vm.r[1].kind == V_CTX && vm.r[1].v == 0;
	CHECK(o.passed || vm.exit_r0 == 0, "refused with r0 = %" PRIu64, vm.exit_r0);
	memcpy(o.counts, vm.counts, sizeof(o.counts));
	memcpy(o.ran, vm.ran, sizeof(o.ran));
	return o;
}

static void check_code(const struct bp_guards *gs, const struct bpf_insn *want, int nwant)
{
	struct bpf_insn got[BP_GUARDS_MAX_INSNS];
	char why[256];
	int n = bp_guards__gen(gs, got, BP_GUARDS_MAX_INSNS);

	CHECK(vm_same_insns(got, n, want, nwant, why, sizeof(why)), "%s", why);
	if (vm_verbose())
		vm_dump(got, n);
}

/* --no-follow, -a, kernel probes: the mark alone, 3 instructions that
 * leave r1 alone and store without a test. */
static void test_mark_code(void)
{
	struct bp_guards gs = instance_guards(2, false);
	const struct bpf_insn want[] = {
		LD_VALUE(0, RAN_FD, 128),
		ST(BPF_B, 0, 0, 1),
	};

	check_code(&gs, want, ARRAY_SIZE(want));
}

/* Following: the tgid's bit read in place, no map call on the passing
 * path, the refusal counted out of its way. */
static void test_follow_code(void)
{
	struct bp_guards gs = instance_guards(3, true);
	const struct bpf_insn want[] = {
		MOV_REG(6, 1),
		LD_VALUE(7, SEED_FD, 0),
		LDX(BPF_W, 7, 7, 0),
		CALL(BPF_FUNC_get_current_pid_tgid),
		ALU_IMM(BPF_RSH, 0, 32),
		JMP_REG(BPF_JEQ, 0, 7, 23),
		MOV_REG(1, 0),
		ALU_IMM(BPF_RSH, 1, 3),
		JMP_IMM(BPF_JGE, 1, VM_BITS_BYTES, 8),
		LD_VALUE(2, BITS_FD, 0),
		ALU_REG(BPF_ADD, 2, 1),
		LDX(BPF_B, 2, 2, 0),
		ALU_IMM(BPF_AND, 0, 7),
		MOV_IMM(1, 1),
		ALU_REG(BPF_LSH, 1, 0),
		JMP_REG(BPF_JSET, 2, 1, 12),
		/* refused: counted, per CPU */
		ST(BPF_W, 10, -16, 3),
		LD_MAP(1, COUNT_FD),
		MOV_REG(2, 10),
		ALU_IMM(BPF_ADD, 2, -16),
		CALL(BPF_FUNC_map_lookup_elem),
		JMP_IMM(BPF_JEQ, 0, 0, 3),
		LDX(BPF_DW, 1, 0, 0),
		ALU_IMM(BPF_ADD, 1, 1),
		STX(BPF_DW, 0, 1, 0),
		MOV_IMM(0, 0),
		EXIT_INSN,
		/* passed */
		LD_VALUE(0, RAN_FD, 192),
		ST(BPF_B, 0, 0, 1),
		MOV_REG(1, 6),
	};
	const struct bpf_insn want_no_seed[] = {
		MOV_REG(6, 1),
		CALL(BPF_FUNC_get_current_pid_tgid),
		ALU_IMM(BPF_RSH, 0, 32),
		MOV_REG(1, 0),
		ALU_IMM(BPF_RSH, 1, 3),
		JMP_IMM(BPF_JGE, 1, VM_BITS_BYTES, 8),
		LD_VALUE(2, BITS_FD, 0),
		ALU_REG(BPF_ADD, 2, 1),
		LDX(BPF_B, 2, 2, 0),
		ALU_IMM(BPF_AND, 0, 7),
		MOV_IMM(1, 1),
		ALU_REG(BPF_LSH, 1, 0),
		JMP_REG(BPF_JSET, 2, 1, 2),
		MOV_IMM(0, 0),
		EXIT_INSN,
		LD_VALUE(0, RAN_FD, 192),
		ST(BPF_B, 0, 0, 1),
		MOV_REG(1, 6),
	};
	/* what a passing run executes: 14 slots of check (the seed's: 7), 3
	 * of mark, the restore of ctx */
	check_code(&gs, want, ARRAY_SIZE(want));
	/* without the seed */
	gs.v[0].seed = false;
	gs.refused_fd = -1;
	check_code(&gs, want_no_seed, ARRAY_SIZE(want_no_seed));
}

/* A map-tracing instance: the map's id compared, nothing counted. */
static void test_map_code(void)
{
	struct bp_guards gs = { .n = 1, .refused_fd = -1, .mark_ran = true, .ran_fd = RAN_FD,
		.v = { { .kind = BP_GUARD_KERNEL_U32_EQ, .ctx_off = 112, .off = ID_OFF,
			 .value = 5 } } };
	const struct bpf_insn want[] = {
		MOV_REG(6, 1),
		LDX(BPF_DW, 3, 6, 112),
		ALU_IMM(BPF_ADD, 3, ID_OFF),
		MOV_REG(1, 10),
		ALU_IMM(BPF_ADD, 1, -16),
		MOV_IMM(2, 4),
		CALL(BPF_FUNC_probe_read_kernel),
		JMP_IMM(BPF_JNE, 0, 0, 2),
		LDX(BPF_W, 0, 10, -16),
		JMP32_IMM(BPF_JEQ, 0, 5, 2),
		MOV_IMM(0, 0),
		EXIT_INSN,
		LD_VALUE(0, RAN_FD, 0),
		ST(BPF_B, 0, 0, 1),
		MOV_REG(1, 6),
	};

	check_code(&gs, want, ARRAY_SIZE(want));
}

/* The bitmap: the tgid's bit, whatever else its byte and word hold; a
 * tgid past the bitmap refuses; each refusal counted in the instance's
 * entry, each pass marked in its own byte. */
static void test_tgid_in_bitmap(void)
{
	struct bp_guards gs = instance_guards(1, true);
	const uint32_t set[] = { 100, 101, 63, 64, 7, 4095 };
	struct outcome o;

	for (int i = 0; i < 6; i++) {
		o = run(&gs, set[i], 0, set, 6);
		CHECK(o.passed && o.r1_ctx, "followed tgid %u was refused", set[i]);
		CHECK(o.ran[64] == 1 && !o.counts[1], "tgid %u: ran %u, refused %" PRIu64,
		      set[i], o.ran[64], o.counts[1]);
	}
	/* from 1: tgid 0 (the idle task) runs no user code, which is why a
	 * seed of 0 means none */
	for (uint32_t t = 1; t < 130; t++) {
		bool in = t == 100 || t == 101 || t == 63 || t == 64 || t == 7;

		o = run(&gs, t, 0, set, 6);
		CHECK(o.passed == in, "tgid %u: passed %d", t, o.passed);
		CHECK(o.ran[64] == in && o.counts[1] == !in, "tgid %u: ran %u, refused %" PRIu64,
		      t, o.ran[64], o.counts[1]);
		CHECK(!o.ran[0] && !o.counts[0], "tgid %u: another instance's entries", t);
	}
	/* the seed passes without its bit (it is set too, in the loader's
	 * set); once cleared, its pid is one like the others */
	seed_value = 77;
	o = run(&gs, 77, 0, set, 6);
	CHECK(o.passed && o.r1_ctx && o.ran[64] == 1 && !o.counts[1], "the seed was refused");
	o = run(&gs, 100, 0, set, 6);
	CHECK(o.passed && o.r1_ctx, "with a seed, a followed tgid was refused");
	o = run(&gs, 78, 0, set, 6);
	CHECK(!o.passed && o.counts[1] == 1, "with a seed, another tgid passed");
	seed_value = 0;
	o = run(&gs, 77, 0, set, 6);
	CHECK(!o.passed && o.counts[1] == 1, "a cleared seed passed");
	o = run(&gs, 8 * VM_BITS_BYTES, 0, set, 6);
	CHECK(!o.passed && o.counts[1] == 1, "a tgid past the bitmap passed");
	o = run(&gs, 0xfffffff0u, 0, set, 6);
	CHECK(!o.passed && o.counts[1] == 1, "a tgid far past the bitmap passed");
	/* nothing counted without a count map */
	gs.refused_fd = -1;
	o = run(&gs, 1, 0, set, 6);
	CHECK(!o.passed && !o.counts[1], "refused %d, counted %" PRIu64, !o.passed, o.counts[1]);
}

/* The mark alone marks every run, ctx kept. */
static void test_mark_only(void)
{
	struct bp_guards gs = instance_guards(5, false);
	struct bpf_insn insns[BP_GUARDS_MAX_INSNS];
	struct outcome o;

	o = run(&gs, 1, 0, NULL, 0);
	CHECK(o.passed && o.r1_ctx, "refused");
	CHECK_INT(o.ran[320], 1);
	CHECK_INT(o.ran[321] + o.ran[319], 0);
	gs.ran_off = 41;	/* a byte: any offset */
	o = run(&gs, 1, 0, NULL, 0);
	CHECK_INT(o.ran[41], 1);
	gs.ran_fd = -1;
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), -EINVAL);
	gs.mark_ran = false;
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), 0);
}

static void test_kernel_u32_eq(void)
{
	struct bp_guards gs = { .n = 1, .refused_fd = COUNT_FD,
		.v = { { .kind = BP_GUARD_KERNEL_U32_EQ, .ctx_off = 112 /* rdi */,
			 .off = ID_OFF, .value = 0xfffffff0u } } };
	struct outcome o;

	o = run(&gs, 1, 0xfffffff0u, NULL, 0);
	CHECK(o.passed && o.r1_ctx, "the map's id was refused");
	o = run(&gs, 1, 0xfffffff1u, NULL, 0);
	CHECK(!o.passed && o.counts[0] == 1, "another id passed");
	/* an unreadable object refuses */
	gs.v[0].off = 4096;
	o = run(&gs, 1, 0xfffffff0u, NULL, 0);
	CHECK(!o.passed && o.counts[0] == 1, "a failed read passed");
}

/* Both kinds, in either order: the count says which one refused. */
static void test_two_guards(void)
{
	const struct bp_guard bits = { .kind = BP_GUARD_TGID_IN_BITMAP, .set_fd = BITS_FD,
				       .set_bytes = VM_BITS_BYTES };
	const struct bp_guard map = { .kind = BP_GUARD_KERNEL_U32_EQ, .ctx_off = 112,
				      .off = ID_OFF, .value = 5 };
	const uint32_t set[] = { 10 };

	for (int form = 0; form < 4; form++) {
		int swap = form & 1;
		struct bp_guards gs = { .n = 2, .refused_fd = COUNT_FD, .mark_ran = true,
					.ran_fd = RAN_FD, .v = { swap ? map : bits, swap ? bits : map } };
		int ib = swap, im = !swap;	/* the count entries */
		struct outcome o;

		/* with a seed (the followed tgid itself), either guard first */
		gs.v[ib].seed = form >= 2;
		gs.v[ib].seed_fd = SEED_FD;
		seed_value = form >= 2 ? 10 : 0;

		o = run(&gs, 10, 5, set, 1);
		CHECK(o.passed && o.r1_ctx && o.ran[0] == 1, "swap %d: refused", swap);
		o = run(&gs, 11, 5, set, 1);
		CHECK(!o.passed && o.counts[ib] == 1 && o.counts[im] == 0 && !o.ran[0],
		      "swap %d: %d %" PRIu64 " %" PRIu64, swap, o.passed, o.counts[ib], o.counts[im]);
		o = run(&gs, 10, 6, set, 1);
		CHECK(!o.passed && o.counts[ib] == 0 && o.counts[im] == 1 && !o.ran[0],
		      "swap %d: %d %" PRIu64 " %" PRIu64, swap, o.passed, o.counts[ib], o.counts[im]);
	}
	seed_value = 0;
}

/*
 * The guard spliced in front of each prologue form, of both ABIs: the
 * register ABI with an argument in a register (no helper: ctx in r1 all
 * along) and one read through a pointer (the prologue keeps ctx in r6
 * too), the record ABI with the same read. A followed tgid gets the
 * argument, another is refused before any read.
 */
#define PTR_ADDR	(USER_BASE + 0x100)

static void test_with_prologues(void)
{
	struct bp_fetch reg = { .base = BP_BASE_REG, .reg = BP_REG_RSI, .size = 8 };
	struct bp_fetch deref = { .base = BP_BASE_REG, .reg = BP_REG_RDI, .size = 4,
				  .nderef = 1, .user_mask = 1, .deref_off = { 8 } };
	struct bp_plan plans[3] = {
		{ .nargs = 1, .args = { reg } },
		{ .nargs = 1, .args = { deref } },
		{ .nargs = 1, .args = { deref }, .record = true, .rec_size = 16, .err_off = 8 },
	};
	const uint32_t set[] = { 42 };
	uint8_t user[16] = {};

	plans[2].args[0].rec_off = 0;
	plans[2].args[0].store_size = 4;
	put_u32(user, 8, 0xabcd);
	for (int f = 0; f < 2; f++) {
		for (int k = 0; k < 3; k++) {
			for (uint32_t tgid = 41; tgid <= 42; tgid++) {
				struct bp_guards gs = instance_guards(0, f);
				struct bpf_insn insns[BP_GUARDS_MAX_INSNS + BP_PROLOGUE_MAX_INSNS + 1];
				struct pt_regs_fake regs = {};
				struct vm vm = { .ctx = &regs };
				bool want = !f || tgid == 42;
				int n, p;

				n = bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS);
				if (plans[k].record)
					p = bp_prologue__gen_record(&plans[k], -64, 0, NULL, insns + n,
								    BP_PROLOGUE_MAX_INSNS);
				else
					p = bp_prologue__gen(&plans[k], 0, insns + n,
							     BP_PROLOGUE_MAX_INSNS);
				CHECK(n > 0 && p > 0, "gen %d %d", n, p);
				if (n <= 0 || p <= 0)
					continue;
				insns[n + p] = EXIT_INSN;
				mem_reset();
				mem_add(true, PTR_ADDR, user, sizeof(user));
				set_reg(&regs, BP_REG_RSI, 0x1234);
				set_reg(&regs, BP_REG_RDI, PTR_ADDR);
				vm.r[1] = (struct vreg){ V_CTX, 0 };
				vm.r[10] = (struct vreg){ V_STACK, 0 };
				vm.allow_exit = true;
				vm.pid_tgid = (uint64_t)tgid << 32 | tgid;
				vm.count_fd = COUNT_FD;
				vm.ran_fd = RAN_FD;
				vm.bits_fd = BITS_FD;
				vm.seed_fd = SEED_FD;
				set_bits(&vm, set, 1);
				vm_run(&vm, insns, n + p + 1);
				CHECK(!vm.err[0], "follow %d plan %d tgid %u: %s", f, k, tgid, vm.err);
				CHECK(vm.exited && (vm.exit_pc == n + p) == want,
				      "follow %d plan %d tgid %u: exit at %d of %d", f, k, tgid,
				      vm.exit_pc, n + p);
				CHECK(vm.ran[0] == want && vm.counts[0] == !want,
				      "follow %d plan %d tgid %u: ran %u refused %" PRIu64, f, k,
				      tgid, vm.ran[0], vm.counts[0]);
				if (!want)
					continue;
				CHECK(vm.r[1].kind == V_CTX, "follow %d plan %d: r1 is no ctx", f, k);
				if (k == 0)
					CHECK(vm.r[3].kind == V_SCALAR && vm.r[3].v == 0x1234,
					      "follow %d: r3 = %" PRIx64, f, vm.r[3].v);
				else if (k == 1)
					CHECK(vm.r[3].kind == V_SCALAR && vm.r[3].v == 0xabcd &&
					      vm.r[2].v == 0, "follow %d: r3 = %" PRIx64, f, vm.r[3].v);
				else
					CHECK(vm.r[2].kind == V_STACK &&
					      vm.stack[STACK_SIZE + (int)vm.r[2].v] == 0xcd,
					      "follow %d: the record", f);
			}
		}
	}
}

/* The largest code fits BP_GUARDS_MAX_INSNS. */
static void test_largest(void)
{
	struct bp_guards gs = { .n = 2, .refused_fd = COUNT_FD, .mark_ran = true, .ran_fd = RAN_FD,
		.v = { { .kind = BP_GUARD_TGID_IN_BITMAP, .set_fd = BITS_FD,
			 .set_bytes = BP_PID_BITMAP_BYTES },
		       { .kind = BP_GUARD_KERNEL_U32_EQ, .ctx_off = 112, .off = ID_OFF,
			 .value = 5 } } };
	struct bpf_insn insns[BP_GUARDS_MAX_INSNS];
	int n = bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS);

	CHECK(n > 0 && n <= BP_GUARDS_MAX_INSNS, "gen: %d", n);
	gs.v[0].set_bytes = 0;
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), -EINVAL);
}

static void test_bad_guards(void)
{
	struct bpf_insn insns[BP_GUARDS_MAX_INSNS];
	struct bp_guards gs = { .n = 0, .refused_fd = -1 };

	CHECK_INT(bp_guards__gen(&gs, insns, 0), 0);
	CHECK_INT(bp_guards__gen(NULL, insns, 4), -EINVAL);
	gs.n = 3;
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), -EINVAL);
	gs.n = 1;
	gs.v[0] = (struct bp_guard){ .kind = BP_GUARD_TGID_IN_BITMAP, .set_fd = -1,
				     .set_bytes = 8 };
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), -EINVAL);
	gs.v[0] = (struct bp_guard){ .kind = BP_GUARD_TGID_IN_BITMAP, .set_fd = 3,
				     .set_bytes = 8, .seed = true, .seed_fd = -1 };
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), -EINVAL);
	gs.v[0] = (struct bp_guard){ .kind = BP_GUARD_KERNEL_U32_EQ, .ctx_off = 3 };
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), -EINVAL);
	gs.v[0] = (struct bp_guard){ .kind = 99 };
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), -EINVAL);
	gs.v[0] = (struct bp_guard){ .kind = BP_GUARD_TGID_IN_BITMAP, .set_fd = 3,
				     .set_bytes = 8 };
	CHECK_INT(bp_guards__gen(&gs, insns, 4), -E2BIG);
	gs.n = 0;
	gs.mark_ran = true;
	gs.ran_fd = 3;
	CHECK_INT(bp_guards__gen(&gs, insns, 2), -E2BIG);
}

int main(void)
{
	RUN(test_mark_code);
	RUN(test_follow_code);
	RUN(test_map_code);
	RUN(test_tgid_in_bitmap);
	RUN(test_mark_only);
	RUN(test_kernel_u32_eq);
	RUN(test_two_guards);
	RUN(test_with_prologues);
	RUN(test_largest);
	RUN(test_bad_guards);
	return TEST_EXIT();
}
