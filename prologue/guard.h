/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Guards: conditions checked before a program's prologue fetches anything.
 * When one fails, the program does not run: the code returns 0 at once,
 * after counting the refusal when asked to. They keep a session's probes
 * to the processes it follows (a set of tgids the loader keeps current),
 * and a map-tracing program to its map (a kernel value compared with a
 * constant). Pure: no kernel needed; map fds are only numbers here.
 *
 * Contract of the generated code: it runs first, with r1 = ctx, and falls
 * through with r1 = ctx when every guard passes. It may use r0..r6 and the
 * 8 bytes at r10-16 (the prologue uses r10-8); it leaves nothing else
 * defined, so the prologue that follows sets what the program reads.
 * Guards and counts live in maps the caller creates; only their fds are
 * written into the code (ldimm64 of a map fd).
 */
#ifndef BPFPROBE_GUARD_H
#define BPFPROBE_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

#define BP_MAX_GUARDS	2

enum bp_guard_kind {
	/* the current process's tgid (bpf_get_current_pid_tgid() >> 32, a
	 * global pid) is a key of set_fd, a hash map with __u32 keys */
	BP_GUARD_TGID_IN_SET = 1,
	/* the kernel __u32 at (*(u64 *)(ctx + ctx_off)) + off equals value;
	 * a failed read refuses too. ctx_off picks an argument: its pt_regs
	 * offset at a kprobe, 8 * its index at fentry/fexit */
	BP_GUARD_KERNEL_U32_EQ,
	/* the current tgid's bit is set in set_fd, an array map of __u64
	 * words (key tgid / 64, bit tgid % 64; the verifier inlines the
	 * lookup, so the check costs no map call); a tgid past its end
	 * refuses. gated and gate_fd as for TGID_IN_SET */
	BP_GUARD_TGID_IN_BITMAP,
};

/* Words a bitmap of every possible pid takes: PID_MAX_LIMIT (4M on 64-bit
 * kernels, the most /proc/sys/kernel/pid_max may say) bits. */
#define BP_PID_BITMAP_WORDS	(4194304 / 64)

struct bp_guard {
	enum bp_guard_kind kind;
	int set_fd;		/* TGID_IN_SET */
	/* TGID_IN_SET, TGID_IN_BITMAP: when gated, the guard holds for
	 * every process unless the __u32 at byte gate_off of gate_fd's value
	 * (an array map of one entry, read in place: BPF_PSEUDO_MAP_VALUE) is
	 * non-zero: a program loaded once is switched between "every
	 * process" and "the set" when it is attached */
	bool gated;
	int gate_fd;
	uint32_t gate_off;
	uint16_t ctx_off;	/* KERNEL_U32_EQ */
	int32_t off;
	uint32_t value;
};

struct bp_guards {
	int n;			/* 0: no guard, no code */
	struct bp_guard v[BP_MAX_GUARDS];
	/* >= 0: a per-CPU array map of __u64 values: entry count_base + i
	 * counts the hits guard i refused; -1: nothing counted */
	int refused_fd;
	uint32_t count_base;
	/* mark_ran: the __u64 at byte ran_off of ran_fd's value (an array map
	 * of one entry, read in place) is set to 1 when a run passes every
	 * guard, once: a flag, not a count, so a hot probe writes nothing
	 * (with n = 0 the code is that mark alone). Every memory line a hit
	 * touches costs (the uprobe's trap evicts them): keep the gate and
	 * the mark in one */
	bool mark_ran;
	int ran_fd;
	uint32_t ran_off;
};

/* Upper bound on bp_guards__gen()'s output. */
#define BP_GUARDS_MAX_INSNS	64

/*
 * Writes the code of guards into insns (room for max). Returns the number
 * of instructions (0 for no guard), or -EINVAL (a bad guard) / -E2BIG.
 */
int bp_guards__gen(const struct bp_guards *guards, struct bpf_insn *insns, size_t max);

#endif /* BPFPROBE_GUARD_H */
