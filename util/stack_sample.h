/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A user stack as a probe copies it (the $ustack argument): the registers
 * an x86-64 unwinder starts from and the bytes of the stack above rsp, in
 * one record of the stack ring buffer the loader makes. The program gets
 * the sample's id (a bpfprobe_stack_t, bpfprobe/bpf.h); user space unwinds
 * the sample through the binaries' CFI when it prints the id.
 *
 * A sample taken by frame pointers (ustack=fp, flags BP_STACK_SAMPLE_FP)
 * holds in stack[] instead the 8 bytes at [rsp] (0 when they cannot be
 * read: at a function's entry, the caller's return address, which the
 * kernel's walk misses before Linux 6.11) and then the return addresses
 * bpf_get_stack(BPF_F_USER_STACK) walked from rbp, its first the
 * probed instruction: size is 8 + 8 * their count.
 *
 * The prologue writes the record (prologue/fetch_gen.c), unwind/ reads it: keep the layout
 * in step, every field at its natural alignment.
 */
#ifndef BPFPROBE_STACK_SAMPLE_H
#define BPFPROBE_STACK_SAMPLE_H

#include <linux/types.h>

/* The registers, in this order: DWARF numbers 16 (rip), 7 (rsp),
 * 6 (rbp), 3 (rbx), 12, 13, 14, 15 (r12..r15): what CFI restores. */
#define BP_STACK_NREGS		8
/* Bytes of stack copied from rsp, at most (perf's --call-graph dwarf
 * default); fewer when the stack ends sooner. */
#define BP_STACK_MAX_BYTES	8192

/* flags: the sample holds a frame-pointer walk, not the stack's bytes */
#define BP_STACK_SAMPLE_FP	1u
/* Addresses a frame-pointer walk keeps, at most (perf_event_max_stack's
 * default) */
#define BP_STACK_MAX_IPS	127
/* stack[] of such a sample, at most: [rsp], then the addresses */
#define BP_STACK_FP_BYTES	(8 + 8 * BP_STACK_MAX_IPS)

/* A $ustack id has this bit clear; a $kstack id has it set, the kernel's
 * stack map id in its low 32 bits. 0: no stack (the fetch failed). */
#define BP_STACK_KERNEL_BIT	(1ULL << 63)

struct bp_stack_sample {
	__u64 id;		/* what the program was given */
	__u32 pid;		/* the process (tgid) */
	__u32 tid;		/* the thread */
	__u64 time_ns;		/* bpf_ktime_get_ns() */
	__u64 regs[BP_STACK_NREGS];
	__u32 size;		/* bytes in stack[] */
	__u32 flags;		/* BP_STACK_SAMPLE_FP, or 0 */
	unsigned char stack[];	/* from regs[1] (rsp) up */
};

#endif /* BPFPROBE_STACK_SAMPLE_H */
