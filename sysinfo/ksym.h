/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Kernel addresses to symbol names through /proc/kallsyms (read once). */
#ifndef BPFPROBE_SYSINFO_KSYM_H
#define BPFPROBE_SYSINFO_KSYM_H

#include <stdint.h>

/* The name of the symbol at or before addr (malloc'd) and the offset into
 * it, or NULL when kallsyms is unreadable or hides addresses. */
char *bp_ksym__name(uint64_t addr, uint64_t *off);

#endif /* BPFPROBE_SYSINFO_KSYM_H */
