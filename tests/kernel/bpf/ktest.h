/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Shared by the kernel-probe test programs (tests/kernel/bpf). */
#ifndef BPFPROBE_KTEST_H
#define BPFPROBE_KTEST_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/*
 * Kernel probes fire in every task: these programs report only the test
 * helpers (tests/kernel/progs/kt_*), whose names start with "kt_".
 */
static __always_inline int from_test_helper(void)
{
	char comm[16] = {};

	bpf_get_current_comm(comm, sizeof(comm));
	return comm[0] == 'k' && comm[1] == 't' && comm[2] == '_';
}

#endif /* BPFPROBE_KTEST_H */
