/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `bpfprobe monitor --map MAP`'s own programs (map_monitor_prog.c): one per
 * kernel function that updates or deletes the map's elements, each the
 * map guard (probes/maps.h) and then code that copies the key, the
 * value and the flags into a ring buffer record with who did it. The
 * record, in the ring buffer:
 *
 *	__u64 ts_ns		bpf_ktime_get_ns(): CLOCK_MONOTONIC
 *	__u64 pid_tgid
 *	__u64 flags		0 for deletes
 *	char comm[16]
 *	__u32 func		the function's index in the monitor
 *	__s32 err		non-zero: a read of key or value failed
 *	__u32 cpu
 *	__u32 pad
 *	key bytes, then (updates) value bytes from 8-aligned offsets
 */
#ifndef BPFPROBE_MAP_MONITOR_PROG_H
#define BPFPROBE_MAP_MONITOR_PROG_H

#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

#include "prologue/guard.h"

#define BP_MREC_TS	0
#define BP_MREC_PID	8
#define BP_MREC_FLAGS	16
#define BP_MREC_COMM	24
#define BP_MREC_FUNC	40
#define BP_MREC_ERR	44
#define BP_MREC_CPU	48
#define BP_MREC_KEY	56
/* where the value starts */
#define BP_MREC_VALUE(key_size)	(BP_MREC_KEY + ((key_size) + 7) / 8 * 8)

/* values larger than this are cut (the record says how much it holds) */
#define BP_MREC_MAX_VALUE	(64 * 1024)

struct bp_mrec_prog {
	int rb_fd;		/* the ring buffer map */
	uint32_t func;
	/* byte offsets in ctx of the arguments (8 * i at fentry, pt_regs
	 * offsets at a kprobe); value_off and flags_off -1 for deletes */
	int16_t key_off, value_off, flags_off;
	uint32_t key_size;
	uint32_t value_size;	/* bytes copied */
	const struct bp_guards *guards;
};

/* Upper bound on bp_mrec__gen()'s output. */
#define BP_MREC_MAX_INSNS	(BP_GUARDS_MAX_INSNS + 64)

/* The program's instructions into insns (room for max); returns how many,
 * or -EINVAL / -E2BIG. */
int bp_mrec__gen(const struct bp_mrec_prog *p, struct bpf_insn *insns, size_t max);

/* The record's size for a program: header, key, value. */
size_t bp_mrec__size(const struct bp_mrec_prog *p);

#endif /* BPFPROBE_MAP_MONITOR_PROG_H */
