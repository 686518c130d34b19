// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Guard tests (prologue/guard.c): the generated code runs in the strict
 * interpreter (bpf_interp.h) with fake maps, fake kernel memory and a fake
 * current task, and must pass exactly when every guard holds, leave ctx
 * in r1 when it does, and count what it refused.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>

#include "prologue/arch_x86_64.h"
#include "prologue/guard.h"
#include "tests/unit/bpf_interp.h"
#include "tests/unit/insn.h"
#include "tests/unit/test.h"

#define SET_FD		7
#define COUNT_FD	9
#define GATE_FD		11
#define RAN_FD		13
#define BITS_FD		15
#define MAP_ADDR	(KERN_BASE + 0x100)
#define ID_OFF		24		/* of the map's id in the fake struct */

struct outcome {
	bool passed;		/* fell through to the program */
	bool r1_ctx;
	uint64_t counts[VM_MAX_KEYS];
	uint64_t ran[VM_MAX_KEYS];
};

/* the gate map's value in the next runs */
static uint32_t gate_value;

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
	mem_reset();
	put_u32(obj, ID_OFF, id);
	mem_add(false, MAP_ADDR, obj, sizeof(obj));
	set_reg(&regs, BP_REG_RDI, MAP_ADDR);
	vm.r[1] = (struct vreg){ V_CTX, 0 };
	vm.r[10] = (struct vreg){ V_STACK, 0 };
	vm.allow_exit = true;
	vm.pid_tgid = (uint64_t)tgid << 32 | (tgid + 1);
	vm.set_fd = SET_FD;
	vm.count_fd = COUNT_FD;
	vm.gate_fd = GATE_FD;
	vm.gate = gate_value;
	vm.ran_fd = RAN_FD;
	vm.bits_fd = BITS_FD;
	for (int i = 0; i < nset; i++)
		if (set[i] < 64 * VM_BITS_WORDS)
			vm.bits[set[i] / 64] |= 1ull << (set[i] % 64);
	for (int i = 0; i < nset; i++)
		vm.set_keys[vm.nset_keys++] = set[i];
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

static void test_tgid_in_set(void)
{
	struct bp_guards gs = { .n = 1, .refused_fd = COUNT_FD,
		.v = { { .kind = BP_GUARD_TGID_IN_SET, .set_fd = SET_FD } } };
	const uint32_t set[] = { 100, 4242 };
	struct outcome o;

	o = run(&gs, 4242, 0, set, 2);
	CHECK(o.passed && o.r1_ctx, "a followed tgid was refused");
	CHECK_INT(o.counts[0], 0);
	o = run(&gs, 4243, 0, set, 2);
	CHECK(!o.passed, "another tgid passed");
	CHECK_INT(o.counts[0], 1);
	/* nothing counted without a count map */
	gs.refused_fd = -1;
	o = run(&gs, 1, 0, set, 2);
	CHECK(!o.passed, "another tgid passed");
	CHECK_INT(o.counts[0], 0);
}

/* The bitmap: the tgid's bit, whatever else its word holds; a tgid past
 * the bitmap refuses. */
