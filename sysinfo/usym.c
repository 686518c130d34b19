// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* uprobe file offset -> function name, through libdwfl (see usym.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include "sysinfo/usym.h"

struct usym_file {
	char *path;
	Dwfl *dwfl;		/* NULL: could not be opened */
	Dwfl_Module *mod;
	Elf *elf;
	GElf_Addr bias;
	struct usym_file *next;
};

struct bp_usym {
	struct usym_file *files;
};

static char *debuginfo_path;

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

struct bp_usym *bp_usym__new(void)
{
	return calloc(1, sizeof(struct bp_usym));
}

void bp_usym__free(struct bp_usym *u)
{
	if (!u)
		return;
	while (u->files) {
		struct usym_file *f = u->files;

		u->files = f->next;
		if (f->dwfl)
			dwfl_end(f->dwfl);
		free(f->path);
		free(f);
	}
	free(u);
}

static void open_file(struct usym_file *f)
{
	f->dwfl = dwfl_begin(&callbacks);
	if (!f->dwfl)
		return;
	dwfl_report_begin(f->dwfl);
	f->mod = dwfl_report_offline(f->dwfl, f->path, f->path, -1);
	if (dwfl_report_end(f->dwfl, NULL, NULL) || !f->mod ||
	    !(f->elf = dwfl_module_getelf(f->mod, &f->bias))) {
		dwfl_end(f->dwfl);
		f->dwfl = NULL;
	}
}

static struct usym_file *get_file(struct bp_usym *u, const char *path)
{
	struct usym_file *f;

	for (f = u->files; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->path = strdup(path);
	if (!f->path) {
		free(f);
		return NULL;
	}
	open_file(f);
	f->next = u->files;
	u->files = f;
	return f;
}

/* File offset -> link-time address through the PT_LOAD headers. */
static int offset_to_addr(Elf *elf, uint64_t off, uint64_t *addr)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return -ENOENT;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (off >= ph.p_offset && off - ph.p_offset < ph.p_filesz) {
			*addr = off - ph.p_offset + ph.p_vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

int bp_usym__lookup(struct bp_usym *u, const char *path, uint64_t off,
		    char **name, uint64_t *sym_off)
{
	struct usym_file *f = get_file(u, path);
	GElf_Off symoff = 0;
	const char *s;
	uint64_t addr;
	GElf_Sym sym;

	if (!f)
		return -ENOMEM;
	if (!f->dwfl || offset_to_addr(f->elf, off, &addr))
		return -ENOENT;
	s = dwfl_module_addrinfo(f->mod, addr + f->bias, &symoff, &sym, NULL, NULL, NULL);
	if (!s || !*s)
		return -ENOENT;
	*name = strdup(s);
	if (!*name)
		return -ENOMEM;
	*sym_off = symoff;
	return 0;
}
