/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The machine, as the resolvers and the prologue need it: registers by
 * their DWARF numbers (what a fetch plan names), where the kernel's struct
 * pt_regs keeps them, and the C calling convention. One file implements
 * this per architecture (arch_x86_64.c); a port is one more such file,
 * chosen by the Makefile.
 */
#ifndef BPFPROBE_ARCH_H
#define BPFPROBE_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Byte offset of DWARF register reg in struct pt_regs, -1 if it has none. */
int bp_arch__pt_regs_off(int reg);

/* The name of a register pt_regs holds ("rdi"); NULL for others. */
const char *bp_arch__reg_name(int reg);

/*
 * Any DWARF register as text, for messages: its name, a floating-point or
 * vector register's ("xmm3"), else "dwarfN". Returns buf or a constant.
 */
const char *bp_arch__reg_text(int reg, char *buf, size_t len);

/*
 * A floating-point or vector register, which pt_regs does not hold: what
 * it is ("floating-point register xmm0") in buf, returned; NULL for any
 * other register.
 */
const char *bp_arch__fp_reg(int reg, char *buf, size_t len);

/* The instruction pointer, the integer return value. */
int bp_arch__ip_reg(void);
int bp_arch__ret_reg(void);

/* How many DWARF register numbers there are from 0 on, pt_regs holding
 * some of them (bp_arch__pt_regs_off): the entry-value map saves these. */
int bp_arch__nr_regs(void);

/* The stack pointer, and the CFA at a function's first instruction as an
 * offset from it (x86-64: the return address was just pushed, +8). */
int bp_arch__sp_reg(void);
int bp_arch__entry_cfa_off(void);

/*
 * The thread pointer of the current user thread, as a BPF program finds
 * it: a member of the kernel's struct task_struct (x86-64: thread.fsbase),
 * its offset read from the running kernel's BTF (cached). 0 or a negative
 * errno, and what failed in why (a whole sentence).
 */
int bp_arch__task_tp_off(int64_t *off, char *why, size_t len);

/*
 * The C library's thread control block behind the thread pointer (glibc
 * on x86-64: TLS variant II): where the pointer to the DTV is, relative to
 * the thread pointer, and the size of one DTV entry, whose first word is
 * the address of that module's TLS block (entry 1: the executable's).
 */
int bp_arch__tls_dtv_off(void);
int bp_arch__tls_dtv_entry_size(void);

/* What a dynamic relocation type means for thread-locals. */
enum bp_tls_reloc {
	BP_TLS_RELOC_NONE = 0,
	BP_TLS_RELOC_TPOFF,	/* the slot gets the symbol's offset from the
				 * thread pointer (initial-exec accesses) */
	BP_TLS_RELOC_DTPMOD,	/* the slot gets the symbol's module id
				 * (general-dynamic accesses) */
};
enum bp_tls_reloc bp_arch__tls_reloc(uint32_t type);

/* How many integer arguments arrive in registers, and the i-th of them
 * (from 0), or -1 past the last. */
int bp_arch__nr_arg_regs(void);
int bp_arch__arg_reg(int i);

/*
 * A register named as perf probe and ftrace's probe events name them
 * (without the '%': "di", "ax", "ip", "flags", "r8") or by its own name
 * ("rdi", "rip"): its DWARF number, or -1 when name (len bytes) is none.
 * Every register it names is in pt_regs (bp_arch__pt_regs_off).
 */
int bp_arch__reg_by_name(const char *name, size_t len);

/*
 * A general register or part of one by its assembler name ("rax", "eax",
 * "ax", "al", "ah", "r8d", "r8w", "r8b", "sil"): its DWARF number, the
 * part's size in bytes and its bit offset in the register (8 for "ah");
 * -1 when name (len bytes) is none (an xmm register included).
 */
int bp_arch__reg_part_by_name(const char *name, size_t len, int *bytes, int *bit_off);

/* The names bp_arch__reg_by_name takes, for messages:
 * "%ax %bx ... (or %rax %rbx ...)". */
const char *bp_arch__reg_names(void);

#endif /* BPFPROBE_ARCH_H */
