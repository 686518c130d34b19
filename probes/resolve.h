/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Resolving a parsed spec against a binary's DWARF: every probe point the
 * spec names and, per point, a fetch plan for its arguments.
 */
#ifndef BPFPROBE_RESOLVE_H
#define BPFPROBE_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "probes/point.h"
#include "probes/spec.h"

struct bp_report;
struct bp_resolver;

struct bp_resolver *bp_resolver__new(void);
void bp_resolver__free(struct bp_resolver *r);

/*
 * Every probe point of spec (FUNC globs, inlined copies, source lines) is
 * resolved; with force=yes those that cannot be are skipped, each with a
 * message naming it, and the call fails only when none is left.
 *
 * Resolves spec: a user-space probe (spec->exec set) from the binary's
 * DWARF, a kernel probe from vmlinux DWARF or kernel BTF (probes/kernel/).
 * On success returns 0
 * and a malloc'ed array of *npoints (>= 1) points. On error returns a
 * negative errno and has logged (bp_err) a message naming the culprit:
 * function, member, path, argument. Warnings are logged the same way.
 */
int bp_resolver__resolve(struct bp_resolver *r, const struct bp_spec *spec,
			 struct bp_point **points, int *npoints);

/* The same, with what went wrong kept in rep instead of printed (NULL:
 * printed), for a caller that shows it as data (probes/report.h). */
int bp_resolver__resolve_report(struct bp_resolver *r, const struct bp_spec *spec,
				struct bp_point **points, int *npoints,
				struct bp_report *rep);

/* no_cache: binaries are resolved without their DWARF index (neither read
 * from nor stored in the user's cache): their DWARF is walked. */
void bp_resolver__set_no_cache(struct bp_resolver *r, bool no_cache);

/* on: a user-space spec resolved while printing (bp_resolver__resolve) is
 * read from the resolution cache (probes/resolution_cache.h) when there,
 * and kept there when resolved without a warning. Off by default: for
 * specs parsed from their own text (spec->text says all they ask). */
void bp_resolver__set_resolution_cache(struct bp_resolver *r, bool on);

/*
 * exec= paths are looked up as process pid sees them (probes/view.h: its
 * root, a chroot or a container's, its PATH and LD_LIBRARY_PATH); their
 * DWARF comes from that root's /usr/lib/debug or ours, by build ID. A
 * point's binary is a path of ours to the file (what is attached), its
 * seen_as what the process calls it. pid 0: as we see them. Returns 0,
 * or a negative errno with why[] naming the process (-ESRCH: it does not
 * exist or exited; -EACCES: its root may not be read).
 */
int bp_resolver__set_view(struct bp_resolver *r, pid_t pid, char *why, size_t len);

/* After resolving: -ESRCH with why[] when the viewing process exited
 * meanwhile (what was found may be gone with it); else 0. */
int bp_resolver__view_check(const struct bp_resolver *r, char *why, size_t len);

/* The viewing process's root's debug directory searched first, or NULL. */
const char *bp_resolver__debug_dir(const struct bp_resolver *r);

/*
 * The user-space binaries resolved so far, held open with their identity
 * (probes/binary_hold.h), moved into to: the loader checks them, and
 * attaches through them. 0 or -ENOMEM.
 */
struct bp_binary_holds;
int bp_resolver__take_holds(struct bp_resolver *r, struct bp_binary_holds *to);

/* Kernel DWARF from this file (a vmlinux with debug info) instead of the
 * usual places; must be set before the first kernel spec. */
int bp_resolver__set_vmlinux(struct bp_resolver *r, const char *path);

#endif /* BPFPROBE_RESOLVE_H */
