/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One probed binary opened with libdwfl (offline): its main ELF, its DWARF
 * wherever libdwfl found it, its CFI and symbol table. The separate debug
 * file is looked for, in this order (elfutils' find-debuginfo):
 *   /usr/lib/debug/.build-id/xx/rest.debug   by the binary's build ID
 *   DIR/NAME, DIR/.debug/NAME, /usr/lib/debug/DIR/NAME
 *       NAME from .gnu_debuglink (its CRC checked), else BINARY.debug, so
 *       /usr/lib/debug/<path of the binary>.debug is found too
 *   debuginfod, when DEBUGINFOD_URLS is set.
 * A DWZ alternate file (.gnu_debugaltlink) is found by its build ID or
 * path, and compressed sections (SHF_COMPRESSED, .zdebug) are inflated
 * by libdw. BPFPROBE_DEBUGINFO_PATH replaces the list of directories
 * (elfutils' syntax: ":.debug:/usr/lib/debug").
 *
 * Addresses: everything here takes and returns link-time addresses as the
 * DWARF of the binary writes them; libdwfl's own bias (where it placed the
 * module) never leaks out.
 */
#ifndef BPFPROBE_DEBUGINFO_H
#define BPFPROBE_DEBUGINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <elfutils/libdwfl.h>

struct bp_diag;
struct bp_callsite_index;
struct bp_dwarf_index;
struct bp_type_defs;
struct bp_unit_window;

/* What is worked out from a binary's DWARF once, when first needed, by
 * the layers above (which say how to free it). */
struct bp_debuginfo_lazy {
	struct bp_callsite_index *callsites;	/* callsite.c */
	void (*free_callsites)(struct bp_callsite_index *index);
	/* the function index (index.c): NULL when none is used */
	struct bp_dwarf_index *index;
	struct bp_dwarf_index *index_rejected;	/* found wrong: unused, kept */
	bool index_tried;
	void (*free_index)(struct bp_dwarf_index *index);
	/* where named types are defined, when the index does not say
	 * (probes/dwarf/type_complete.c) */
	struct bp_type_defs *types;
	void (*free_types)(struct bp_type_defs *types);
	/* unit_window.h's second view of the DWARF */
	struct bp_unit_window *window;
	void (*free_window)(struct bp_unit_window *window);
	/* warnings said about this binary outside any report (its index
	 * built invalid): a resolution during which this moved said something */
	unsigned int warnings;
};

struct bp_debuginfo {
	char *path;		/* absolute path of the binary */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;		/* main ELF: program headers */
	GElf_Addr elf_bias;	/* dwfl address = ELF link-time address + elf_bias */
	Dwarf *dwarf;		/* NULL when no DWARF was found */
	Dwarf_Addr dwarf_bias;	/* dwfl address = DWARF address + dwarf_bias */
	/*
	 * The binary as it was opened: stat()ed before libdwfl reads it and
	 * after, st_ok false when the two differ (it changed meanwhile). What
	 * a stored index must have been made from (index.h).
	 */
	struct stat st;
	bool st_ok;
	/* no function index (--no-cache): the DWARF is walked */
	bool no_index;
	/* filled lazily, also through a const di */
	struct bp_debuginfo_lazy *cache;
	struct bp_debuginfo *next;	/* debuginfo_cache.h */
};

/*
 * Opens path (absolute). Returns 0, or a negative errno with d saying why.
 * A binary without DWARF opens fine: dwarf is NULL. What is worth a
 * warning (a DWZ alternate file that is missing) is in d either way.
 */
int bp_debuginfo__open(const char *path, struct bp_debuginfo **out, struct bp_diag *d);
void bp_debuginfo__free(struct bp_debuginfo *di);

/* The main ELF's link-time address of a DWARF address (equal unless the
 * debug file was linked elsewhere, e.g. prelink). */
uint64_t bp_debuginfo__elf_addr(const struct bp_debuginfo *di, uint64_t addr);

/* File offset of the byte at DWARF address addr: what a uprobe takes.
 * Returns 0 or -ENOENT when no PT_LOAD segment holds it in the file. */
int bp_debuginfo__file_offset(const struct bp_debuginfo *di, uint64_t addr,
			      uint64_t *offset);

/*
 * The CFA rule at DWARF address addr as a DWARF expression (typically one
 * DW_OP_bregx). *frame must be free()d by the caller; *ops lives as long
 * as it. Returns 0 or -ENOENT when no CFI covers addr.
 */
int bp_debuginfo__cfa(const struct bp_debuginfo *di, uint64_t addr,
		      Dwarf_Frame **frame, Dwarf_Op **ops, size_t *nops);

/* A function found in the ELF symbol table. */
struct bp_elf_func {
	uint64_t addr;		/* DWARF-space link-time address */
	uint64_t size;
	const char *name;	/* lives as long as di */
};

/*
 * Calls cb for every defined function symbol named name, or matching it as
 * a glob (several for static functions in several files; an address may
 * come twice when an auxiliary symbol table repeats it). Returns the
 * number of calls, or a negative errno when cb fails.
 */
int bp_debuginfo__elf_funcs(const struct bp_debuginfo *di, const char *name,
			    bool glob,
			    int (*cb)(const struct bp_elf_func *f, void *ctx),
			    void *ctx);

/* The name of a function symbol starting exactly at DWARF address addr
 * (e.g. clone_me.constprop.0), or NULL. */
const char *bp_debuginfo__symbol_at(const struct bp_debuginfo *di, uint64_t addr);

/* A symbol @SYM names (bp_debuginfo__data_symbol). */
struct bp_elf_sym {
	uint64_t addr;		/* DWARF-space link-time address */
	uint64_t size;
	int type;		/* STT_OBJECT, STT_TLS, STT_FUNC, ... */
	bool global;		/* not STB_LOCAL */
	const char *name;	/* lives as long as di */
};

/*
 * The defined symbol called name, for @SYM: a data object (STT_OBJECT,
 * STT_COMMON, STT_TLS) first, else a function or an untyped symbol
 * (STT_FUNC, STT_GNU_IFUNC, STT_NOTYPE). Several of that kind at
 * different addresses (statics of several files) are one when exactly one
 * of them is global. Returns 1 with *out, 0 when there is none, or
 * -ENOTUNIQ with *count (how many addresses) and *out the first.
 */
int bp_debuginfo__data_symbol(const struct bp_debuginfo *di, const char *name,
			      struct bp_elf_sym *out, int *count);

/* Calls cb with the name of every defined function symbol (suggestions). */
void bp_debuginfo__elf_func_names(const struct bp_debuginfo *di,
				  void (*cb)(const char *name, void *ctx),
				  void *ctx);

#endif /* BPFPROBE_DEBUGINFO_H */
