/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One argument of an SDT marker as its note writes it: "[-]N@OPERAND",
 * N bytes (1, 2, 4 or 8), signed with the '-', and OPERAND in the
 * assembler's AT&T syntax of x86-64 (what gcc and clang emit for the
 * marker's "nor" constraint):
 *   %REG                           a register of any width (%rax %eax %ax %al %ah)
 *   $IMM                           a constant
 *   DISP(%BASE) DISP(%BASE,%INDEX,SCALE) (,%INDEX,SCALE)
 *                                  memory at BASE + INDEX * SCALE + DISP
 *   SYM(%rip) SYM+OFF(%rip) OFF+SYM(%rip)
 *                                  memory at a symbol (+ OFF)
 *   ADDR                           memory at an absolute address
 */
#ifndef BPFPROBE_SDT_OPERAND_H
#define BPFPROBE_SDT_OPERAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum bp_sdt_kind {
	BP_SDT_REG,
	BP_SDT_IMM,
	BP_SDT_MEM,
};

struct bp_sdt_operand {
	int size;		/* bytes */
	bool is_signed;
	enum bp_sdt_kind kind;
	/* BP_SDT_REG: the register's DWARF number, and the part of it */
	int reg;
	int reg_bytes;
	int reg_bit_off;
	int64_t imm;		/* BP_SDT_IMM */
	/* BP_SDT_MEM: the address is base + index * scale + disp, plus sym's
	 * address when sym is set (base is then %rip, or none); base and
	 * index are DWARF numbers, -1 when absent */
	int base;
	int index;
	int scale;
	int64_t disp;
	char sym[128];
};

/*
 * Parses the arg-th (from 0) argument of args, the note's specs, into op.
 * Returns 0, -ENOENT when args has fewer, or -EINVAL with why (naming the
 * operand: an xmm register, a syntax no compiler writes).
 */
int bp_sdt_operand__parse(const char *args, int arg, struct bp_sdt_operand *op, char *why,
			  size_t len);

#endif /* BPFPROBE_SDT_OPERAND_H */
