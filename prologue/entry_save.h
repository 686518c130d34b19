/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Entry values away from the entry: DWARF often describes a parameter
 * after a call only as the value a register had when the function was
 * entered (DW_OP_entry_value). A companion probe at the function's entry
 * runs the program generated here, which saves the registers into a hash
 * map keyed by the thread and the activation's CFA (the same number at the
 * entry and at every later point of that call, different for recursive
 * calls); a fetch's BP_XOP_ENTRY_REG reads them back (expr_gen.c), after
 * checking that the saved entry is this function's, so an activation the
 * companion missed (attached mid-call) fails the fetch instead of giving
 * another activation's value. Pure: map fds are only numbers here.
 */
#ifndef BPFPROBE_ENTRY_SAVE_H
#define BPFPROBE_ENTRY_SAVE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

/* The map's key. */
struct bp_entry_key {
	uint64_t pid_tgid;	/* bpf_get_current_pid_tgid() */
	uint64_t cfa;		/* the activation's canonical frame address */
};

/*
 * The map's value: the run-time address of the entry that saved it, then
 * every register bp_arch__nr_regs() numbers (8 bytes each, by DWARF
 * number; those pt_regs lacks are 0).
 */
#define BP_ENTRY_VALUE_ENTRY_OFF	0
#define BP_ENTRY_VALUE_REG_OFF(reg)	(8 + 8 * (reg))
size_t bp_entry__value_size(void);

/* How many entries the map holds (an LRU hash: the oldest go first). */
#define BP_ENTRY_MAP_ENTRIES	16384

/* Upper bound on bp_entry_save__gen()'s output. */
#define BP_ENTRY_SAVE_MAX_INSNS	64

/*
 * The companion program, whole (it ends in exit), for the map map_fd:
 * saves this activation's registers at a function's first instruction.
 * Returns the number of instructions, or -E2BIG.
 */
int bp_entry_save__gen(int map_fd, struct bpf_insn *insns, size_t max);

#endif /* BPFPROBE_ENTRY_SAVE_H */
