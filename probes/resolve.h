/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Resolving a parsed spec against a binary's DWARF: every probe point the
 * spec names and, per point, a fetch plan for its arguments.
 */
#ifndef BPFPROBE_RESOLVE_H
#define BPFPROBE_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>
#include "probes/plan.h"
#include "probes/spec.h"

struct bp_point {
	char *binary;		/* absolute path of the probed file */
	char *func;		/* function name */
	char *cu;		/* compilation unit name (DW_AT_name) */
	uint64_t addr;		/* link-time address of the probed instruction */
	uint64_t offset;	/* file offset of addr (uprobe offset) */
	bool is_return;
	bool is_inline;
	struct bp_plan plan;
	/* per argument, where it lives, e.g. "reg rdi", "CFA+8 (stack)" */
	char *loc_desc[BP_MAX_ARGS];
	/* per argument, the C type name, e.g. "int", "struct req *" */
	char *type_name[BP_MAX_ARGS];
};

struct bp_resolver;

struct bp_resolver *bp_resolver__new(void);
void bp_resolver__free(struct bp_resolver *r);

/*
 * Resolves spec (a user-space probe: spec->exec set). On success returns 0
 * and a malloc'ed array of *npoints (>= 1) points. On error returns a
 * negative errno and has logged (bp_err) a message naming the culprit:
 * function, member, path, argument.
 */
int bp_resolver__resolve(struct bp_resolver *r, const struct bp_spec *spec,
			 struct bp_point **points, int *npoints);

void bp_points__free(struct bp_point *points, int npoints);

/* Finds an executable like execvp would (PATH search when no '/').
 * Returns a malloc'ed absolute path or NULL. */
char *bp_find_binary(const char *name);

#endif /* BPFPROBE_RESOLVE_H */
