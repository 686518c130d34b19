/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the copies a glob matched have in common, worked out once for all
 * of them (copies.c): a glob over one unit of 100k functions must not
 * compare every copy with every other one.
 *
 *   - the set of copies already found (the walk and the index may reach
 *     the same code twice: DWZ, .dynsym): a hash set, not a scan;
 *   - which copies share a name (several out-of-line copies of it: their
 *     CU tells them apart in messages) and which share a unit (whose line
 *     table is then decoded once, by libdw, for all of them, instead of
 *     the unit's line program being run again for each): by sorting.
 */
#ifndef BPFPROBE_DWARF_COPIES_H
#define BPFPROBE_DWARF_COPIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bp_func;

/* The copies seen, by identity: an inlined copy by its DIE, an
 * out-of-line one by its entry. */
struct bp_copy_set {
	struct bp_copy_key *slots;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};

/* 1: f was not in s and is now; 0: it was; -ENOMEM. */
int bp_copy_set__add(struct bp_copy_set *s, const struct bp_func *f);
void bp_copy_set__clear(struct bp_copy_set *s);

/* What copy i of an array shares with the others. */
struct bp_copy_facts {
	bool name_shared;	/* another out-of-line copy has its name */
	bool unit_shared;	/* another copy (with a DIE) is in its unit */
};

/* facts[i] for each of the n funcs, into a malloc'ed *facts (NULL when n
 * is 0). Returns 0 or -ENOMEM. */
int bp_copies__facts(const struct bp_func *funcs, int n, struct bp_copy_facts **facts);

#endif /* BPFPROBE_DWARF_COPIES_H */
