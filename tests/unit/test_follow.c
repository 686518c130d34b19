// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The follow programs (prologue/follow_progs.c) in the strict interpreter
 * (bpf_interp.h): a fake tracepoint record as ctx, a fake current task, a
 * fake bitmap, reached in place (no map call). A followed parent's child
 * joins; another's does not; a freed pid leaves, and its word's other bits
 * stay; a pid past the bitmap is counted; a followed exec records its
 * comm, and when the session watches execs, its pid goes into the ring
 * buffer, held (SIGSTOP) at every exec or when its root (a fake task's
 * fs->root) is not its parent's, let go (SIGCONT) when the ring buffer is
 * full.
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
#define WATCH_FD	14
#define EVENTS_FD	15

static const struct bp_follow_cfg cfg = {
	.set_fd = SET_FD, .set_bytes = VM_BITS_BYTES, .seed_fd = SEED_FD, .stats_fd = STATS_FD, .execs_fd = EXECS_FD,
	.child_pid_off = CHILD_OFF, .free_pid_off = FREE_OFF,
};

typedef int (*gen_fn)(const struct bp_follow_cfg *, struct bpf_insn *, size_t);

/* Runs the program gen makes from c in vm, the record's field at off = value. */
static void run_cfg(struct vm *vm, const struct bp_follow_cfg *c, gen_fn gen, int off,
		    uint32_t value, uint32_t tgid)
{
	struct bpf_insn insns[BP_FOLLOW_MAX_INSNS];
	struct pt_regs_fake rec = {};
	int n = gen(c, insns, BP_FOLLOW_MAX_INSNS);

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

static void run(struct vm *vm, gen_fn gen, int off, uint32_t value, uint32_t tgid)
{
	run_cfg(vm, &cfg, gen, off, value, tgid);
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

/* a fake task and its parent, each with its fs_struct */
#define T_FS		16
#define T_PARENT	24
#define FS_ROOT		8
#define TASK		(KERN_BASE + 0x1000)
#define PARENT		(KERN_BASE + 0x2000)
#define FS		(KERN_BASE + 0x3000)
#define PFS		(KERN_BASE + 0x4000)

static uint8_t task_mem[64], parent_mem[64], fs_mem[32], pfs_mem[32];

/* The parent's root is {mnt 0x100, dentry 0x200}; the task's {mnt, dentry}. */
static void fake_tasks(uint64_t mnt, uint64_t dentry, bool parent_mapped)
{
	mem_reset();
	put_u64(task_mem, T_FS, FS);
	put_u64(task_mem, T_PARENT, PARENT);
	put_u64(parent_mem, T_FS, PFS);
	put_u64(fs_mem, FS_ROOT, mnt);
	put_u64(fs_mem, FS_ROOT + 8, dentry);
	put_u64(pfs_mem, FS_ROOT, 0x100);
	put_u64(pfs_mem, FS_ROOT + 8, 0x200);
	mem_add(false, TASK, task_mem, sizeof(task_mem));
	if (parent_mapped)
		mem_add(false, PARENT, parent_mem, sizeof(parent_mem));
	mem_add(false, FS, fs_mem, sizeof(fs_mem));
	mem_add(false, PFS, pfs_mem, sizeof(pfs_mem));
	fake_task = TASK;
}

/* One exec of pid 100 (followed) under watch mode; its one event's held flag. */
static void watch_exec(struct vm *vm, const struct bp_follow_cfg *c, uint32_t mode)
{
	uint32_t ev[2] = {};

	*vm = (struct vm){ .comm = "lua5.4", .gate_fd = WATCH_FD, .gate = mode,
			   .events_fd = EVENTS_FD };
	add(vm, 100);
	run_cfg(vm, c, bp_follow__gen_exec, 8, 0, 100);
	CHECK_INT(vm->nexecs, 1);
	if (vm->nevents)
		memcpy(ev, vm->events[0], sizeof(ev));
	CHECK(!vm->nevents || ev[0] == 100, "event of pid %u", ev[0]);
	CHECK(!vm->nevents || ev[1] == (vm->nsignals && vm->signals[0] == 19 && !vm->signal_ret),
	      "held %u, %d signals", ev[1], vm->nsignals);
}

static void test_exec_watch(void)
{
	struct bp_follow_cfg c = cfg;
	struct vm vm;

	c.watch = true;
	c.watch_fd = WATCH_FD;
	c.events_fd = EVENTS_FD;
	/* the watch off: the comm alone */
	watch_exec(&vm, &c, 0);
	CHECK(!vm.nevents && !vm.nsignals, "%d events, %d signals", vm.nevents, vm.nsignals);
	/* events: one per exec, nothing held */
	watch_exec(&vm, &c, BP_WATCH_EVENTS);
	CHECK(vm.nevents == 1 && !vm.nsignals, "%d events, %d signals", vm.nevents, vm.nsignals);
	/* every exec held */
	watch_exec(&vm, &c, BP_WATCH_EVENTS | BP_WATCH_HOLD_ALL);
	CHECK(vm.nevents == 1 && vm.nsignals == 1 && vm.signals[0] == 19,
	      "%d events, %d signals", vm.nevents, vm.nsignals);
	/* not followed: nothing */
	vm = (struct vm){ .gate_fd = WATCH_FD, .gate = BP_WATCH_EVENTS | BP_WATCH_HOLD_ALL,
			  .events_fd = EVENTS_FD };
	run_cfg(&vm, &c, bp_follow__gen_exec, 8, 0, 555);
	CHECK(!vm.nevents && !vm.nsignals && !vm.nexecs, "not followed: %d events", vm.nevents);
	/* roots compared without offsets: nothing held */
	fake_tasks(0x100, 0x999, true);
	watch_exec(&vm, &c, BP_WATCH_EVENTS | BP_WATCH_HOLD_ROOT);
	CHECK(vm.nevents == 1 && !vm.nsignals, "no offsets: %d signals", vm.nsignals);
	c.task = (struct bp_task_offsets){ .task_fs = T_FS, .task_parent = T_PARENT,
					   .fs_root = FS_ROOT };
	/* its parent's root: not held */
	fake_tasks(0x100, 0x200, true);
	watch_exec(&vm, &c, BP_WATCH_EVENTS | BP_WATCH_HOLD_ROOT);
	CHECK(vm.nevents == 1 && !vm.nsignals, "same root: %d signals", vm.nsignals);
	/* a chroot (another dentry), a mount namespace (another mount): held */
	fake_tasks(0x100, 0x999, true);
	watch_exec(&vm, &c, BP_WATCH_EVENTS | BP_WATCH_HOLD_ROOT);
	CHECK(vm.nevents == 1 && vm.nsignals == 1, "chroot: %d signals", vm.nsignals);
	fake_tasks(0x999, 0x200, true);
	watch_exec(&vm, &c, BP_WATCH_EVENTS | BP_WATCH_HOLD_ROOT);
	CHECK(vm.nevents == 1 && vm.nsignals == 1, "mount ns: %d signals", vm.nsignals);
	/* a read that faults: the event, nothing held */
	fake_tasks(0x100, 0x999, false);
	watch_exec(&vm, &c, BP_WATCH_EVENTS | BP_WATCH_HOLD_ROOT);
	CHECK(vm.nevents == 1 && !vm.nsignals, "fault: %d signals", vm.nsignals);
	/* SIGSTOP refused: the event says it is not held */
	fake_tasks(0x100, 0x999, true);
	vm = (struct vm){ .comm = "lua5.4", .gate_fd = WATCH_FD, .events_fd = EVENTS_FD,
			  .gate = BP_WATCH_EVENTS | BP_WATCH_HOLD_ALL, .signal_ret = (uint64_t)-1 };
	add(&vm, 100);
	run_cfg(&vm, &c, bp_follow__gen_exec, 8, 0, 100);
	CHECK(vm.nevents == 1 && vm.events[0][4] == 0, "refused stop: held %u", vm.events[0][4]);
	/* the ring buffer full: no one will look, the held process goes on */
	vm = (struct vm){ .comm = "lua5.4", .gate_fd = WATCH_FD, .events_fd = EVENTS_FD,
			  .gate = BP_WATCH_EVENTS | BP_WATCH_HOLD_ALL,
			  .ringbuf_ret = (uint64_t)-EAGAIN };
	add(&vm, 100);
	run_cfg(&vm, &c, bp_follow__gen_exec, 8, 0, 100);
	CHECK(!vm.nevents && vm.nsignals == 2 && vm.signals[0] == 19 && vm.signals[1] == 18,
	      "full ring: %d signals", vm.nsignals);
	mem_reset();
	fake_task = 0;
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
	c.watch = true;
	c.watch_fd = WATCH_FD;
	c.events_fd = -1;
	CHECK_INT(bp_follow__gen_exec(&c, insns, BP_FOLLOW_MAX_INSNS), -EINVAL);
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
	RUN(test_exec_watch);
	RUN(test_bad);
	return TEST_EXIT();
}