static void test_tgid_in_bitmap(void)
{
	struct bp_guards gs = { .n = 1, .refused_fd = COUNT_FD,
		.v = { { .kind = BP_GUARD_TGID_IN_BITMAP, .set_fd = BITS_FD } } };
	const uint32_t set[] = { 100, 101, 63, 64, 4095 };
	struct outcome o;

	for (int i = 0; i < 5; i++) {
		o = run(&gs, set[i], 0, set, 5);
		CHECK(o.passed && o.r1_ctx, "followed tgid %u was refused", set[i]);
	}
	for (uint32_t t = 0; t < 130; t++) {
		bool in = t == 100 || t == 101 || t == 63 || t == 64;

		o = run(&gs, t, 0, set, 5);
		CHECK(o.passed == in, "tgid %u: passed %d", t, o.passed);
	}
	o = run(&gs, 4096, 0, set, 5);
	CHECK(!o.passed && o.counts[0] == 1, "a tgid past the bitmap passed");
	/* gated: off lets everyone through */
	gs.v[0].gated = true;
	gs.v[0].gate_fd = GATE_FD;
	gate_value = 0;
	o = run(&gs, 7, 0, set, 5);
	CHECK(o.passed, "gate off: refused");
	gate_value = 1;
	o = run(&gs, 7, 0, set, 5);
	CHECK(!o.passed, "gate on: an unfollowed tgid passed");
	gate_value = 0;
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

/* Both, in order: the count says which one refused. */
static void test_two_guards(void)
{
	struct bp_guards gs = { .n = 2, .refused_fd = COUNT_FD,
		.v = { { .kind = BP_GUARD_TGID_IN_SET, .set_fd = SET_FD },
		       { .kind = BP_GUARD_KERNEL_U32_EQ, .ctx_off = 112, .off = ID_OFF,
			 .value = 5 } } };
	const uint32_t set[] = { 10 };
	struct outcome o;

	o = run(&gs, 10, 5, set, 1);
	CHECK(o.passed && o.r1_ctx, "refused");
	o = run(&gs, 11, 5, set, 1);
	CHECK(!o.passed && o.counts[0] == 1 && o.counts[1] == 0, "%d %" PRIu64 " %" PRIu64,
	      o.passed, o.counts[0], o.counts[1]);
	o = run(&gs, 10, 6, set, 1);
	CHECK(!o.passed && o.counts[0] == 0 && o.counts[1] == 1, "%d %" PRIu64 " %" PRIu64,
	      o.passed, o.counts[0], o.counts[1]);
}

/* Gated: every process passes until the gate is set, then the set rules;
 * refusals are counted from count_base on, a run that passes is marked. */
static void test_gated_marked(void)
{
	struct bp_guards gs = { .n = 1, .refused_fd = COUNT_FD, .count_base = 2,
		.mark_ran = true, .ran_fd = RAN_FD, .ran_off = 24,
		.v = { { .kind = BP_GUARD_TGID_IN_SET, .set_fd = SET_FD, .gated = true,
			 .gate_fd = GATE_FD } } };
	const uint32_t set[] = { 77 };
	struct outcome o;

	gate_value = 0;
	o = run(&gs, 5, 0, set, 1);
	CHECK(o.passed && o.r1_ctx, "gate off: refused");
	CHECK(o.ran[3] == 1 && o.counts[2] == 0, "gate off: ran %" PRIu64 ", refused %" PRIu64,
	      o.ran[3], o.counts[2]);
	gate_value = 1;
	o = run(&gs, 5, 0, set, 1);
	CHECK(!o.passed, "gate on: an unfollowed tgid passed");
	CHECK(o.counts[2] == 1 && o.ran[3] == 0, "gate on: refused %" PRIu64 ", ran %" PRIu64,
	      o.counts[2], o.ran[3]);
	o = run(&gs, 77, 0, set, 1);
	CHECK(o.passed && o.r1_ctx, "gate on: a followed tgid was refused");
	CHECK(o.counts[2] == 0 && o.ran[3] == 1, "gate on: refused %" PRIu64 ", ran %" PRIu64,
	      o.counts[2], o.ran[3]);
	gate_value = 0;
}

/* No guard but the mark: the mark alone, ctx kept; written once. */
static void test_mark_only(void)
{
	struct bp_guards gs = { .n = 0, .refused_fd = -1, .mark_ran = true, .ran_fd = RAN_FD,
		.ran_off = 40 };
	struct bpf_insn insns[BP_GUARDS_MAX_INSNS];
	struct outcome o;

	o = run(&gs, 1, 0, NULL, 0);
	CHECK(o.passed && o.r1_ctx, "refused");
	CHECK_INT(o.ran[5], 1);
	gs.ran_off = 41;
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), -EINVAL);
	gs.ran_off = 40;
	gs.ran_fd = -1;
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), -EINVAL);
}

/* The largest code fits BP_GUARDS_MAX_INSNS. */
static void test_largest(void)
{
	struct bp_guards gs = { .n = 2, .refused_fd = COUNT_FD, .mark_ran = true, .ran_fd = RAN_FD,
		.v = { { .kind = BP_GUARD_TGID_IN_SET, .set_fd = SET_FD, .gated = true,
			 .gate_fd = GATE_FD },
		       { .kind = BP_GUARD_KERNEL_U32_EQ, .ctx_off = 112, .off = ID_OFF,
			 .value = 5 } } };
	struct bpf_insn insns[BP_GUARDS_MAX_INSNS];
	int n = bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS);

	CHECK(n > 0 && n <= BP_GUARDS_MAX_INSNS, "gen: %d", n);
	gs.v[0].gate_fd = -1;
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
	gs.v[0] = (struct bp_guard){ .kind = BP_GUARD_TGID_IN_SET, .set_fd = -1 };
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), -EINVAL);
	gs.v[0] = (struct bp_guard){ .kind = BP_GUARD_KERNEL_U32_EQ, .ctx_off = 3 };
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), -EINVAL);
	gs.v[0] = (struct bp_guard){ .kind = 99 };
	CHECK_INT(bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS), -EINVAL);
	gs.v[0] = (struct bp_guard){ .kind = BP_GUARD_TGID_IN_SET, .set_fd = 3 };
	CHECK_INT(bp_guards__gen(&gs, insns, 4), -E2BIG);
}

int main(void)
{
	RUN(test_tgid_in_set);
	RUN(test_tgid_in_bitmap);
	RUN(test_kernel_u32_eq);
	RUN(test_two_guards);
	RUN(test_gated_marked);
	RUN(test_mark_only);
	RUN(test_largest);
	RUN(test_bad_guards);
	return TEST_EXIT();
}
