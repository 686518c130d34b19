// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The frames of tail calls, as gdb's `bt` shows them (gdb's
 * dwarf2/frame-tailcall.c and call_site_find_chain in dwarf2/loc.c).
 *
 * A function that ends in a jump to another leaves no frame: unwinding the
 * callee returns straight into the caller of the function that jumped.
 * The DWARF call sites say what was called: the caller's call site at the
 * return address names a function; when that is not the callee, the
 * chains of tail calls from it (through functions that list all their
 * tail calls) that reach the callee are searched. When every chain found
 * agrees, its functions are frames between the callee and the caller
 * (else only the part at either end that all chains share). A computed
 * target, a missing call site or a function without DWARF ends the
 * search with no frames, as in gdb: nothing is guessed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/uw_calls.h"
#include "unwind/uw_core.h"
#include "unwind/uw_sym.h"

/* Tail calls in one chain, at most */
#define MAX_CHAIN	32
/* Call sites visited by one search, at most */
#define MAX_STEPS	4096

struct search {
	struct bp_unwinder *u;
	struct uw_proc *p;
	Dwarf_Addr callee;
	Dwarf_Addr chain[MAX_CHAIN];	/* the call sites (their pcs) being tried */
	int len;
	bool have;			/* a result so far */
	Dwarf_Addr result[MAX_CHAIN];
	int rlen, callers, callees;
	bool failed;			/* gdb would have given up */
	int steps;
};

/* A module's symbols for a process address: the dbg and what to add to
 * its addresses to make them the process's. */
static struct uw_dbg *dbg_at(struct search *s, Dwarf_Addr addr, Dwarf_Addr *delta)
{
	Dwfl_Module *mod = dwfl_addrmodule(s->p->dwfl, addr);
	struct uw_mod *um = mod ? uw_proc__mod(mod) : NULL;
	Dwarf_Addr a = addr;
	struct uw_dbg *d;

	if (!um)
		return NULL;
	d = uw_build__dbg(s->u, um, &a);
	*delta = addr - a;
	return d;
}

/* gdb's lookup_minimal_symbol: the program's own first, then the others. */
static int global_addr(struct search *s, const char *name, Dwarf_Addr *out)
{
	int pass;
	size_t i;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < s->p->nmods; i++) {
			struct uw_mod *um = &s->p->mods[i];
			bool exe = um->m->ino == s->p->maps->exe_ino;
			struct uw_calls *calls;
			struct uw_dbg *d;
			Dwarf_Addr a = um->m->low, addr;

			if (exe != (pass == 0) || um->m->vdso || !dwfl_module_getelf(um->mod, &addr))
				continue;
			d = uw_build__dbg(s->u, um, &a);
			calls = d ? uw_dbg__calls(d) : NULL;
			if (calls && !uw_calls__global(calls, name, &addr)) {
				*out = addr + (um->m->low - a);
				return 0;
			}
		}
	}
	return -ENOENT;
}

/* Where call site cs (of a module at delta) may go, as process addresses. */
static int targets(struct search *s, struct uw_calls *calls, Dwarf_Addr delta,
		   const struct uw_call_site *cs, Dwarf_Addr *out, int *n)
{
	struct uw_call_target t;
	int i;

	if (uw_calls__target(calls, cs, &t))
		return -ENOENT;
	if (t.name) {
		*n = 1;
		return global_addr(s, t.name, &out[0]);
	}
	for (i = 0; i < t.n; i++)
		out[i] = t.addrs[i] + delta;
	*n = t.n;
	return 0;
}

