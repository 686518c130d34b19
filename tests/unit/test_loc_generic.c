// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * DWARF's generic type computes in 64 bits (probes/value/value.h, typed):
 * a value DW_OP_deref_size read narrower is zero-extended to it, and the
 * arithmetic after it does not wrap in the read's size. liblua5.4's
 * luaM_shrinkvector_ describes oldsize as
 *   DW_OP_breg1 0; DW_OP_deref_size 4; DW_OP_breg8 0; DW_OP_mul;
 *   DW_OP_const1u 32; DW_OP_shl; DW_OP_const1u 32; DW_OP_shra
 * (an int product, sign-extended): wrapping the product and the shift in
 * 32 bits gave 0 (found by the differential test against gdb, tests/diff).
 * Expressions built by the evaluator (loc_eval.c) from ops written here are
 * computed by the reference model of fetch expressions (fetch_model.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/loc_eval.h"
#include "prologue/arch.h"
#include "tests/unit/bpf_interp.h"
#include "tests/unit/fetch_model.h"
#include "tests/unit/test.h"

#define REG_RDX	1
#define REG_R8	8

/* The value ops compute with rdx pointing at mem (u64 word) and r8 = r8. */
static bool eval(const Dwarf_Op *ops, size_t n, uint64_t word, uint64_t r8, uint64_t *out)
{
	struct pt_regs_fake regs = {};
	struct bp_arg_dwarf dw = {};
	struct bp_diag d = {};
	struct bp_arg_ctx c = { .dw = &dw, .where = "test", .arg = "x", .addr = 0x1000,
				.user = true, .diag = &d };
	struct model_env env = { .regs = &regs };
	Dwarf_Op copy[16];
	struct bp_val v;
	uint8_t mem[8];
	int err;

	memcpy(copy, ops, n * sizeof(*ops));
	err = bp_loc_eval(&c, NULL, 0, copy, n, &v);
	CHECK(!err, "evaluation failed: %s", d.msg);
	if (err)
		return false;
	err = bp_val__flatten(&c, &v);
	CHECK(!err, "flatten failed: %s", d.msg);
	if (err)
		return false;
	v.f.size = 8;
	mem_reset();
	put_u64(mem, 0, word);
	mem_add(true, USER_BASE, mem, sizeof(mem));
	set_reg(&regs, REG_RDX, USER_BASE);
	set_reg(&regs, REG_R8, r8);
	return ref_fetch(&v.f, &env, out);
}

#define OP(a, n) { .atom = (a), .number = (n) }

static void test_product_shifted(void)
{
	static const Dwarf_Op oldsize[] = {
		OP(DW_OP_breg1, 0), OP(DW_OP_deref_size, 4), OP(DW_OP_breg8, 0),
		OP(DW_OP_mul, 0), OP(DW_OP_const1u, 32), OP(DW_OP_shl, 0),
		OP(DW_OP_const1u, 32), OP(DW_OP_shra, 0), OP(DW_OP_stack_value, 0),
	};
	uint64_t v;

	/* *size 16 (the upper half of the word is not read), size_elem 8 */
	CHECK(eval(oldsize, 9, 0xdeadbeef00000010ULL, 8, &v) && v == 128,
	      "16 * 8: got 0x%" PRIx64, v);
	/* *size -1 as an int: the product's low 32 bits are -3's */
	CHECK(eval(oldsize, 9, 0xffffffffULL, 3, &v) && v == (uint64_t)-3,
	      "-1 * 3: got 0x%" PRIx64, v);
}

static void test_narrow_read_then_add(void)
{
	static const Dwarf_Op plus[] = {
		OP(DW_OP_breg1, 0), OP(DW_OP_deref_size, 1), OP(DW_OP_breg8, 0),
		OP(DW_OP_plus, 0), OP(DW_OP_stack_value, 0),
	};
	static const Dwarf_Op uconst[] = {
		OP(DW_OP_breg1, 0), OP(DW_OP_deref_size, 1), OP(DW_OP_lit1, 0),
		OP(DW_OP_shl, 0), OP(DW_OP_plus_uconst, 0x100), OP(DW_OP_stack_value, 0),
	};
	uint64_t v;

	/* a byte 0xff plus 0x100: 0x1ff, not a byte */
	CHECK(eval(plus, 5, 0xff, 0x100, &v) && v == 0x1ff, "0xff + 0x100: got 0x%" PRIx64, v);
	CHECK(eval(uconst, 6, 0xff, 0, &v) && v == 0x2fe, "(0xff << 1) + 0x100: got 0x%" PRIx64, v);
	/* the read itself keeps its size: the word's other bytes are not it */
	CHECK(eval(plus, 5, 0x1234ff, 0, &v) && v == 0xff, "0xff + 0: got 0x%" PRIx64, v);
}

int main(void)
{
	RUN(test_product_shifted);
	RUN(test_narrow_read_then_add);
	return TEST_EXIT();
}
