/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A module's line tables read as gdb reads them, so that a PC gets the
 * line gdb's `bt` shows: rows of line 0 extend the line before them, a
 * file switch ends the previous file's line there, the line at a PC is
 * the best of each file's last line at or before it, a statement
 * preferred at one address. Built per compilation unit when first asked.
 */
#ifndef BPFPROBE_UW_LINES_H
#define BPFPROBE_UW_LINES_H

#include <elfutils/libdw.h>

struct uw_lines;

struct uw_lines *uw_lines__new(void);
void uw_lines__free(struct uw_lines *l);

/*
 * The file (as libdw names it, owned by the Dwarf) and line of addr, a
 * DWARF address in the unit cu. 0, -ENOENT (no line), -ENOMEM.
 */
int uw_lines__find(struct uw_lines *l, Dwarf_Die *cu, Dwarf_Addr addr,
		   const char **file, int *line);

#endif /* BPFPROBE_UW_LINES_H */
