/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* x86-64 DWARF register numbers (System V psABI), for code and tests that
 * are about x86-64 itself; the rest of bpfprobe asks prologue/arch.h. */
#ifndef BPFPROBE_ARCH_X86_64_H
#define BPFPROBE_ARCH_X86_64_H

enum bp_dwarf_reg {
	BP_REG_RAX = 0, BP_REG_RDX, BP_REG_RCX, BP_REG_RBX,
	BP_REG_RSI, BP_REG_RDI, BP_REG_RBP, BP_REG_RSP,
	BP_REG_R8, BP_REG_R9, BP_REG_R10, BP_REG_R11,
	BP_REG_R12, BP_REG_R13, BP_REG_R14, BP_REG_R15,
	BP_REG_RIP, BP_REG_MAX,
};

/* registers pt_regs does not hold */
#define BP_REG_XMM0	17
#define BP_REG_XMM15	32
#define BP_REG_ST0	33
#define BP_REG_MM7	48
/* in pt_regs, but past the run of registers numbered from 0 */
#define BP_REG_RFLAGS	49

#endif /* BPFPROBE_ARCH_X86_64_H */
