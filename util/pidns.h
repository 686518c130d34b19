/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * PID namespaces: the kernel's tracing interfaces (tracefs's
 * set_event_pid, bpf_get_current_pid_tgid()) use the pids of the initial
 * namespace, while a process inside another one (a container,
 * `unshare --pid`) knows its own pids only.
 */
#ifndef BPFPROBE_PIDNS_H
#define BPFPROBE_PIDNS_H

#include <stdbool.h>
#include <sys/types.h>

/* Whether the caller's PID namespace is the initial one. */
bool bp_pidns__is_initial(void);

/* The calling process's pid in the initial namespace (its tgid), or a
 * negative errno: a raw tracepoint program run in the process returns
 * bpf_get_current_pid_tgid() >> 32. */
pid_t bp_pidns__self_global(void);

#endif /* BPFPROBE_PIDNS_H */
