/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Reading a DIE the function index found without libdw's walk over the
 * units before it (unit_window.c).
 *
 * libdw finds the unit of a DIE offset by reading every unit header from
 * the first one on, in order; in a binary of a few hundred units that is a
 * page fault every unit or two (each header is on its own page of a large
 * .debug_info), most of a warm resolve. The index knows where each unit
 * starts. The window is a second Dwarf over a private, copy-on-write
 * mapping of the same file in which the bytes at the start of .debug_info
 * are one made-up unit header whose length reaches exactly the wanted
 * unit: libdw reads that header, then the wanted unit's, and every offset
 * stays what it is in the file.
 *
 * What lies under the made-up unit cannot be read through the window, so
 * it is used only when nothing can refer there from the units after it:
 * the index says every unit is a compile unit referring only inside
 * itself, and the file has no type units (.debug_types) and no DWZ
 * alternate file. DIEs before the window's start, and every other case,
 * are read through di->dwarf as before. Offsets, names and values are the
 * same either way; only the Dwarf a DIE belongs to differs, which is why
 * bp_unit_window__dwarf() gives back di->dwarf for the window's.
 */
#ifndef BPFPROBE_DWARF_UNIT_WINDOW_H
#define BPFPROBE_DWARF_UNIT_WINDOW_H

#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>

struct bp_debuginfo;
struct bp_dwarf_index;

/*
 * The DIE at off (a .debug_info offset the index gave), through the
 * window when it can be used (idx may be NULL: never), else through
 * di->dwarf. False when there is no such DIE, as dwarf_offdie().
 */
bool bp_unit_window__offdie(const struct bp_debuginfo *di, struct bp_dwarf_index *idx,
			    uint64_t off, Dwarf_Die *die);

/* The Dwarf a DIE of dbg is to be compared as: di->dwarf for the
 * window's, dbg itself otherwise (the main file's, a DWZ file's). */
const Dwarf *bp_unit_window__dwarf(const struct bp_debuginfo *di, const Dwarf *dbg);

#endif
