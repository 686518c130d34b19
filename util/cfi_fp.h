/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Whether x86-64 code keeps a frame pointer, read from its CFI: at one
 * address (what the CFA rule is there), and for a whole module (whether
 * every function its .eh_frame describes sets the CFA to rbp + 16 after
 * its prologue). The frame-pointer way of $ustack (docs/output.md, "Stacks")
 * is chosen from the second (probes/) and checked frame by frame with the
 * first (unwind/).
 */
#ifndef BPFPROBE_CFI_FP_H
#define BPFPROBE_CFI_FP_H

#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>

/* The CFA rule at one address. */
enum bp_cfa_rule {
	BP_CFA_NONE = 0,	/* no CFI covers the address */
	BP_CFA_ENTRY,		/* rsp + 8: a function's first instruction */
	BP_CFA_RBP,		/* rbp + 16: the frame pointer holds the frame, as a
				 * frame-pointer walk reads it */
	BP_CFA_OTHER,		/* rsp + N (N != 8), rbp + N (N != 16), another
				 * register, an expression */
};

/* The rule at addr (link-time address of cfi's module); *outermost (may
 * be NULL) is set when the CFI marks the return address undefined there:
 * no caller (_start, a thread's start). */
enum bp_cfa_rule bp_cfa__rule(Dwarf_CFI *cfi, Dwarf_Addr addr, bool *outermost);

/* Functions this short (bytes) need no frame pointer: a jump, a return. */
#define BP_FP_SHORT_FUNC	16

struct bp_fp_verdict {
	bool keeps;		/* every function checked keeps one */
	unsigned int nfuncs;	/* FDEs read */
	unsigned int nchecked;	/* of them, checked (not short, not PLT, not outermost) */
	uint64_t bad_addr;	/* !keeps: the first function that keeps none */
};

/*
 * Whether every function described by elf's .eh_frame keeps its callers'
 * frame-pointer chain whole: some row of its FDE has a CFA rule rbp + 16
 * (it keeps a frame pointer), or every row is rsp + 8 (it never moves rsp:
 * a leaf, whose caller is at [rsp]). Functions of at most
 * BP_FP_SHORT_FUNC bytes, PLT entries and functions whose return address
 * is undefined (no caller) are not asked. Returns 0
 * with *v filled, -ENODATA when elf has no .eh_frame, -EINVAL when the
 * CFI cannot be read (an encoding not understood), -ENOMEM.
 */
int bp_cfi_fp__module(Elf *elf, struct bp_fp_verdict *v);

#endif /* BPFPROBE_CFI_FP_H */
