/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A uprobe's file offset back to a function name: the offset is mapped to
 * a link-time address through the ELF program headers, and libdwfl finds
 * the symbol holding it (.symtab, .dynsym, or a separate debug file found
 * by build-id). Opened binaries are cached for one listing.
 */
#ifndef BPFPROBE_SYSINFO_USYM_H
#define BPFPROBE_SYSINFO_USYM_H

#include <stdint.h>

struct bp_usym;

struct bp_usym *bp_usym__new(void);
void bp_usym__free(struct bp_usym *u);

/*
 * The function of binary path holding file offset off: returns 0 with
 * *name (malloc'd) and *sym_off set, or -ENOENT (no such file, no symbol).
 */
int bp_usym__lookup(struct bp_usym *u, const char *path, uint64_t off,
		    char **name, uint64_t *sym_off);

#endif /* BPFPROBE_SYSINFO_USYM_H */
