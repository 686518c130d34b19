// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Module builds kept for symbols: one offline Dwfl per GNU build ID, its
 * module at its link-time addresses, so that every process mapping the
 * build, wherever, shares its DWARF, line tables and remembered lookups.
 * The file is opened again (through the process while it lives, else by
 * its path) and must carry the same build ID; a module without one, or
 * whose file is gone, is symbolized through the process's own Dwfl.
 * At most max_builds are kept, the least recently used dropped first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/uw_core.h"
#include "unwind/uw_elf.h"
#include "unwind/uw_sym.h"

void uw_build__free(struct uw_build *b)
{
	if (!b)
		return;
	uw_dbg__free(b->dbg);
	if (b->dwfl)
		dwfl_end(b->dwfl);
	if (b->pending)
		elf_end(b->pending);
	free(b->path);
	free(b);
}

int uw_build__find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		       Dwarf_Addr base, char **file_name, Elf **elfp)
{
	struct uw_build *b = *userdata;

	*elfp = b ? b->pending : NULL;
	if (b) {
		b->pending = NULL;
		*file_name = strdup(b->path);
	}
	return -1;
}

/* Opens the file of um again when it has um's build ID. */
static Elf *open_again(struct bp_unwinder *u, struct uw_mod *um)
{
	const struct uw_map *m = um->m;
	char path[4200], id[UW_BUILD_ID_HEX];
	const void *image;
	int i, n = 0;
	size_t size;
	Elf *elf;

	if (m->vdso) {
		image = uw_unwinder__vdso(u, &size);
		elf = image ? elf_memory((char *)image, size) : NULL;
		if (elf && !uw_elf__build_id(elf, id, sizeof(id)) && !strcmp(id, um->build_id))
			return elf;
		if (elf)
			elf_end(elf);
		return NULL;
	}
	for (i = 0; i < 3; i++) {
		if (i == 0 && uw_proc__alive(um->p))
			n = snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx",
				     (int)um->p->pid, (unsigned long long)m->first_start,
				     (unsigned long long)m->first_end);
		else if (i == 1 && !m->deleted && uw_proc__alive(um->p))
			n = snprintf(path, sizeof(path), "/proc/%d/root%s", (int)um->p->pid, m->path);
		else if (i == 2 && !m->deleted)
			n = snprintf(path, sizeof(path), "%s", m->path);
		else
			continue;
		if (n < 0 || n >= (int)sizeof(path) || uw_elf__open(path, NULL, &elf))
			continue;
		if (!uw_elf__build_id(elf, id, sizeof(id)) && !strcmp(id, um->build_id))
			return elf;
		elf_end(elf);
	}
	return NULL;
}

static struct uw_build *open_build(struct bp_unwinder *u, struct uw_mod *um)
{
	__u64 low, high;
	struct uw_build *b;
	void **userdata = NULL;
	Dwarf_Addr bias;
	Elf *elf;

	elf = open_again(u, um);
	if (!elf)
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b || uw_elf__span(elf, &low, &high)) {
		elf_end(elf);
		free(b);
		return NULL;
	}
	b->pending = elf;
	strcpy(b->build_id, um->build_id);
	b->path = strdup(um->m->path);
	b->dwfl = dwfl_begin(&u->build_cb);
	if (!b->path || !b->dwfl)
		goto err;
	dwfl_report_begin(b->dwfl);
	/* at its link-time addresses: low is where libdwfl puts the first
	 * segment, so the bias is 0 */
	b->mod = dwfl_report_module(b->dwfl, b->path, low, high);
	if (!b->mod)
		goto err;
	dwfl_module_info(b->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = b;
	if (dwfl_report_end(b->dwfl, NULL, NULL) || !dwfl_module_getelf(b->mod, &bias) || bias)
		goto err;
	b->dbg = uw_dbg__new(b->mod);
	if (!b->dbg)
		goto err;
	return b;
err:
	uw_build__free(b);
	return NULL;
}

static struct uw_build *find_build(struct bp_unwinder *u, const char *build_id)
{
	size_t i;

	for (i = 0; i < u->nbuilds; i++) {
		if (!strcmp(u->builds[i]->build_id, build_id)) {
			u->builds[i]->stamp = ++u->clock;
			return u->builds[i];
		}
	}
	return NULL;
}

static void add_build(struct bp_unwinder *u, struct uw_build *b)
{
	size_t i, lru = 0;

	if (u->nbuilds == (size_t)u->max_builds) {
		for (i = 1; i < u->nbuilds; i++)
			if (u->builds[i]->stamp < u->builds[lru]->stamp)
				lru = i;
		uw_build__free(u->builds[lru]);
		u->builds[lru] = u->builds[--u->nbuilds];
	}
	b->stamp = ++u->clock;
	u->builds[u->nbuilds++] = b;
}

static void read_build_id(struct uw_mod *um)
{
	Dwarf_Addr bias;
	Elf *elf;

	um->build_id_read = true;
	um->build_id[0] = 0;
	elf = dwfl_module_getelf(um->mod, &bias);
	if (!elf || uw_elf__build_id(elf, um->build_id, sizeof(um->build_id)))
		um->build_id[0] = 0;
}

struct uw_dbg *uw_build__dbg(struct bp_unwinder *u, struct uw_mod *um, Dwarf_Addr *addr)
{
	struct uw_build *b = NULL;
	Dwarf_Addr bias;

	if (!um->build_id_read)
		read_build_id(um);
	if (um->build_id[0] && !um->own) {
		b = find_build(u, um->build_id);
		if (!b) {
			b = open_build(u, um);
			if (b)
				add_build(u, b);
		}
	}
	if (b && dwfl_module_getelf(um->mod, &bias)) {
		*addr -= bias;
		return b->dbg;
	}
	/* the process's own module: its addresses as they are */
	if (!um->own)
		um->own = uw_dbg__new(um->mod);
	return um->own;
}
