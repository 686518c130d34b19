/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A diagnosis: what went wrong in a resolver layer, as data. Inner layers
 * (the DWARF walkers, site and line lookups, BTF, kallsyms, opening a
 * binary) record into one and return a negative errno; only the drivers
 * print it (probes/report.h), once, with the context they know (the SEC,
 * the probe point). A caller that tries something which may fail (another
 * address, a lookup with a fallback) passes a scratch diagnosis and throws
 * it away.
 *
 * A zeroed struct is an empty diagnosis.
 */
#ifndef BPFPROBE_DIAG_H
#define BPFPROBE_DIAG_H

#include <stdbool.h>
#include <stddef.h>

#define BP_DIAG_MSG_SIZE	2048
#define BP_DIAG_AVAIL_SIZE	384
#define BP_DIAG_ADDED_SIZE	512
#define BP_DIAG_WARN_SIZE	512
#define BP_DIAG_MAX_WARNINGS	3

/* Something worth saying that is no failure, said before it if one comes. */
struct bp_diag_warning {
	/* said once per process however often recorded (a key, compared as
	 * a string); NULL: every time */
	const char *once;
	char text[BP_DIAG_WARN_SIZE];	/* a whole line, without '\n' */
};

struct bp_diag {
	bool failed;		/* a failure is recorded: the first one wins */
	/*
	 * The argument (as written) the failure is about: its driver says
	 * "WHERE: argument 'ARG': MSG". NULL: msg is a whole line. Points
	 * into the caller's strings.
	 */
	const char *arg;
	char msg[BP_DIAG_MSG_SIZE];	/* the failure, naming the culprit */
	/*
	 * The variable exists but has no value at this address (optimized
	 * out, in a floating-point register, only its entry value known):
	 * msg is "WHAT at ADDR (FUNC+OFF)[: DETAIL]", and whoever knows the
	 * function puts where else it can be read into avail: "; available
	 * at ..." or "; it is readable nowhere in FUNC".
	 */
	bool unavailable;
	/* the value is in a floating-point register, which pt_regs does not
	 * hold, or is computed in floating point: no BPF program can */
	bool fp_register;
	char avail[BP_DIAG_AVAIL_SIZE];
	/* lines outer layers add to the failure ('\n'-terminated each),
	 * said after it */
	char added[BP_DIAG_ADDED_SIZE];
	size_t added_len;
	struct bp_diag_warning warnings[BP_DIAG_MAX_WARNINGS];
	int nwarnings;
};

/* Empties d (warnings too). */
void bp_diag__reset(struct bp_diag *d);

/* Records a failure whose message is a whole line (fmt without '\n'),
 * unless one is recorded already. d may be NULL (nothing is kept). */
void bp_diag__set(struct bp_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The same for a failure about argument arg (the driver names it). */
void bp_diag__set_arg(struct bp_diag *d, const char *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A failure about argument arg that is "unavailable here" (see above). */
void bp_diag__unavailable(struct bp_diag *d, const char *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An outer layer's line about the failure recorded: said after it. With
 * no failure recorded yet, the line is the failure. */
void bp_diag__add(struct bp_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A warning (a whole line, fmt without '\n'); once: see above. Past
 * BP_DIAG_MAX_WARNINGS, dropped. */
void bp_diag__warn(struct bp_diag *d, const char *once, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* BPFPROBE_DIAG_H */
