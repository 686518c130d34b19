// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* What the copies of a glob share, in O(n log n) (copies.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probes/dwarf/copies.h"
#include "probes/dwarf/dwarf.h"

struct bp_copy_key {
	uint64_t v;		/* the DIE's offset, or the entry */
	bool inl;
	bool used;
};

static struct bp_copy_key key_of(const struct bp_func *f)
{
	struct bp_copy_key k = { .inl = f->is_inline, .used = true };

	/* an inlined copy reached twice is the same DIE, through whichever
	 * Dwarf (the unit window's or the file's) */
	k.v = f->is_inline ? dwarf_dieoffset((Dwarf_Die *)&f->die) : f->entry;
	return k;
}

static size_t hash_of(const struct bp_copy_key *k)
{
	uint64_t h = k->v ^ ((uint64_t)k->inl << 63);

	/* a 64-bit finalizer (splitmix64's): entries are multiples of 16 */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return (size_t)h;
}

static bool same_key(const struct bp_copy_key *a, const struct bp_copy_key *b)
{
	return a->v == b->v && a->inl == b->inl;
}

/* The slot of k in slots (cap a power of two): its own, or a free one. */
static struct bp_copy_key *slot_of(struct bp_copy_key *slots, size_t cap,
				   const struct bp_copy_key *k)
{
	size_t i = hash_of(k) & (cap - 1);

	while (slots[i].used && !same_key(&slots[i], k))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int grow(struct bp_copy_set *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64, i;
	struct bp_copy_key *slots;

	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < s->cap; i++) {
		if (s->slots[i].used)
			*slot_of(slots, cap, &s->slots[i]) = s->slots[i];
	}
	free(s->slots);
	s->slots = slots;
	s->cap = cap;
	return 0;
}

int bp_copy_set__add(struct bp_copy_set *s, const struct bp_func *f)
{
	struct bp_copy_key k = key_of(f), *slot;

	/* at most half full */
	if ((s->n + 1) * 2 > s->cap && grow(s))
		return -ENOMEM;
	slot = slot_of(s->slots, s->cap, &k);
	if (slot->used)
		return 0;
	*slot = k;
	s->n++;
	return 1;
}

void bp_copy_set__clear(struct bp_copy_set *s)
{
	free(s->slots);
	memset(s, 0, sizeof(*s));
}

/* --- names and units shared ---------------------------------------------- */

/* Whether copies a and b are in one group: same name, or same unit. */
static bool same_name(const struct bp_func *a, const struct bp_func *b)
{
	return !strcmp(a->name, b->name);
}

static bool same_unit(const struct bp_func *a, const struct bp_func *b)
{
	return a->die.cu == b->die.cu;
}

static int by_name(const void *a, const void *b, void *arg)
{
	const struct bp_func *funcs = arg;

	return strcmp(funcs[*(const int *)a].name, funcs[*(const int *)b].name);
}

static int by_unit(const void *a, const void *b, void *arg)
{
	const struct bp_func *funcs = arg;
	uintptr_t ua = (uintptr_t)funcs[*(const int *)a].die.cu;
	uintptr_t ub = (uintptr_t)funcs[*(const int *)b].die.cu;

	return ua < ub ? -1 : ua > ub;
}

/* Sorts the k indices in idx by cmp; each run of two or more copies that
 * same() puts together gets its flag (name_shared or unit_shared) set. */
static void mark_runs(const struct bp_func *funcs, int *idx, int k,
		      int (*cmp)(const void *, const void *, void *),
		      bool (*same)(const struct bp_func *, const struct bp_func *),
		      struct bp_copy_facts *facts, bool name)
{
	int i, j, m;

	qsort_r(idx, k, sizeof(*idx), cmp, (void *)funcs);
	for (i = 0; i < k; i = j) {
		for (j = i + 1; j < k && same(&funcs[idx[i]], &funcs[idx[j]]); j++)
			;
		for (m = i; j - i > 1 && m < j; m++) {
			if (name)
				facts[idx[m]].name_shared = true;
			else
				facts[idx[m]].unit_shared = true;
		}
	}
}

int bp_copies__facts(const struct bp_func *funcs, int n, struct bp_copy_facts **facts)
{
	int *idx, i, k;

	*facts = NULL;
	if (n <= 0)
		return 0;
	*facts = calloc(n, sizeof(**facts));
	idx = malloc(n * sizeof(*idx));
	if (!*facts || !idx) {
		free(*facts);
		*facts = NULL;
		free(idx);
		return -ENOMEM;
	}
	/* names: among the out-of-line copies that have one */
	for (i = k = 0; i < n; i++) {
		if (!funcs[i].is_inline && funcs[i].name)
			idx[k++] = i;
	}
	mark_runs(funcs, idx, k, by_name, same_name, *facts, true);
	/* units: among the copies with a DIE */
	for (i = k = 0; i < n; i++) {
		if (funcs[i].has_die)
			idx[k++] = i;
	}
	mark_runs(funcs, idx, k, by_unit, same_unit, *facts, false);
	free(idx);
	return 0;
}
