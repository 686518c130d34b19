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
	/* per argument, its name (NAME= or the expression; $params gives
	 * the parameters' names) */
	char *arg_name[BP_MAX_ARGS];
	/*
	 * Kernel functions (spec without exec=): a kprobe on func + offset,
	 * or on kaddr (run-time address) when func names several functions.
	 * binary is the debug file (vmlinux, MOD.ko) or "vmlinux"/MOD.
	 */
	bool kernel;
	char *module;		/* NULL: vmlinux */
	uint64_t kaddr;
	/* where locations and types came from, e.g. "BTF /sys/kernel/btf/vmlinux" */
	char *source;
	/* the probed instruction's source position (line table); NULL/0 if unknown */
	char *src_file;
	int src_line;
	char *caller;		/* is_inline: the function it is inlined into */
	char *symbol;		/* the ELF symbol of an out-of-line copy when it is
				 * not func (a clone: clone_me.constprop.0) */
};

struct bp_resolver;

struct bp_resolver *bp_resolver__new(void);
void bp_resolver__free(struct bp_resolver *r);

/*
 * Every probe point of spec (FUNC globs, inlined copies, source lines) is
 * resolved; with force=yes those that cannot be are skipped, each with a
 * message naming it, and the call fails only when none is left.
 *
 * Resolves spec: a user-space probe (spec->exec set) from the binary's
 * DWARF, a kernel probe from vmlinux DWARF or kernel BTF (resolve_kernel.c).
 * On success returns 0
 * and a malloc'ed array of *npoints (>= 1) points. On error returns a
 * negative errno and has logged (bp_err) a message naming the culprit:
 * function, member, path, argument.
 */
int bp_resolver__resolve(struct bp_resolver *r, const struct bp_spec *spec,
			 struct bp_point **points, int *npoints);

void bp_points__free(struct bp_point *points, int npoints);

/* Kernel DWARF from this file (a vmlinux with debug info) instead of the
 * usual places; must be set before the first kernel spec. */
int bp_resolver__set_vmlinux(struct bp_resolver *r, const char *path);

/* Finds an executable like execvp would (PATH search when no '/').
 * Returns a malloc'ed absolute path or NULL. */
char *bp_find_binary(const char *name);

#endif /* BPFPROBE_RESOLVE_H */
