/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A command started held before exec, so probes attach to its pid before
 * it runs its first instruction: no early call is missed.
 */
#ifndef BPFPROBE_WORKLOAD_H
#define BPFPROBE_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>

struct bp_workload {
	pid_t pid;
	pid_t global_pid;	/* pid as the kernel numbers it (PID namespaces) */
	int go_fd;	/* write end: closing it lets the child exec */
	int err_fd;	/* read end: the child's exec errno, or EOF on success */
	/* set before prepare: the child's stdout goes to our stderr (bpfprobe's
	 * own records then have stdout to themselves) */
	bool stdout_to_stderr;
};

/* Forks the child, held before exec, and learns its global pid. */
int bp_workload__prepare(struct bp_workload *w, char *const argv[]);
/* Lets the child exec. Returns 0, or -errno when exec failed (child gone). */
int bp_workload__start(struct bp_workload *w, const char *cmd);
/* Kills and reaps a child that never started (error paths). */
void bp_workload__abort(struct bp_workload *w);
/* Exit status the way a shell reports it: code, or 128 + signal. */
int bp_workload__exit_code(int status);

#endif /* BPFPROBE_WORKLOAD_H */
