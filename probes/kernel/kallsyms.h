/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The running kernel's function symbols (/proc/kallsyms) and the lists that
 * say whether a kprobe may go on one: the kprobe blacklist and ftrace's
 * available_filter_functions.
 */
#ifndef BPFPROBE_KALLSYMS_H
#define BPFPROBE_KALLSYMS_H

#include <stdbool.h>
#include <stdint.h>

#define BP_KALLSYMS_PATH	"/proc/kallsyms"

struct bp_diag;

struct bp_ksym {
	uint64_t addr;		/* run-time address; 0 when kptr_restrict hides it */
	const char *name;
	const char *module;	/* NULL: vmlinux */
};

struct bp_kallsyms;

/* Loads the text (t T w W) symbols of path (/proc/kallsyms). Returns 0 or a
 * negative errno, why recorded in d. */
int bp_kallsyms__load(const char *path, struct bp_kallsyms **out, struct bp_diag *d);
void bp_kallsyms__free(struct bp_kallsyms *ks);

/*
 * The function symbols called name, in module (NULL: anywhere, "vmlinux":
 * the kernel image itself), sorted by module (vmlinux first) and address.
 * *syms stays valid until the next lookup or bp_kallsyms__free(). Returns
 * how many (0 when none, or out of memory).
 */
int bp_kallsyms__find(struct bp_kallsyms *ks, const char *name,
		      const char *module, const struct bp_ksym **syms);

/* The function symbols at run-time address addr (aliases share one), as
 * bp_kallsyms__find() returns them. */
int bp_kallsyms__at(struct bp_kallsyms *ks, uint64_t addr, const struct bp_ksym **syms);

/* Calls cb for every symbol named "name.SUFFIX" (compiler clones such as
 * name.isra.0, name.constprop.0, name.cold). Returns how many. */
int bp_kallsyms__clones(const struct bp_kallsyms *ks, const char *name,
			void (*cb)(const char *clone, void *ctx), void *ctx);

/*
 * Whether the function name (of module, NULL: any) is listed in a kernel
 * list file: available_filter_functions ("name" or "name [mod]") or the
 * kprobe blacklist ("0xSTART-0xEND\tname [mod]"). Returns 1 listed, 0 not,
 * or -ENOENT when the file cannot be read (tracefs/debugfs not mounted).
 */
int bp_klist__has(const char *path, const char *name, const char *module);

/* "dummy", "9p": module names as the kernel writes them ('-' becomes '_').
 * Returns a malloc'ed copy or NULL. */
char *bp_module__normalize(const char *module);

#endif /* BPFPROBE_KALLSYMS_H */