/* gdb's chain_candidate: keeps what every chain found shares. */
static void candidate(struct search *s)
{
	int i, n;

	if (!s->have) {
		memcpy(s->result, s->chain, s->len * sizeof(*s->chain));
		s->rlen = s->callers = s->callees = s->len;
		s->have = true;
		return;
	}
	n = s->callers < s->len ? s->callers : s->len;
	for (i = 0; i < n; i++) {
		if (s->result[i] != s->chain[i]) {
			s->callers = i;
			break;
		}
	}
	n = s->callees < s->len ? s->callees : s->len;
	for (i = 0; i < n; i++) {
		if (s->result[s->rlen - 1 - i] != s->chain[s->len - 1 - i]) {
			s->callees = i;
			break;
		}
	}
	if (!s->callers && !s->callees)
		s->have = false;	/* ambiguous: nothing can be said */
}

static bool in_chain(const struct search *s, Dwarf_Addr pc)
{
	int i;

	for (i = 0; i < s->len; i++)
		if (s->chain[i] == pc)
			return true;
	return false;
}

/* gdb's call_site_find_chain_2: false to stop the whole search. */
static bool search_from(struct search *s, struct uw_calls *calls, Dwarf_Addr delta,
			const struct uw_call_site *cs)
{
	Dwarf_Addr to[UW_CALL_TARGETS];
	int i, j, n = 0;

	if (++s->steps > MAX_STEPS || targets(s, calls, delta, cs, to, &n)) {
		s->failed = true;
		return false;
	}
	for (i = 0; i < n; i++) {
		if (to[i] == s->callee) {
			candidate(s);
			return s->have;
		}
	}
	for (i = 0; i < n; i++) {
		const struct uw_call_site *list;
		struct uw_call_site *tails;
		struct uw_calls *tcalls;
		struct uw_dbg *d;
		Dwarf_Addr tdelta;
		int ntails;

		d = dbg_at(s, to[i], &tdelta);
		tcalls = d ? uw_dbg__calls(d) : NULL;
		if (!tcalls || uw_calls__tail_calls(tcalls, to[i] - tdelta, &list, &ntails)) {
			s->failed = true;
			return false;
		}
		/* the list is overwritten by the next search: a copy */
		tails = malloc((ntails ? ntails : 1) * sizeof(*tails));
		if (!tails) {
			s->failed = true;
			return false;
		}
		if (ntails)
			memcpy(tails, list, ntails * sizeof(*tails));
		for (j = 0; j < ntails; j++) {
			Dwarf_Addr pc = tails[j].pc + tdelta;

			if (in_chain(s, pc))
				continue;
			if (s->len == MAX_CHAIN) {
				s->failed = true;
				free(tails);
				return false;
			}
			s->chain[s->len++] = pc;
			if (!search_from(s, tcalls, tdelta, &tails[j])) {
				free(tails);
				return false;
			}
			s->len--;
		}
		free(tails);
	}
	return true;
}

int uw_tail__frames(struct bp_unwinder *u, struct uw_proc *p, Dwarf_Addr caller_pc,
		    Dwarf_Addr callee, Dwarf_Addr *pcs, int max)
{
	struct search *s;
	struct uw_call_site cs;
	struct uw_calls *calls;
	struct uw_dbg *d;
	Dwarf_Addr delta;
	int i, levels, n = 0;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->u = u;
	s->p = p;
	s->callee = callee;
	d = dbg_at(s, caller_pc - 1, &delta);
	calls = d ? uw_dbg__calls(d) : NULL;
	if (!calls || uw_calls__at(calls, caller_pc - delta, &cs))
		goto out;
	search_from(s, calls, delta, &cs);
	if (s->failed || !s->have || !s->rlen)
		goto out;
	levels = s->callers == s->rlen && s->callees == s->rlen ? s->rlen : s->callers + s->callees;
	/* from the callee's caller outwards (gdb's pretend_pc) */
	for (i = 0; i < levels && n < max; i++) {
		if (i < s->callees)
			pcs[n++] = s->result[s->rlen - i - 1];
		else if (s->callees != s->rlen && i - s->callees < s->callers)
			pcs[n++] = s->result[s->callers - (i - s->callees) - 1];
	}
out:
	free(s);
	return n;
}
