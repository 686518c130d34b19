// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A DWARF location in words, for messages and -v: "reg rdi", "CFA+8
 * (stack)", "global @0x4010", "*(rbp-20)", or the ops spelled one by one.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <dwarf.h>

#include "probes/dwarf/dwarf.h"
#include "probes/dwarf/loc_eval.h"
#include "probes/dwarf/types.h"
#include "prologue/arch.h"

/* "rbp", "xmm0", or "dwarf99" */
static const char *reg_name(uint64_t reg, char *buf, size_t len)
{
	if (reg >= 256) {
		snprintf(buf, len, "dwarf%" PRIu64, reg);
		return buf;
	}
	return bp_arch__reg_text((int)reg, buf, len);
}

/* The frame base as text: "CFA", "rbp", "rsp+8". */
static void frame_base_desc(const struct bp_arg_ctx *c, char *buf, size_t len)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	uint64_t reg;
	int64_t off;
	char rb[32];

	if (dwarf_attr_integrate(frame_func(c), DW_AT_frame_base, &attr) &&
	    dwarf_getlocation_addr(&attr, c->addr, &ops, &nops, 1) > 0 && nops == 1) {
		if (ops[0].atom == DW_OP_call_frame_cfa) {
			snprintf(buf, len, "CFA");
			return;
		}
		if (bp_loc_op_is_reg(&ops[0], &reg)) {
			snprintf(buf, len, "%s", reg_name(reg, rb, sizeof(rb)));
			return;
		}
		if (bp_loc_op_is_breg(&ops[0], &reg, &off)) {
			snprintf(buf, len, "%s%+" PRId64, reg_name(reg, rb, sizeof(rb)), off);
			return;
		}
	}
	snprintf(buf, len, "frame base");
}

/* " 8", " -20", " 7 8" (bregx): the operands of ops that have some */
static void op_operands(const Dwarf_Op *op, char *buf, size_t len)
{
	unsigned int a = op->atom;

	buf[0] = '\0';
	if ((a >= DW_OP_breg0 && a <= DW_OP_breg31) || a == DW_OP_fbreg ||
	    a == DW_OP_consts || a == DW_OP_const1s || a == DW_OP_const2s ||
	    a == DW_OP_const4s || a == DW_OP_const8s)
		snprintf(buf, len, " %" PRId64, (int64_t)op->number);
	else if (a == DW_OP_bregx || a == DW_OP_bit_piece)
		snprintf(buf, len, " %" PRIu64 " %" PRId64, op->number, (int64_t)op->number2);
	else if (a == DW_OP_addr)
		snprintf(buf, len, " 0x%" PRIx64, op->number);
	else if (a == DW_OP_constu || a == DW_OP_const1u || a == DW_OP_const2u ||
		 a == DW_OP_const4u || a == DW_OP_const8u || a == DW_OP_plus_uconst ||
		 a == DW_OP_deref_size || a == DW_OP_regx || a == DW_OP_piece)
		snprintf(buf, len, " %" PRIu64, op->number);
}

/* Human form of the expression: the common shapes get a short name, the
 * rest is spelled op by op. */
void bp_loc_describe(const struct bp_arg_ctx *c, Dwarf_Attribute *attr,
		     Dwarf_Op *ops, size_t nops, char *buf, size_t len)
{
	Dwarf_Attribute res;
	Dwarf_Addr addr;
	char rb[32], fb[64], nb[32], ob[48];
	size_t i, pos = 0;
	uint64_t reg;
	int64_t off;

	if (nops == 1 && bp_loc_op_is_reg(&ops[0], &reg)) {
		snprintf(buf, len, "reg %s", reg_name(reg, rb, sizeof(rb)));
		return;
	}
	if (nops == 1 && ops[0].atom == DW_OP_fbreg) {
		off = (int64_t)ops[0].number;
		frame_base_desc(c, fb, sizeof(fb));
		/* at or above the CFA: the caller's outgoing arguments */
		snprintf(buf, len, "%s%+" PRId64 " (%s)", fb, off,
			 !strcmp(fb, "CFA") && off >= 0 ? "stack" : "frame");
		return;
	}
	if (nops == 1 && ops[0].atom == DW_OP_call_frame_cfa) {
		snprintf(buf, len, "CFA (stack)");
		return;
	}
	if (nops == 1 && ops[0].atom == DW_OP_addr) {
		snprintf(buf, len, "global @0x%" PRIx64, ops[0].number);
		return;
	}
	if (nops == 1 && (ops[0].atom == DW_OP_addrx || ops[0].atom == DW_OP_GNU_addr_index) &&
	    !dwarf_getlocation_attr(attr, &ops[0], &res) && !dwarf_formaddr(&res, &addr)) {
		snprintf(buf, len, "global @0x%" PRIx64, addr);
		return;
	}
	if (nops == 1 && bp_loc_op_is_breg(&ops[0], &reg, &off)) {
		snprintf(buf, len, "*(%s%+" PRId64 ")", reg_name(reg, rb, sizeof(rb)), off);
		return;
	}
	if (nops == 2 && bp_loc_op_is_breg(&ops[0], &reg, &off) &&
	    ops[1].atom == DW_OP_stack_value) {
		snprintf(buf, len, "value %s%+" PRId64, reg_name(reg, rb, sizeof(rb)), off);
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < nops && pos < len; i++) {
		op_operands(&ops[i], ob, sizeof(ob));
		pos += snprintf(buf + pos, len - pos, "%s%s%s", i ? ", " : "",
				bp_dw_op_name(ops[i].atom, nb, sizeof(nb)), ob);
	}
}
