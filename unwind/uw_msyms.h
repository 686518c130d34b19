/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A module's code symbols, chosen between as gdb chooses its minimal
 * symbols: what names a frame without DWARF for its function.
 */
#ifndef BPFPROBE_UW_MSYMS_H
#define BPFPROBE_UW_MSYMS_H

#include <elfutils/libdwfl.h>

struct uw_msyms;

struct uw_msyms *uw_msyms__new(Dwfl_Module *mod);
void uw_msyms__free(struct uw_msyms *m);

/*
 * The symbol gdb names addr (an address of the module's Dwfl) by, as gdb
 * prints it, and its address in *start; NULL when none (or out of
 * memory). Read when first asked.
 */
const char *uw_msyms__at(struct uw_msyms *m, Dwarf_Addr addr, Dwarf_Addr *start);

/*
 * The name gdb shows for a minimal symbol called name, when not name
 * itself (malloc'd), else NULL (uw_gdbname.c).
 */
char *uw_gdb_msym_name(const char *name);

#endif /* BPFPROBE_UW_MSYMS_H */
