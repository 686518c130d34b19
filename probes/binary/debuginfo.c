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
#include "probes/binary/debug_find.h"
#include "probes/binary/debuginfo.h"
#include "probes/binary/inflate_budget.h"
#include "util/build_id.h"
#include "util/log.h"
#include "util/regular_file.h"

/* libdwfl's default, when BPFPROBE_DEBUGINFO_PATH does not say otherwise */
#define DEFAULT_DEBUGINFO_PATH	":.debug:/usr/lib/debug"

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	/* only regular files, never blocking (debug_find.h) */
	.find_debuginfo = bp_debug_find__callback,
	.section_address = dwfl_offline_section_address,
};

/*
 * The directories separate debug files are searched in (debug_find.h),
 * first_dir first when given (a root's debug directory: another
 * process's binaries), then BPFPROBE_DEBUGINFO_PATH or elfutils' default;
 * in elfutils' syntax. NULL: the default, unchanged (or out of memory,
 * *nomem then).
 */
static char *search_path(const char *first_dir, bool *nomem)
{
	const char *env = getenv("BPFPROBE_DEBUGINFO_PATH");
	size_t len;
	char *path;

	*nomem = false;
	if (!first_dir)
		return NULL;
	if (!env)
		env = DEFAULT_DEBUGINFO_PATH;
	len = strlen(env) + strlen(first_dir) + 2;
	path = malloc(len);
	if (!path) {
		*nomem = true;
		return NULL;
	}
	/* a leading '+' or '-' (CRC checks) stays first */
	if (*env == '+' || *env == '-')
		snprintf(path, len, "%c%s:%s", *env, first_dir, env + 1);
	else
		snprintf(path, len, "%s:%s", first_dir, env);
	return path;
}

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

/*
 * The binary opened (a regular file, without blocking), into di->fd and
 * di->st, with its build ID; what its own sections inflate to checked
 * against their budget, and the DWZ file its own DWARF would name noted.
 */
static int open_main(struct bp_debuginfo *di, struct bp_diag *d)
{
	char why[1024];
	Elf *elf;
	int err;

	di->fd = bp_regular_file__open(di->path, &di->st);
	if (di->fd == -EINVAL) {
		bp_diag__set(d, "cannot open '%s': it is %s, not a regular file", di->path,
			     bp_file_type__name(di->st.st_mode));
		return -EINVAL;
	}
	if (di->fd < 0) {
		err = di->fd;
		bp_diag__set(d, "cannot open '%s': %s", di->path, strerror(-err));
		return err;
	}
	di->find->main_st = di->st;
	di->build_id_len = bp_build_id__of_file(di->fd, di->build_id, sizeof(di->build_id));
	elf = elf_begin(di->fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		err = bp_inflate_budget__check(elf, di->path, di->st.st_size, why, sizeof(why));
		if (err) {
			bp_diag__set(d, "%s", why);
			elf_end(elf);
			return err;
		}
		bp_debug_find__altlink(di->find, elf);
	}
	elf_end(elf);
	return 0;
}

/* libdwfl reads the binary through its own copy of di->fd, and asks the
 * debug-file hunt with di->find. */
static int report_module(struct bp_debuginfo *di, struct bp_diag *d)
{
	int fd = fcntl(di->fd, F_DUPFD_CLOEXEC, 0);
	void **userdata;

	if (fd < 0) {
		bp_diag__set(d, "cannot open '%s': %s", di->path, strerror(errno));
		return -errno;
	}
	dwfl_report_begin(di->dwfl);
	/* libdwfl owns fd once the module is made */
	di->mod = dwfl_report_offline(di->dwfl, di->path, di->path, fd);
	if (!di->mod)
		close(fd);
	if (!di->mod || dwfl_report_end(di->dwfl, NULL, NULL)) {
		bp_diag__set(d, "cannot open '%s': %s", di->path, dwfl_errmsg(-1));
		return -EINVAL;
	}
	dwfl_module_info(di->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = di->find;
	return 0;
}

/* Whether the binary is what it was when opened: unchanged in place, and
 * its path still naming it. */
static bool still_same(const struct bp_debuginfo *di)
{
	struct stat now, named;

	return !fstat(di->fd, &now) && same_file(&di->st, &now) && !stat(di->path, &named) &&
	       named.st_dev == di->st.st_dev && named.st_ino == di->st.st_ino;
}

int bp_debuginfo__open(const char *path, struct bp_debuginfo **out, struct bp_diag *d)
{
	return bp_debuginfo__open_in(path, NULL, out, d);
}

int bp_debuginfo__open_in(const char *path, const char *debug_dir, struct bp_debuginfo **out,
			  struct bp_diag *d)
{
	struct bp_debuginfo *di;
	const void *alt_id;
	const char *alt;
	GElf_Word crc;
	bool nomem;
	int err = -ENOMEM;

	di = calloc(1, sizeof(*di));
	if (!di)
		goto err;
	di->fd = -1;
	di->path = strdup(path);
	di->cache = calloc(1, sizeof(*di->cache));
	di->find = calloc(1, sizeof(*di->find));
	di->dwfl = dwfl_begin(&offline_callbacks);
	if (!di->path || !di->cache || !di->find || !di->dwfl)
		goto err;
	di->find->search = search_path(debug_dir, &nomem);
	if (nomem)
		goto err;
	di->find->path = di->path;

	err = open_main(di, d);
	if (!err)
		err = report_module(di, d);
	if (err)
		goto err;
	di->elf = dwfl_module_getelf(di->mod, &di->elf_bias);
	if (!di->elf) {
		bp_diag__set(d, "cannot read ELF file '%s': %s", path, dwfl_errmsg(-1));
		err = -EINVAL;
		goto err;
	}
	/* libdwfl passes this very string when it looks for the debug file */
	di->find->main_debuglink = dwelf_elf_gnu_debuglink(di->elf, &crc);
	/* NULL is fine: callers that need DWARF say so with context */
	di->dwarf = dwfl_module_getdwarf(di->mod, &di->dwarf_bias);
	di->st_ok = still_same(di);
	if (di->find->err) {
		/* a debug file found that would inflate past its budget */
		bp_diag__set(d, "%s", di->find->why);
		err = di->find->err;
		goto err;
	}
	/*
	 * A DWZ file the hunt did not find: libdw would look for it itself,
	 * with plain opens (a FIFO there would block). Its "looked for, not
	 * found" mark (elfutils 0.171 on) keeps it from trying.
	 */
	if (di->dwarf && !di->find->alt_found &&
	    dwelf_dwarf_gnu_debugaltlink(di->dwarf, &alt, &alt_id) > 0)
		dwarf_setalt(di->dwarf, (Dwarf *)-1);
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
	if (di->fd >= 0)
		close(di->fd);
	bp_debug_find__free(di->find);
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
