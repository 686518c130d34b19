/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Register liveness of a BPF program body. Pure: no kernel needed.
 */
#ifndef BPFPROBE_LIVENESS_H
#define BPFPROBE_LIVENESS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

/* Bit r stands for BPF register r. */
#define BP_LIVE_REG(r)	(1u << (r))
#define BP_LIVE_ALL	0x7ffu		/* r0..r10 */

/*
 * The registers insns[0..cnt) may read before writing them, on some path
 * from insns[0]: bit r for register r. When in doubt a register counts as
 * read (a jump out of the array, an unknown opcode or helper, a call of a
 * subprogram or kfunc): the verifier rejects a read of a register nothing
 * wrote ("R4 !read_ok"), and a helper may read more than it checks.
 * Running out of memory gives BP_LIVE_ALL.
 */
uint16_t bp_liveness__entry(const struct bpf_insn *insns, size_t cnt);

/* The registers helper id reads (r1..rN), by libbpf's declarations;
 * r1..r5 for a variadic one and for an id newer than them. */
uint16_t bp_liveness__helper_args(int32_t id);

#endif /* BPFPROBE_LIVENESS_H */
