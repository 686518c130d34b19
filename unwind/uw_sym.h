/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One PC of a module to its frames as gdb's `bt` shows them: the function
 * and, for a PC inside inlined calls, one frame per inlined function
 * (innermost first), each with its file:line. Results are remembered per
 * address (bounded).
 */
#ifndef BPFPROBE_UW_SYM_H
#define BPFPROBE_UW_SYM_H

#include <stdbool.h>
#include <elfutils/libdwfl.h>

/* One frame of a PC; strings owned by the module's Dwfl. */
struct uw_sym {
	const char *func;	/* NULL: unknown */
	const char *file;	/* NULL: unknown */
	int line;		/* 0: unknown */
	bool is_inline;
	bool has_start;		/* the real function's frame: its symbol's address */
	Dwarf_Addr start;
	bool has_entry;		/* the real function's frame: where gdb says it starts */
	Dwarf_Addr entry;	/* (DWARF's entry, else the symbol's) */
};

/* A module's symbols: the module (in some Dwfl) and what was looked up. */
struct uw_dbg;

struct uw_dbg *uw_dbg__new(Dwfl_Module *mod);
void uw_dbg__free(struct uw_dbg *d);

/*
 * The frames of addr (an address of mod's Dwfl, already minus 1 for a
 * return address): *syms (innermost first; valid until the next call)
 * and *n >= 1. 0, or -ENOMEM.
 */
int uw_dbg__symbolize(struct uw_dbg *d, Dwarf_Addr addr, const struct uw_sym **syms, int *n);

/* The module's call sites (uw_calls.h), or NULL when out of memory. */
struct uw_calls *uw_dbg__calls(struct uw_dbg *d);

#endif /* BPFPROBE_UW_SYM_H */
