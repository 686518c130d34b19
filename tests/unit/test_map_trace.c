// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Map tracing's pure parts (probes/map/map_resolve.c): the guard that keeps a
 * point's program to its map, run in the strict interpreter at fentry (ctx
 * is the arguments' array) and, after bp_map_points__to_kprobes(), at a
 * kprobe (ctx is pt_regs); and the plans turned from ctx slots into
 * registers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>

#include "probes/map/map.h"
#include "prologue/arch.h"
#include "prologue/arch_x86_64.h"
#include "prologue/prologue.h"
#include "tests/unit/bpf_interp.h"
#include "tests/unit/insn.h"
#include "tests/unit/test.h"

#define MAP_ADDR	(KERN_BASE + 0x100)
#define KEY_ADDR	(KERN_BASE + 0x200)
#define ID_OFF		52
#define MAP_ID		4242

/* update(map, key, value, flags) with key[0]:u32 and flags fetched */
static struct bp_point point(void)
{
	struct bp_point pt = {
		.kernel = true,
		.plan = { .nargs = 2, .args = {
			{ .base = BP_BASE_CTX, .reg = 1, .nderef = 1, .size = 4 },
			{ .base = BP_BASE_CTX, .reg = 3, .size = 8 } } },
		.map = { .on = true, .id = MAP_ID, .id_off = ID_OFF, .map_arg = 0,
			 .fentry = true, .btf_id = 77 },
	};

	return pt;
}

/* Guards + prologue + EXIT, with the map's id and a key in kernel memory;
 * the argument words are put where the point's form reads them. */
static bool run(const struct bp_point *pt, uint32_t id, struct vm *vm,
		struct pt_regs_fake *regs, int *end)
{
	struct bpf_insn insns[BP_GUARDS_MAX_INSNS + BP_PROLOGUE_MAX_INSNS + 1];
	static uint8_t map[64], key[8];
	const uint64_t args[4] = { MAP_ADDR, KEY_ADDR, 0, 2 /* BPF_EXIST */ };
	struct bp_guards gs;
	int n, p;

	bp_map_point__guards(pt, &gs);
	CHECK_INT(gs.n, 1);
	n = bp_guards__gen(&gs, insns, BP_GUARDS_MAX_INSNS);
	CHECK(n > 0, "guards: %d", n);
	p = bp_prologue__gen(&pt->plan, 0, insns + n, BP_PROLOGUE_MAX_INSNS);
	CHECK(p > 0, "prologue: %d", p);
	if (n <= 0 || p <= 0)
		return false;
	insns[n + p] = EXIT_INSN;
	*end = n + p;
	memset(regs, 0, sizeof(*regs));
	for (int i = 0; i < 4; i++) {
		if (pt->map.fentry)
			regs->w[i] = args[i];
		else
			set_reg(regs, bp_arch__arg_reg(i), args[i]);
	}
	memset(map, 0, sizeof(map));
	put_u32(map, ID_OFF, id);
	put_u32(key, 0, 0xabcd1234);
	mem_reset();
	mem_add(false, MAP_ADDR, map, sizeof(map));
	mem_add(false, KEY_ADDR, key, sizeof(key));
	memset(vm, 0, sizeof(*vm));
	vm->ctx = regs;
	vm->r[1] = (struct vreg){ V_CTX, 0 };
	vm->r[10] = (struct vreg){ V_STACK, 0 };
	vm->allow_exit = true;
	vm_run(vm, insns, n + p + 1);
	CHECK(!vm->err[0], "%s", vm->err);
	return vm->exited;
}

static void check_form(const struct bp_point *pt)
{
	struct pt_regs_fake regs;
	struct vm vm;
	int end;

	if (!run(pt, MAP_ID, &vm, &regs, &end))
		return;
	CHECK(vm.exit_pc == end, "the traced map's update was refused");
	CHECK_INT(vm.r[2].v, 0);
	CHECK_INT(vm.r[3].v, 0xabcd1234);
	CHECK_INT(vm.r[4].v, 2);
	if (!run(pt, MAP_ID + 1, &vm, &regs, &end))
		return;
	CHECK(vm.exit_pc != end, "another map's update ran the program");
	CHECK_INT(vm.exit_r0, 0);
}

static void test_fentry_guard(void)
{
	struct bp_point pt = point();

	check_form(&pt);
}

static void test_kprobe_form(void)
{
	struct bp_point pt = point(), other = { .plan = pt.plan };
	struct bp_guards gs;

	bp_map_points__to_kprobes(&pt, 1);
	CHECK(!pt.map.fentry, "still fentry");
	CHECK_INT(pt.plan.args[0].base, BP_BASE_REG);
	CHECK_INT(pt.plan.args[0].reg, BP_REG_RSI);
	CHECK_INT(pt.plan.args[1].reg, BP_REG_RCX);
	bp_map_point__guards(&pt, &gs);
	CHECK_INT(gs.v[0].ctx_off, pt_off[BP_REG_RDI]);
	check_form(&pt);
	/* other points keep their plans and get no guard */
	bp_map_points__to_kprobes(&other, 1);
	CHECK_INT(other.plan.args[0].base, BP_BASE_CTX);
	bp_map_point__guards(&other, &gs);
	CHECK_INT(gs.n, 0);
}

int main(void)
{
	RUN(test_fentry_guard);
	RUN(test_kprobe_form);
	return TEST_EXIT();
}
