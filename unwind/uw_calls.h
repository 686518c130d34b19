/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A module's call sites (DW_TAG_call_site, DW_TAG_GNU_call_site), read
 * as gdb reads them to find the frames of tail calls: a call site is
 * known by the address its call returns to (DW_AT_call_return_pc, or
 * DW_AT_low_pc), it calls a function named by DW_AT_call_origin (a
 * declaration: a global symbol of that name, in whichever module; a
 * definition: its entry address), and it may be a tail call (a jump). A
 * call site whose target is computed (DW_AT_call_target) or missing
 * cannot be followed. Addresses are those of the module's Dwfl.
 */
#ifndef BPFPROBE_UW_CALLS_H
#define BPFPROBE_UW_CALLS_H

#include <stdbool.h>
#include <elfutils/libdwfl.h>

struct uw_calls;

struct uw_call_site {
	Dwarf_Addr pc;		/* where the call returns to */
	Dwarf_Off die;		/* its DIE */
	Dwarf_Off func;		/* the DIE of the real function holding it */
	bool tail;
};

#define UW_CALL_TARGETS	8

/* What a call site calls: a function named (to look up among every
 * module's global symbols) or entry addresses in this module. */
struct uw_call_target {
	const char *name;
	Dwarf_Addr addrs[UW_CALL_TARGETS];
	int n;
};

/* How the module's units are found by address (libdw's own lookup needs
 * .debug_aranges): the unit's DIE (in *mem) and the DWARF bias. */
typedef Dwarf_Die *(*uw_cu_finder)(void *arg, Dwarf_Addr addr, Dwarf_Die *mem, Dwarf_Addr *bias);

struct uw_calls *uw_calls__new(Dwfl_Module *mod, uw_cu_finder find_cu, void *arg);
void uw_calls__free(struct uw_calls *c);

/* The call site returning to pc, or -ENOENT (or -ENOMEM). */
int uw_calls__at(struct uw_calls *c, Dwarf_Addr pc, struct uw_call_site *out);

/* What cs calls, or -ENOENT when gdb could not tell (computed, missing). */
int uw_calls__target(struct uw_calls *c, const struct uw_call_site *cs, struct uw_call_target *t);

/*
 * The tail calls of the function entered at exactly entry: *v (valid
 * until the next call) and *n. -ENOENT when no function with DWARF
 * starts there.
 */
int uw_calls__tail_calls(struct uw_calls *c, Dwarf_Addr entry, const struct uw_call_site **v,
			 int *n);

/* The address of the global (or weak) function or object called name
 * defined in the module, or -ENOENT. */
int uw_calls__global(struct uw_calls *c, const char *name, Dwarf_Addr *addr);

/* Where the function of DIE die (in the unit of its module) is entered
 * as gdb sees it: its low_pc, else the start of its first range. */
int uw_calls__entry(Dwarf_Die *die, Dwarf_Addr *entry);

#endif /* BPFPROBE_UW_CALLS_H */
