// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* x86-64: DWARF register numbers, struct pt_regs, the System V ABI. */
#include <stdio.h>

#include "prologue/arch.h"
#include "prologue/arch_x86_64.h"

/* Index is the DWARF number; off is the byte offset in struct pt_regs. */
static const struct {
	const char *name;
	int off;
} regs[BP_REG_MAX] = {
	[BP_REG_RAX] = { "rax", 80 },
	[BP_REG_RDX] = { "rdx", 96 },
	[BP_REG_RCX] = { "rcx", 88 },
	[BP_REG_RBX] = { "rbx", 40 },
	[BP_REG_RSI] = { "rsi", 104 },
	[BP_REG_RDI] = { "rdi", 112 },
	[BP_REG_RBP] = { "rbp", 32 },
	[BP_REG_RSP] = { "rsp", 152 },
	[BP_REG_R8]  = { "r8", 72 },
	[BP_REG_R9]  = { "r9", 64 },
	[BP_REG_R10] = { "r10", 56 },
	[BP_REG_R11] = { "r11", 48 },
	[BP_REG_R12] = { "r12", 24 },
	[BP_REG_R13] = { "r13", 16 },
	[BP_REG_R14] = { "r14", 8 },
	[BP_REG_R15] = { "r15", 0 },
	[BP_REG_RIP] = { "rip", 128 },
};

/* integer arguments, in order */
static const int arg_regs[] = {
	BP_REG_RDI, BP_REG_RSI, BP_REG_RDX, BP_REG_RCX, BP_REG_R8, BP_REG_R9,
};

int bp_arch__pt_regs_off(int reg)
{
	if (reg < 0 || reg >= BP_REG_MAX)
		return -1;
	return regs[reg].off;
}

const char *bp_arch__reg_name(int reg)
{
	if (reg < 0 || reg >= BP_REG_MAX)
		return NULL;
	return regs[reg].name;
}

const char *bp_arch__reg_text(int reg, char *buf, size_t len)
{
	const char *name = bp_arch__reg_name(reg);

	if (name)
		return name;
	if (reg >= BP_REG_XMM0 && reg <= BP_REG_XMM15)
		snprintf(buf, len, "xmm%d", reg - BP_REG_XMM0);
	else
		snprintf(buf, len, "dwarf%d", reg);
	return buf;
}

const char *bp_arch__fp_reg(int reg, char *buf, size_t len)
{
	if (reg >= BP_REG_XMM0 && reg <= BP_REG_XMM15)
		snprintf(buf, len, "floating-point register xmm%d", reg - BP_REG_XMM0);
	else if (reg >= BP_REG_ST0 && reg <= BP_REG_MM7)
		snprintf(buf, len, "x87/MMX register (DWARF %d)", reg);
	else
		return NULL;
	return buf;
}

int bp_arch__ip_reg(void)
{
	return BP_REG_RIP;
}

int bp_arch__ret_reg(void)
{
	return BP_REG_RAX;
}

int bp_arch__nr_arg_regs(void)
{
	return (int)(sizeof(arg_regs) / sizeof(arg_regs[0]));
}

int bp_arch__arg_reg(int i)
{
	return i >= 0 && i < bp_arch__nr_arg_regs() ? arg_regs[i] : -1;
}
