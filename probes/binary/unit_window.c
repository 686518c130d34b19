// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The unit window (unit_window.h): a second Dwarf over a private mapping
 * of the file di->dwarf was read from, whose .debug_info starts with a
 * made-up unit header covering every unit before the wanted one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>

#include "probes/binary/debuginfo.h"
#include "probes/binary/index.h"
#include "probes/binary/unit_window.h"
#include "util/log.h"

/* a DWARF 4 unit header of 32-bit offsets, and the abbreviation code 0
 * of an empty DIE after it (libdw reads a unit's DIE for its tag) */
#define FAKE_HEADER	12

struct bp_unit_window {
	int fd;
	Elf *elf;
	Dwarf *dwarf;		/* NULL: it could not be made (said at -v) */
	bool usable;		/* false once a DIE was not where the index says */
	uint64_t start;		/* the first unit read through it */
};

static void window_free(struct bp_unit_window *w)
{
	if (!w)
		return;
	if (w->dwarf)
		dwarf_end(w->dwarf);
	if (w->elf)
		elf_end(w->elf);
	if (w->fd >= 0)
		close(w->fd);
	free(w);
}

/* The file di->dwarf was read from and its identity as the index has it. */
static const char *dwarf_file(const struct bp_debuginfo *di, const struct bp_dwarf_index *idx,
			      const struct bp_index_file_id **id)
{
	const char *debugfile = NULL;

	if (!idx->hdr->has_debug_file) {
		*id = &idx->hdr->binary;
		return di->path;
	}
	dwfl_module_info(di->mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	*id = &idx->hdr->debug;
	return debugfile;
}

/* .debug_info's data, when nothing else in the file may refer into its
 * units: no type units, no DWZ alternate file, no compressed sections. */
static Elf_Data *info_data(Elf *elf, const char **why)
{
	Elf_Data *info = NULL;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t shstrndx;

	if (!gelf_getehdr(elf, &eh) || eh.e_type == ET_REL || elf_getshdrstrndx(elf, &shstrndx)) {
		*why = "not a linked ELF file";
		return NULL;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name))) {
			*why = "unreadable section headers";
			return NULL;
		}
		if (!strcmp(name, ".debug_types") || !strcmp(name, ".gnu_debugaltlink") ||
		    !strncmp(name, ".zdebug", 7) ||
		    (!strncmp(name, ".debug_", 7) && (sh.sh_flags & SHF_COMPRESSED))) {
			*why = "type units, a DWZ file or compressed sections";
			return NULL;
		}
		if (!strcmp(name, ".debug_info") && sh.sh_type == SHT_PROGBITS)
			info = elf_getdata(scn, NULL);
	}
	if (!info)
		*why = "no .debug_info";
	return info;
}

/* Makes the first bytes of info one unit that ends where unit starts. */
static bool fake_unit(Elf_Data *info, uint64_t unit, uint8_t addr_size)
{
	uint8_t *p = info->d_buf;
	uint32_t len = unit - 4, abbrev = 0;
	uint16_t version = 4;

	if (unit < FAKE_HEADER || unit - 4 >= 0xfffffff0u || unit >= info->d_size)
		return false;
	memcpy(p, &len, 4);
	memcpy(p + 4, &version, 2);
	memcpy(p + 6, &abbrev, 4);
	p[10] = addr_size;
	p[11] = 0;
	return true;
}

static struct bp_unit_window *window_open(const struct bp_debuginfo *di,
					  const struct bp_dwarf_index *idx, uint64_t unit)
{
	const struct bp_index_file_id *want;
	struct bp_unit_window *w;
	const char *path, *why = "out of memory";
	Elf_Data *info;

	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->fd = -1;
	w->start = unit;
	path = dwarf_file(di, idx, &want);
	w->fd = path ? bp_index_file__reopen(path, want) : -ENOENT;
	if (w->fd < 0) {
		why = w->fd == -ESTALE ? "its file changed" : "cannot open its file again";
		goto out;
	}
	/* private and writable: the made-up header is the process's own copy */
	w->elf = elf_begin(w->fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (!w->elf) {
		why = elf_errmsg(-1);
		goto out;
	}
	info = info_data(w->elf, &why);
	if (!info)
		goto out;
	if (!fake_unit(info, unit, gelf_getclass(w->elf) == ELFCLASS32 ? 4 : 8)) {
		why = "a unit too far";
		goto out;
	}
	w->dwarf = dwarf_begin_elf(w->elf, DWARF_C_READ, NULL);
	w->usable = w->dwarf != NULL;
	if (!w->dwarf)
		why = dwarf_errmsg(-1);
out:
	if (w->dwarf)
		bp_debug("%s: DWARF read from the unit at 0x%llx on without the units before it\n",
			 di->path, (unsigned long long)unit);
	else
		bp_debug("%s: DWARF read through every unit header (%s)\n", di->path, why);
	return w;
}

bool bp_unit_window__offdie(const struct bp_debuginfo *di, struct bp_dwarf_index *idx,
			    uint64_t off, Dwarf_Die *die)
{
	struct bp_debuginfo_lazy *lazy = di->cache;
	Dwarf_Die cudie;
	uint64_t unit;

	if (idx && idx->hdr->self_contained && !bp_dwarf_index__unit_of(idx, off, &unit) && unit) {
		if (!lazy->free_window) {
			lazy->window = window_open(di, idx, unit);
			lazy->free_window = window_free;
		}
		/* a DIE of the unit the index says, or the window is not used */
		if (lazy->window && lazy->window->usable && unit >= lazy->window->start) {
			if (dwarf_offdie(lazy->window->dwarf, off, die) &&
			    dwarf_diecu(die, &cudie, NULL, NULL) && dwarf_dieoffset(&cudie) > unit)
				return true;
			/* (the DIEs it gave stay valid until di is freed) */
			bp_debug("%s: DIE 0x%llx not in the unit the index says: read without the window\n",
				 di->path, (unsigned long long)off);
			lazy->window->usable = false;
		}
	}
	return dwarf_offdie(di->dwarf, off, die) != NULL;
}

const Dwarf *bp_unit_window__dwarf(const struct bp_debuginfo *di, const Dwarf *dbg)
{
	const struct bp_unit_window *w = di->cache->window;

	return w && w->dwarf && dbg == w->dwarf ? di->dwarf : dbg;
}
