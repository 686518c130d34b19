// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Opening a probed binary with libdwfl, which does the debug-file hunt (.gnu_debuglink, build-id, DWZ, debuginfod) for us.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>

#include "probes/diag.h"
#include "probes/binary/debuginfo.h"
#include "util/log.h"

/* NULL: libdwfl's default, ":.debug:/usr/lib/debug" */
static char *debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* -v: which file the DWARF came from, so a stale or wrong one shows; a
 * missing DWZ alternate file is a warning, in d. */
static void report_debug_file(const struct bp_debuginfo *di, struct bp_diag *d)
{
	const char *debugfile = NULL, *alt = NULL;
	const void *build_id;
	Dwarf *altdw;

	dwfl_module_info(di->mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	if (dwelf_dwarf_gnu_debugaltlink(di->dwarf, &alt, &build_id) <= 0)
		alt = NULL;
	altdw = alt ? dwarf_getalt(di->dwarf) : NULL;
	if (alt && !altdw) {
		/* what dwz moved there (types, shared DIEs) is then missing */
		bp_diag__warn(d, NULL, "%s: its debug info refers to the DWZ alternate file '%s', which was not found (by build ID under /usr/lib/debug/.build-id, or at that path): types and functions may be missing",
			      di->path, alt);
		alt = NULL;
	}
	bp_info("%s: debug info (DWARF) from %s%s%s%s\n", di->path,
		debugfile ? debugfile : "the file itself",
		alt ? ", with the DWZ alternate file '" : "", alt ? alt : "",
		alt ? "'" : "");
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

int bp_debuginfo__open(const char *path, struct bp_debuginfo **out, struct bp_diag *d)
{
	struct bp_debuginfo *di;
	struct stat after;
	int err = -ENOMEM;

	/* where separate debug files are looked for: elfutils' default
	 * ":.debug:/usr/lib/debug" unless the user says otherwise */
	debuginfo_path = getenv("BPFPROBE_DEBUGINFO_PATH");
	di = calloc(1, sizeof(*di));
	if (!di)
		goto err;
	di->path = strdup(path);
	di->cache = calloc(1, sizeof(*di->cache));
	di->dwfl = dwfl_begin(&offline_callbacks);
	if (!di->path || !di->cache || !di->dwfl)
		goto err;

	di->st_ok = !stat(path, &di->st);
	dwfl_report_begin(di->dwfl);
	di->mod = dwfl_report_offline(di->dwfl, path, path, -1);
	if (!di->mod || dwfl_report_end(di->dwfl, NULL, NULL)) {
		bp_diag__set(d, "cannot open '%s': %s", path, dwfl_errmsg(-1));
		err = -EINVAL;
		goto err;
	}
	di->elf = dwfl_module_getelf(di->mod, &di->elf_bias);
	di->st_ok = di->st_ok && !stat(path, &after) && same_file(&di->st, &after);
	if (!di->elf) {
		bp_diag__set(d, "cannot read ELF file '%s': %s", path, dwfl_errmsg(-1));
		err = -EINVAL;
		goto err;
	}
	/* NULL is fine: callers that need DWARF say so with context */
	di->dwarf = dwfl_module_getdwarf(di->mod, &di->dwarf_bias);
	if (!di->dwarf) {
		bp_debug("%s: no DWARF: %s\n", path, dwfl_errmsg(-1));
		/* symbols then speak in the main ELF's addresses */
		di->dwarf_bias = di->elf_bias;
	} else {
		report_debug_file(di, d);
	}
	*out = di;
	return 0;
err:
	if (err == -ENOMEM)
		bp_diag__add(d, "out of memory opening '%s'", path);
	bp_debuginfo__free(di);
	return err;
}

void bp_debuginfo__free(struct bp_debuginfo *di)
{
	if (!di)
		return;
	if (di->cache && di->cache->free_callsites)
		di->cache->free_callsites(di->cache->callsites);
	if (di->cache && di->cache->free_index) {
		di->cache->free_index(di->cache->index);
		di->cache->free_index(di->cache->index_rejected);
	}
	if (di->cache && di->cache->free_window)
		di->cache->free_window(di->cache->window);
	if (di->cache && di->cache->free_types)
		di->cache->free_types(di->cache->types);
	free(di->cache);
	if (di->dwfl)
		dwfl_end(di->dwfl);
	free(di->path);
	free(di);
}

uint64_t bp_debuginfo__elf_addr(const struct bp_debuginfo *di, uint64_t addr)
{
	return addr + di->dwarf_bias - di->elf_bias;
}

int bp_debuginfo__file_offset(const struct bp_debuginfo *di, uint64_t addr,
			      uint64_t *offset)
{
	uint64_t a = bp_debuginfo__elf_addr(di, addr);
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(di->elf, &n))
		return -ENOENT;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(di->elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		/* p_filesz, not p_memsz: code lives in the file image */
		if (a >= ph.p_vaddr && a - ph.p_vaddr < ph.p_filesz) {
			*offset = a - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

static int cfa_from(Dwarf_CFI *cfi, Dwarf_Addr addr, Dwarf_Frame **frame,
		    Dwarf_Op **ops, size_t *nops)
{
	if (!cfi || dwarf_cfi_addrframe(cfi, addr, frame))
		return -ENOENT;
	if (dwarf_frame_cfa(*frame, ops, nops) || !*nops) {
		free(*frame);
		*frame = NULL;
		return -ENOENT;
	}
	return 0;
}

int bp_debuginfo__cfa(const struct bp_debuginfo *di, uint64_t addr,
		      Dwarf_Frame **frame, Dwarf_Op **ops, size_t *nops)
{
	Dwarf_Addr dwfl_addr = addr + di->dwarf_bias, bias;
	Dwarf_CFI *cfi;

	/* .eh_frame is in the binary itself; .debug_frame is the fallback
	 * for code built with -fno-asynchronous-unwind-tables */
	cfi = dwfl_module_eh_cfi(di->mod, &bias);
	if (!cfa_from(cfi, dwfl_addr - bias, frame, ops, nops))
		return 0;
	cfi = dwfl_module_dwarf_cfi(di->mod, &bias);
	return cfa_from(cfi, dwfl_addr - bias, frame, ops, nops);
}

/* Calls cb(name, addr, sym) for each defined function symbol. */
static int for_each_func_sym(const struct bp_debuginfo *di,
			     int (*cb)(const char *name, uint64_t addr,
				       const GElf_Sym *sym, void *ctx),
			     void *ctx)
{
	int i, n, err;

	n = dwfl_module_getsymtab(di->mod);
	for (i = 1; i < n; i++) {
		const char *name;
		GElf_Addr addr;
		GElf_Word shndx;
		GElf_Sym sym;
		int type;

		name = dwfl_module_getsym_info(di->mod, i, &sym, &addr, &shndx,
					       NULL, NULL);
		if (!name || !*name || shndx == SHN_UNDEF)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		err = cb(name, addr - di->dwarf_bias, &sym, ctx);
		if (err)
			return err;
	}
	return 0;
}

struct elf_funcs_ctx {
	const char *name;
	bool glob;
	int (*cb)(const struct bp_elf_func *f, void *ctx);
	void *ctx;
	int ncalls;
};

static int elf_funcs_one(const char *name, uint64_t addr, const GElf_Sym *sym,
			 void *arg)
{
	struct elf_funcs_ctx *c = arg;
	struct bp_elf_func f = { .addr = addr, .size = sym->st_size, .name = name };
	int err;

	if (c->glob ? fnmatch(c->name, name, 0) : strcmp(name, c->name))
		return 0;
	err = c->cb(&f, c->ctx);
	if (err)
		return err;
	c->ncalls++;
	return 0;
}

int bp_debuginfo__elf_funcs(const struct bp_debuginfo *di, const char *name,
			    bool glob,
			    int (*cb)(const struct bp_elf_func *f, void *ctx),
			    void *ctx)
{
	struct elf_funcs_ctx c = { .name = name, .glob = glob, .cb = cb, .ctx = ctx };
	int err;

	err = for_each_func_sym(di, elf_funcs_one, &c);
	return err ? err : c.ncalls;
}

struct elf_names_ctx {
	void (*cb)(const char *name, void *ctx);
	void *ctx;
};

static int elf_names_one(const char *name, uint64_t addr, const GElf_Sym *sym,
			 void *arg)
{
	struct elf_names_ctx *c = arg;

	c->cb(name, c->ctx);
	return 0;
}

void bp_debuginfo__elf_func_names(const struct bp_debuginfo *di,
				  void (*cb)(const char *name, void *ctx),
				  void *ctx)
{
	struct elf_names_ctx c = { .cb = cb, .ctx = ctx };

	for_each_func_sym(di, elf_names_one, &c);
}

/* How much a symbol of this type suits @SYM: 0 best, -1 not at all. */
static int data_rank(int type)
{
	switch (type) {
	case STT_OBJECT:
	case STT_COMMON:
	case STT_TLS:
		return 0;
	case STT_FUNC:
	case STT_GNU_IFUNC:
	case STT_NOTYPE:
		return 1;
	default:
		return -1;
	}
}

#define MAX_SAME_NAME	16

int bp_debuginfo__data_symbol(const struct bp_debuginfo *di, const char *name,
			      struct bp_elf_sym *out, int *count)
{
	struct bp_elf_sym found[MAX_SAME_NAME];
	int i, k, n, rank, best_rank = 2, nfound = 0, more = 0, global = -1, nglobals = 0;

	n = dwfl_module_getsymtab(di->mod);
	for (i = 1; i < n; i++) {
		const char *sname;
		GElf_Addr addr;
		GElf_Word shndx;
		GElf_Sym sym;

		sname = dwfl_module_getsym_info(di->mod, i, &sym, &addr, &shndx, NULL, NULL);
		if (!sname || strcmp(sname, name) || shndx == SHN_UNDEF)
			continue;
		rank = data_rank(GELF_ST_TYPE(sym.st_info));
		if (rank < 0 || rank > best_rank)
			continue;
		if (rank < best_rank) {
			best_rank = rank;
			nfound = more = 0;
		}
		addr -= di->dwarf_bias;
		/* the same again (.dynsym repeats .symtab): global if either is */
		for (k = 0; k < nfound && found[k].addr != addr; k++)
			;
		if (k == nfound && nfound == MAX_SAME_NAME) {
			more++;
			continue;
		}
		if (k == nfound)
			found[nfound++] = (struct bp_elf_sym){
				.addr = addr, .size = sym.st_size,
				.type = GELF_ST_TYPE(sym.st_info), .name = sname,
			};
		if (GELF_ST_BIND(sym.st_info) != STB_LOCAL)
			found[k].global = true;
	}
	for (k = 0; k < nfound; k++) {
		if (found[k].global) {
			global = k;
			nglobals++;
		}
	}
	*count = nfound + more;
	if (!nfound)
		return 0;
	if (nfound == 1 || nglobals == 1) {
		*out = found[nfound == 1 ? 0 : global];
		return 1;
	}
	*out = found[0];
	return -ENOTUNIQ;
}

const char *bp_debuginfo__symbol_at(const struct bp_debuginfo *di, uint64_t addr)
{
	GElf_Addr dwfl_addr = addr + di->dwarf_bias, off = 1;
	const char *name;
	GElf_Sym sym;

	name = dwfl_module_addrinfo(di->mod, dwfl_addr, &off, &sym, NULL, NULL, NULL);
	return name && !off ? name : NULL;
}
