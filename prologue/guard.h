/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Guards: conditions checked before a program's prologue fetches anything.
 * When one fails, the program does not run: the code returns 0 at once,
 * after counting the refusal when asked to. They keep a session's probes
 * to the processes it follows (a bitmap of pids the loader and the follow
 * programs keep current), and a map-tracing program to its map (a kernel
 * value compared with a constant). Behind them, a run that passed may be
 * marked, for the report of programs that never ran. Pure: no kernel
 * needed; map fds are only numbers here.
 *
 * Contract of the generated code: it runs first, with r1 = ctx, and falls
 * through with r1 = ctx when every guard passes. It may use r0..r7 and,
 * on a refusal's path only, the 8 bytes at r10-16; it leaves nothing else
 * defined, so the prologue that follows sets what the program reads. The
 * mark alone uses r0 only.
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
	 * global pid) has its bit set in set_fd: an array map of one value,
	 * set_bytes bytes of bitmap, read in place (BPF_PSEUDO_MAP_VALUE)
	 * and indexed directly, so the check calls no map helper: bit
	 * tgid % 8 of byte tgid / 8 (which is bit tgid % 64 of the
	 * little-endian __u64 word tgid / 64, which the follow programs
	 * change atomically); a tgid past its end refuses. With seed, the
	 * __u32 of seed_fd's value (an array map of one value, small:
	 * kmalloc'ed memory, which the TLB reaches at once) is a tgid that
	 * passes without its bit being read (0: none, the idle task runs no
	 * user code): the process the session follows from, where most hits
	 * come from, as long as it lives (the follow programs clear it when
	 * it is freed). It is read before the helper call, so its load
	 * overlaps the call, where the bit's load has to wait for the tgid */
	BP_GUARD_TGID_IN_BITMAP = 1,
	/* the kernel __u32 at (*(u64 *)(ctx + ctx_off)) + off equals value;
	 * a failed read refuses too. ctx_off picks an argument: its pt_regs
	 * offset at a kprobe, 8 * its index at fentry/fexit */
	BP_GUARD_KERNEL_U32_EQ,
};

/* Bytes a bitmap of every possible pid takes: PID_MAX_LIMIT (4M on 64-bit
 * kernels, the most /proc/sys/kernel/pid_max may say, in any PID
 * namespace) bits. The tgids the guard sees are global pids, so the
 * bitmap covers them all whatever pid_max or a namespace says. */
#define BP_PID_BITMAP_BYTES	(4194304 / 8)

struct bp_guard {
	enum bp_guard_kind kind;
	int set_fd;		/* TGID_IN_BITMAP */
	uint32_t set_bytes;	/* TGID_IN_BITMAP: the bitmap's size */
	bool seed;		/* TGID_IN_BITMAP: seed_fd holds one */
	int seed_fd;
	uint16_t ctx_off;	/* KERNEL_U32_EQ */
	int32_t off;
	uint32_t value;
};

struct bp_guards {
	int n;			/* 0: no guard */
	struct bp_guard v[BP_MAX_GUARDS];
	/* >= 0: a per-CPU array map of __u64 values: entry count_base + i
	 * counts the hits guard i refused, on the refusal's path only;
	 * -1: nothing counted */
	int refused_fd;
	uint32_t count_base;
	/* mark_ran: the byte at ran_off of ran_fd's value (an array map of
	 * one entry, written in place) is set to 1 by every run that passes
	 * every guard. A plain store, not a test: a store waits for no
	 * memory line, where a load of one the uprobe's trap evicted costs
	 * about what the rest of a small program does; and no load, no
	 * branch. Give each instance its own memory line, so that hot
	 * probes on different CPUs do not share one. With n = 0 the code is
	 * that mark alone (3 instructions) */
	bool mark_ran;
	int ran_fd;
	uint32_t ran_off;
};

/* Upper bound on bp_guards__gen()'s output. */
#define BP_GUARDS_MAX_INSNS	64

/*
 * Writes the code of guards into insns (room for max). Returns the number
 * of instructions (0 for no guard and no mark), or -EINVAL (a bad guard)
 * / -E2BIG.
 */
int bp_guards__gen(const struct bp_guards *guards, struct bpf_insn *insns, size_t max);

#endif /* BPFPROBE_GUARD_H */
