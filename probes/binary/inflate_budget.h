/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Compressed sections (SHF_COMPRESSED, zlib or zstd; GNU's .zdebug_ ones)
 * are inflated whole by libelf as soon as libdw opens the DWARF of a file:
 * a file of one MiB can claim a GiB (a decompression bomb), which costs
 * seconds and that memory before anything is read. So before libdw sees a
 * file (the binary, its separate debug file, its DWZ alternate file), the
 * sizes its compressed sections claim (the Chdr's ch_size, a .zdebug_
 * section's header) are added up and held against a budget tied to the
 * file's size: BP_INFLATE_RATIO times it, and at least BP_INFLATE_FLOOR
 * (real debug info compresses 3 to 10 times; a small file may compress
 * better). Past it the file is refused, naming the section and the sizes.
 */
#ifndef BPFPROBE_INFLATE_BUDGET_H
#define BPFPROBE_INFLATE_BUDGET_H

#include <stddef.h>
#include <stdint.h>
#include <gelf.h>

#define BP_INFLATE_RATIO	64
#define BP_INFLATE_FLOOR	(64ULL << 20)

/* The budget of a file of file_size bytes. */
uint64_t bp_inflate_budget__of(uint64_t file_size);

/*
 * 0 when the compressed sections of elf (the file at path, of file_size
 * bytes) inflate within its budget; -EFBIG with why (a whole line: the
 * file, the section, what it inflates to from what, and the budget) when
 * they do not.
 */
int bp_inflate_budget__check(Elf *elf, const char *path, uint64_t file_size,
			     char *why, size_t len);

#endif /* BPFPROBE_INFLATE_BUDGET_H */
