/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A user stack sample taken by the process itself, without BPF: the
 * registers a $ustack fetch copies and up to 8 KiB of the stack above rsp,
 * written to a file as one struct bp_stack_sample (util/stack_sample.h)
 * followed by its stack bytes. The registers are those at the global
 * label uw_sample_point inside uw_take_sample(), so that gdb stops at the
 * same instruction with `break *uw_sample_point`.
 */
#ifndef BPFPROBE_UW_CAPTURE_H
#define BPFPROBE_UW_CAPTURE_H

/*
 * Takes a sample here and writes it to path (nothing when path is NULL or
 * empty). Returns 0, or -1 when the file cannot be written.
 */
int uw_take_sample(const char *path);

#endif /* BPFPROBE_UW_CAPTURE_H */
