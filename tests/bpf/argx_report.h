/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the argx* e2e programs: each prints "GOT <what> ..." in the form of
 * its target's "TRUTH <what> ..." lines, or "ERR <what>" when a fetch
 * failed (see tests/e2e/argx.sh).
 */
#ifndef ARGX_REPORT_H
#define ARGX_REPORT_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define REPORT(err, what, fmt, ...) do {				\
	if (err)							\
		bpf_printk("ERR " what " err=%d", err);			\
	else								\
		bpf_printk("GOT " what " " fmt, __VA_ARGS__);		\
} while (0)

#endif
