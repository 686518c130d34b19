// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* What a file's compressed sections inflate to, against a budget (inflate_budget.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "probes/binary/inflate_budget.h"

uint64_t bp_inflate_budget__of(uint64_t file_size)
{
	uint64_t b = file_size > UINT64_MAX / BP_INFLATE_RATIO ? UINT64_MAX :
		     file_size * BP_INFLATE_RATIO;

	return b < BP_INFLATE_FLOOR ? BP_INFLATE_FLOOR : b;
}

static uint64_t get_u(const unsigned char *p, int size, bool big)
{
	uint64_t v = 0;

	for (int i = 0; i < size; i++)
		v |= (uint64_t)p[big ? size - 1 - i : i] << (8 * i);
	return v;
}

/* What a compressed section says it inflates to, and how: false when it
 * says nothing readable (libelf will refuse it the same way). */
static bool claimed_size(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, const char *name,
			 uint64_t *size, const char **how)
{
	const unsigned char *p;
	bool big = elf_getident(elf, NULL)[EI_DATA] == ELFDATA2MSB;
	bool is64 = gelf_getclass(elf) == ELFCLASS64;
	Elf_Data *raw;
	uint64_t type;

	/* the bytes as in the file, never inflated */
	raw = elf_rawdata(scn, NULL);
	if (!raw || !raw->d_buf)
		return false;
	p = raw->d_buf;
	if (sh->sh_flags & SHF_COMPRESSED) {
		/* Elf64_Chdr: type, reserved, size, align; Elf32_Chdr: type, size, align */
		if (raw->d_size < (is64 ? 24 : 12))
			return false;
		type = get_u(p, 4, big);
		*size = is64 ? get_u(p + 8, 8, big) : get_u(p + 4, 4, big);
		*how = type == ELFCOMPRESS_ZLIB ? "zlib" : type == 2 ? "zstd" : "an unknown compression";
		return true;
	}
	if (!strncmp(name, ".zdebug", 7)) {
		/* "ZLIB", then the size in 8 big-endian bytes */
		if (raw->d_size < 12 || memcmp(p, "ZLIB", 4))
			return false;
		*size = get_u(p + 4, 8, true);
		*how = "zlib, .zdebug";
		return true;
	}
	return false;
}

int bp_inflate_budget__check(Elf *elf, const char *path, uint64_t file_size,
			     char *why, size_t len)
{
	uint64_t budget = bp_inflate_budget__of(file_size), total = 0, size;
	Elf_Scn *scn = NULL;
	const char *how;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;	/* no sections libdw could read either */
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || !claimed_size(elf, scn, &sh, name, &size, &how))
			continue;
		total = size > UINT64_MAX - total ? UINT64_MAX : total + size;
		if (total <= budget)
			continue;
		snprintf(why, len, "%s: section %s inflates to %" PRIu64 " bytes (%s, from %" PRIu64 " compressed bytes%s%.0" PRIu64 "%s), past the budget of %" PRIu64 " bytes for a file of %" PRIu64 " bytes (%d times its size, at least %llu MiB): refused as a decompression bomb",
			 path, name, size, how, (uint64_t)sh.sh_size,
			 total > size ? "; " : "", total > size ? total : 0,
			 total > size ? " bytes with the compressed sections before it" : "",
			 budget, file_size, BP_INFLATE_RATIO, BP_INFLATE_FLOOR >> 20);
		return -EFBIG;
	}
	return 0;
}
