/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The source position of one address, read straight from its unit's line
 * program (line_at.c).
 *
 * libdw answers dwarf_getsrc_die() by decoding the unit's whole line
 * table into rows (on the stack first: a few thousand rows take a hundred
 * KiB of it, a page fault each 4 KiB) and sorting them. A report needs
 * one row: this runs the line program once, keeping only the row libdw
 * would pick (the last row at the greatest address not past addr, in
 * libdw's order, unless that is the end of a sequence), and composes its
 * file's name as dwarf_linesrc() gives it. What it does not read exactly
 * as libdw 0.188 does is left to libdw.
 */
#ifndef BPFPROBE_DWARF_LINE_AT_H
#define BPFPROBE_DWARF_LINE_AT_H

#include <stdint.h>
#include <elfutils/libdw.h>

/*
 * The line and file (malloc'ed into *file, NULL when the row names no
 * file, as dwarf_linesrc() gives none) of addr in cudie's line table.
 * Returns 0, or a negative errno: -ENOENT (no row, or no line table),
 * -ENOMEM, -EOPNOTSUPP (DWARF this reader leaves to libdw: ask
 * dwarf_getsrc_die()).
 */
int bp_line_at(Dwarf_Die *cudie, uint64_t addr, char **file, int *line);

#endif
