/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * How the resolver's drivers (probes/resolve.c, probes/dwarf/dwarf_resolve.c,
 * probes/kernel/kernel_resolve.c, probes/list_*.c) say what went wrong: the
 * diagnoses inner layers recorded (probes/diag.h) and the drivers' own
 * lines. They are printed as they come (the library's log, as errors),
 * or, for a caller that shows them its own way (`bpfprobe vars` gives the
 * reason a probe point cannot read $retval as data), kept.
 */
#ifndef BPFPROBE_REPORT_H
#define BPFPROBE_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "probes/diag.h"

#define BP_REPORT_SIZE	2048

/*
 * Kept lines: NULL where a driver takes one means "print them". A report
 * with say set prints them too, and counts in said every line printed and
 * every once-only warning not printed again: a caller learns from it
 * whether the resolution said anything (the resolution cache keeps only
 * what said nothing, so that giving it again hides no message).
 */
struct bp_report {
	bool say;
	unsigned int said;
	/*
	 * The culprit of every line, joined by "; ": an argument's failure
	 * without its "WHERE: argument 'X': " prefix, other lines whole.
	 * Truncated to what fits.
	 */
	char text[BP_REPORT_SIZE];
	size_t len;
};

/* A driver's own line (fmt ends in '\n', as for bp_err). */
void bp_report__line(struct bp_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * What d holds, in the order it happened: its warnings (one marked once
 * only the first time in the process), its failure, "WHERE: argument
 * 'ARG': MSG[AVAIL]" when it is about an argument, and the lines added to
 * it. Then d is empty again.
 */
void bp_report__diag(struct bp_report *r, struct bp_diag *d, const char *where);

#endif /* BPFPROBE_REPORT_H */
