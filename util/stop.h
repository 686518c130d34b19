/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A stop the caller asked for (bpfprobe_set_stop_flag(): the flag its
 * SIGINT/SIGTERM handler sets). Long work looks at it between steps:
 * resolving one probe point after another, walking the functions of a
 * large unit, building a binary's DWARF index, loading instances,
 * attaching points; once it is set that work gives up with -EINTR (and
 * says nothing: the caller knows why, and says it once).
 */
#ifndef BPFPROBE_STOP_H
#define BPFPROBE_STOP_H

#include <signal.h>
#include <stdbool.h>

void bp_stop__set_flag(const volatile sig_atomic_t *flag);

/* Whether the flag is set (non-zero). */
bool bp_stop__requested(void);

/*
 * For loops over many small steps: bp_stop__requested() every 256th call
 * through the same counter (a look at a volatile is cheap, but not free
 * in the innermost loops).
 */
bool bp_stop__every(unsigned int *counter);

#endif /* BPFPROBE_STOP_H */
