// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The follow programs (prologue/follow_progs.c) in the strict interpreter
 * (bpf_interp.h): a fake tracepoint record as ctx, a fake current task, a
 * fake bitmap, reached in place (no map call). A followed parent's child
 * joins; another's does not; a freed pid leaves, and its word's other bits
 * stay; a pid past the bitmap is counted; a followed exec records its comm.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>

#include "prologue/follow_progs.h"
#include "tests/unit/bpf_interp.h"
#include "tests/unit/test.h"

#define SET_FD		7
#define SEED_FD		8
#define STATS_FD	9
#define EXECS_FD	12
#define CHILD_OFF	20	/* 6.18's sched_process_fork */
#define FREE_OFF	12	/* sched_process_free */

static const struct bp_follow_cfg cfg = {
	.set_fd = SET_FD, .set_bytes = VM_BITS_BYTES, .seed_fd = SEED_FD, .stats_fd = STATS_FD, .execs_fd = EXECS_FD,
	.child_pid_off = CHILD_OFF, .free_pid_off = FREE_OFF,
};

typedef int (*gen_fn)(const struct bp_follow_cfg *, struct bpf_insn *, size_t);

/* Runs the program gen makes in vm, the record's field at off = value. */
static void run(struct vm *vm, gen_fn gen, int off, uint32_t value, uint32_t tgid)
{
	struct bpf_insn insns[BP_FOLLOW_MAX_INSNS];
	struct pt_regs_fake rec = {};
	int n = gen(&cfg, insns, BP_FOLLOW_MAX_INSNS);

	CHECK(n > 0, "gen: %d", n);
	if (n <= 0)
		return;
	put_u32((uint8_t *)rec.w, off, value);
	vm->ctx = &rec;
	vm->r[1] = (struct vreg){ V_CTX, 0 };
	vm->r[10] = (struct vreg){ V_STACK, 0 };
	vm->steps = 0;
	vm->written = 0;
	memset(vm->stack_init, 0, sizeof(vm->stack_init));
	vm->pid_tgid = (uint64_t)tgid << 32 | (tgid + 3);
	vm->bits_fd = SET_FD;
	vm->seed_fd = SEED_FD;
	vm->count_fd = STATS_FD;
	vm->execs_fd = EXECS_FD;
	vm_run(vm, insns, n);
	CHECK(!vm->err[0], "%s", vm->err);
	vm->ctx = NULL;
}

static bool in_set(const struct vm *vm, uint32_t pid)
{
	return pid < 64 * VM_BITS_WORDS && (vm->bits[pid / 64] >> (pid % 64) & 1);
}

static void add(struct vm *vm, uint32_t pid)
{
	vm->bits[pid / 64] |= 1ull << (pid % 64);
}

static void test_fork(void)
{
	struct vm vm = {};

	add(&vm, 100);
	run(&vm, bp_follow__gen_fork, CHILD_OFF, 200, 100);
	CHECK(in_set(&vm, 200), "the followed parent's child did not join");
	CHECK_INT(vm.counts[BP_FOLLOW_STAT_FORKS], 1);
	run(&vm, bp_follow__gen_fork, CHILD_OFF, 300, 999);
	CHECK(!in_set(&vm, 300), "another parent's child joined");
	/* a grandchild, through the child; in the same word as 200 */
	run(&vm, bp_follow__gen_fork, CHILD_OFF, 201, 200);
	CHECK(in_set(&vm, 201) && in_set(&vm, 200) && in_set(&vm, 100),
	      "the grandchild did not join, or others left");
	CHECK_INT(vm.counts[BP_FOLLOW_STAT_FORKS], 2);
	CHECK_INT(vm.counts[BP_FOLLOW_STAT_FULL], 0);
	for (uint32_t p = 0; p < 64 * VM_BITS_WORDS; p++)
		CHECK(in_set(&vm, p) == (p == 100 || p == 200 || p == 201), "pid %u", p);
}

static void test_full(void)
{
	struct vm vm = {};

	add(&vm, 10);
	run(&vm, bp_follow__gen_fork, CHILD_OFF, 64 * VM_BITS_WORDS + 5, 10);
	CHECK_INT(vm.counts[BP_FOLLOW_STAT_FULL], 1);
	CHECK_INT(vm.counts[BP_FOLLOW_STAT_FORKS], 0);
}

static void test_free(void)
{
	struct vm vm = {};

	add(&vm, 100);
	add(&vm, 101);
	add(&vm, 200);
	vm.seed = 200;
	run(&vm, bp_follow__gen_free, FREE_OFF, 101, 1);
	CHECK(in_set(&vm, 100) && !in_set(&vm, 101) && in_set(&vm, 200), "101 was not removed alone");
	CHECK_INT(vm.seed, 200);
	/* the seed, freed, is no seed any more: its pid may be given again */
	run(&vm, bp_follow__gen_free, FREE_OFF, 200, 1);
	CHECK(!in_set(&vm, 200) && in_set(&vm, 100), "200 was not removed alone");
	CHECK_INT(vm.seed, 0);
	add(&vm, 200);
	/* a pid not followed, one past the bitmap: nothing changes, nothing fails */
	run(&vm, bp_follow__gen_free, FREE_OFF, 4000, 1);
	run(&vm, bp_follow__gen_free, FREE_OFF, 64 * VM_BITS_WORDS, 1);
	CHECK(in_set(&vm, 100) && in_set(&vm, 200), "others left");
}

static void test_exec(void)
{
	struct vm vm = { .comm = "app_O0" };

	add(&vm, 100);
	run(&vm, bp_follow__gen_exec, 8, 0, 100);
	CHECK(vm.nexecs == 1 && !strcmp(vm.execs[0], "app_O0"), "%d", vm.nexecs);
	strcpy(vm.comm, "other");
	run(&vm, bp_follow__gen_exec, 8, 0, 555);
	CHECK_INT(vm.nexecs, 1);
}

static void test_bad(void)
{
	struct bpf_insn insns[BP_FOLLOW_MAX_INSNS];
	struct bp_follow_cfg c = cfg;

	c.child_pid_off = 4;	/* a common field */
	CHECK_INT(bp_follow__gen_fork(&c, insns, BP_FOLLOW_MAX_INSNS), -EINVAL);
	c = cfg;
	c.free_pid_off = 14;
	CHECK_INT(bp_follow__gen_free(&c, insns, BP_FOLLOW_MAX_INSNS), -EINVAL);
	c = cfg;
	c.set_fd = -1;
	CHECK_INT(bp_follow__gen_exec(&c, insns, BP_FOLLOW_MAX_INSNS), -EINVAL);
	c = cfg;
	c.seed_fd = -1;
	CHECK_INT(bp_follow__gen_free(&c, insns, BP_FOLLOW_MAX_INSNS), -EINVAL);
	c = cfg;
	c.set_bytes = 12;	/* not whole words */
	CHECK_INT(bp_follow__gen_free(&c, insns, BP_FOLLOW_MAX_INSNS), -EINVAL);
	c.set_bytes = 0;
	CHECK_INT(bp_follow__gen_fork(&c, insns, BP_FOLLOW_MAX_INSNS), -EINVAL);
	CHECK_INT(bp_follow__gen_fork(&cfg, insns, 5), -E2BIG);
}

int main(void)
{
	RUN(test_fork);
	RUN(test_full);
	RUN(test_free);
	RUN(test_exec);
	RUN(test_bad);
	return TEST_EXIT();
}
