// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * gdb's line tables, rebuilt from libdw's rows (uw_lines.h).
 *
 * gdb keeps a table per source file ("subfile") of a unit. Replaying its
 * reader over the rows of each sequence:
 * - a row of line 0 is dropped (the line before it goes on);
 * - a row of the same file and line as the row kept before it is dropped
 *   when that line has had a nonzero discriminator;
 * - a row that switches files at the address of the previous row, not a
 *   statement where one was, is dropped;
 * - a file switch, and the end of a sequence, put an end marker (line 0)
 *   in the file left, which first removes that file's entries at the same
 *   address (and is itself dropped when nothing precedes it);
 * - each file's entries are sorted by address, end markers first.
 * A PC's line is then: in each file, the last entry at or before the PC,
 * unless it is an end marker; of those, the one at the highest address;
 * and at that address, an entry that is a statement if the file has one
 * there (looking back from the last one).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/uw_lines.h"
#include "util/grow.h"

struct uw_lent {
	Dwarf_Addr pc;
	int line;		/* 0: an end marker */
	unsigned int file;	/* index in the unit's files */
	unsigned int seq;	/* order within its file */
	bool is_stmt;
};

struct uw_cu_lines {
	Dwarf_Off cu_off;
	const char **files;	/* subfiles by name */
	unsigned int nfiles;
	unsigned int *seen;	/* per file: the lookup that last met it */
	unsigned int gen;
	struct uw_lent *e;	/* every file's entries, by address */
	size_t n;
};

struct uw_lines {
	struct uw_cu_lines **slots;	/* open addressing by unit offset */
	size_t nslots, used;
};

struct uw_lines *uw_lines__new(void)
{
	return calloc(1, sizeof(struct uw_lines));
}

static void cu_lines_free(struct uw_cu_lines *c)
{
	if (!c)
		return;
	free(c->files);
	free(c->seen);
	free(c->e);
	free(c);
}

void uw_lines__free(struct uw_lines *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->nslots; i++)
		cu_lines_free(l->slots[i]);
	free(l->slots);
	free(l);
}

/* One file's entries while they are built. */
struct subfile {
	struct uw_lent *e;
	size_t n, cap;
};

struct builder {
	struct uw_cu_lines *c;
	struct subfile *subs;
	size_t files_cap;
};

static int file_index(struct builder *b, const char *name, unsigned int *idx)
{
	struct uw_cu_lines *c = b->c;
	unsigned int i;
	size_t cap;
	int err;

	/* a unit has a few dozen files: a linear search is enough, from
	 * the end, where the last ones looked for are */
	for (i = c->nfiles; i-- > 0;) {
		if (c->files[i] == name || !strcmp(c->files[i], name)) {
			*idx = i;
			return 0;
		}
	}
	cap = b->files_cap;
	err = bp_grow((void **)&c->files, c->nfiles, &b->files_cap, sizeof(*c->files), 16);
	if (!err)
		err = bp_grow((void **)&b->subs, c->nfiles, &cap, sizeof(*b->subs), 16);
	if (err)
		return err;
	memset(&b->subs[c->nfiles], 0, (cap - c->nfiles) * sizeof(*b->subs));
	c->files[c->nfiles] = name;
	*idx = c->nfiles++;
	return 0;
}

/* gdb's buildsym record_line(). */
static int record(struct builder *b, unsigned int file, int line, Dwarf_Addr pc, bool is_stmt)
{
	struct subfile *s = &b->subs[file];
	int err;

	if (line == 0) {
		bool had = false;
		int last_line = 0;

		while (s->n) {
			struct uw_lent *last = &s->e[s->n - 1];

			had = true;
			last_line = last->line;
			if (last->pc != pc)
				break;
			s->n--;
		}
		if (!had || !last_line)
			return 0;
	}
	err = bp_grow((void **)&s->e, s->n, &s->cap, sizeof(*s->e), 64);
	if (err)
		return err;
	s->e[s->n] = (struct uw_lent){ .pc = pc, .line = line, .file = file, .is_stmt = is_stmt };
	s->n++;
	return 0;
}

/* The state gdb's line program reader keeps within a sequence. */
struct seq_state {
	bool recording;		/* false in a sequence at address 0 (discarded code) */
	bool have_last;
	unsigned int last_file;
	int last_line;
	Dwarf_Addr last_addr;
	bool stmt_at_addr;
	int line;		/* the line register, from row to row */
	bool nonzero_disc;	/* the line has had a nonzero discriminator */
};

static int replay_row(struct builder *b, struct seq_state *st, Dwarf_Line *row)
{
	bool end = false, stmt = false, file_changed, ignore;
	unsigned int file, disc = 0;
	const char *name;
	Dwarf_Addr addr;
	int line = 0, err = 0;

	if (dwarf_lineaddr(row, &addr) || dwarf_lineno(row, &line) ||
	    dwarf_lineendsequence(row, &end) || dwarf_linebeginstatement(row, &stmt))
		return 0;
	dwarf_linediscriminator(row, &disc);
	/* gdb's line register: a new line starts its discriminator flag over */
	if (line != st->line)
		st->nonzero_disc = disc != 0;
	else
		st->nonzero_disc |= disc != 0;
	st->line = line;
	name = dwarf_linesrc(row, NULL, NULL);
	if (!name)
		return 0;
	err = file_index(b, name, &file);
	if (err)
		return err;
	file_changed = !st->have_last || st->last_file != file;
	ignore = (file_changed && !end && st->last_addr == addr && !stmt && st->stmt_at_addr) ||
		 (!end && line == 0);
	if (((file_changed && !ignore) || end) && st->have_last && st->recording)
		err = record(b, st->last_file, 0, addr, true);
	if (!err && !end && !ignore) {
		/* gdb's dwarf_record_line_p */
		bool keep = file_changed || line != st->last_line || !st->nonzero_disc;

		if (st->recording && keep)
			err = record(b, file, line, addr, stmt);
		st->have_last = true;
		st->last_file = file;
		st->last_line = line;
	}
	if (st->last_addr != addr) {
		st->stmt_at_addr = false;
		st->last_addr = addr;
	}
	st->stmt_at_addr |= stmt;
	return err;
}

static int cmp_lent(const void *a, const void *b)
{
	const struct uw_lent *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	/* within a file: end markers first, then the file's own order */
	if ((x->line == 0) != (y->line == 0))
		return x->line == 0 ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int merge(struct builder *b)
{
	struct uw_cu_lines *c = b->c;
	size_t total = 0, k = 0;
	unsigned int f;

	for (f = 0; f < c->nfiles; f++)
		total += b->subs[f].n;
	c->e = malloc((total ? total : 1) * sizeof(*c->e));
	c->seen = calloc(c->nfiles ? c->nfiles : 1, sizeof(*c->seen));
	if (!c->e || !c->seen)
		return -ENOMEM;
	for (f = 0; f < c->nfiles; f++) {
		size_t i;

		for (i = 0; i < b->subs[f].n; i++) {
			c->e[k] = b->subs[f].e[i];
			c->e[k++].seq = i;
		}
	}
	c->n = k;
	bp_sort(c->e, c->n, sizeof(*c->e), cmp_lent);
	return 0;
}

static int build(Dwarf_Die *cu, struct uw_cu_lines **out)
{
	struct builder b = { 0 };
	struct seq_state st = { 0 };
	bool seq_start = true;
	Dwarf_Lines *lines;
	size_t i, nlines;
	unsigned int f;
	int err = 0;

	b.c = calloc(1, sizeof(*b.c));
	if (!b.c)
		return -ENOMEM;
	b.c->cu_off = dwarf_dieoffset(cu);
	if (dwarf_getsrclines(cu, &lines, &nlines))
		nlines = 0;
	for (i = 0; i < nlines && !err; i++) {
		Dwarf_Line *row = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr;
		bool end = false;

		if (!row || dwarf_lineaddr(row, &addr))
			continue;
		if (seq_start) {
			st = (struct seq_state){ .recording = addr != 0, .line = 1 };
			seq_start = false;
		}
		err = replay_row(&b, &st, row);
		if (!dwarf_lineendsequence(row, &end) && end)
			seq_start = true;
	}
	if (!err)
		err = merge(&b);
	for (f = 0; f < b.c->nfiles; f++)
		free(b.subs[f].e);
	free(b.subs);
	if (err) {
		cu_lines_free(b.c);
		return err;
	}
	*out = b.c;
	return 0;
}

static size_t slot_of(const struct uw_lines *l, Dwarf_Off off)
{
	return (size_t)((off * 0x9e3779b97f4a7c15ULL) >> 20) & (l->nslots - 1);
}

static int put(struct uw_lines *l, struct uw_cu_lines *c)
{
	size_t i;

	if ((l->used + 1) * 2 > l->nslots) {
		size_t old_n = l->nslots, j;
		struct uw_cu_lines **old = l->slots;

		l->nslots = old_n ? old_n * 2 : 64;
		l->slots = calloc(l->nslots, sizeof(*l->slots));
		if (!l->slots) {
			l->slots = old;
			l->nslots = old_n;
			return -ENOMEM;
		}
		for (j = 0; j < old_n; j++) {
			if (!old[j])
				continue;
			for (i = slot_of(l, old[j]->cu_off); l->slots[i]; i = (i + 1) & (l->nslots - 1))
				;
			l->slots[i] = old[j];
		}
		free(old);
	}
	for (i = slot_of(l, c->cu_off); l->slots[i]; i = (i + 1) & (l->nslots - 1))
		;
	l->slots[i] = c;
	l->used++;
	return 0;
}

static struct uw_cu_lines *get(struct uw_lines *l, Dwarf_Off off)
{
	size_t i;

	if (!l->nslots)
		return NULL;
	for (i = slot_of(l, off); l->slots[i]; i = (i + 1) & (l->nslots - 1))
		if (l->slots[i]->cu_off == off)
			return l->slots[i];
	return NULL;
}

/* The first entry past pc. */
static size_t upper_bound(const struct uw_cu_lines *c, Dwarf_Addr pc)
{
	size_t lo = 0, hi = c->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->e[mid].pc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct uw_lent *lookup(struct uw_cu_lines *c, Dwarf_Addr pc)
{
	const struct uw_lent *best = NULL;
	size_t i = upper_bound(c, pc), j;

	if (++c->gen == 0) {
		memset(c->seen, 0, c->nfiles * sizeof(*c->seen));
		c->gen = 1;
	}
	/* walking back, each file's last entry comes first */
	while (i-- > 0) {
		const struct uw_lent *e = &c->e[i];

		if (best && e->pc < best->pc)
			break;
		if (c->seen[e->file] == c->gen)
			continue;
		c->seen[e->file] = c->gen;
		if (e->line && !best)
			best = e;
	}
	if (!best || best->is_stmt)
		return best;
	/* a statement of the same file at the same address */
	for (j = best - c->e; j-- > 0;) {
		const struct uw_lent *e = &c->e[j];

		if (e->pc != best->pc)
			break;
		if (e->file != best->file)
			continue;
		if (!e->line)
			break;
		if (e->is_stmt)
			return e;
	}
	return best;
}

int uw_lines__find(struct uw_lines *l, Dwarf_Die *cu, Dwarf_Addr addr,
		   const char **file, int *line)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	const struct uw_lent *e;
	struct uw_cu_lines *c;
	int err;

	c = get(l, off);
	if (!c) {
		err = build(cu, &c);
		if (err)
			return err;
		err = put(l, c);
		if (err) {
			cu_lines_free(c);
			return err;
		}
	}
	e = lookup(c, addr);
	if (!e)
		return -ENOENT;
	*file = c->files[e->file];
	*line = e->line;
	return 0;
}
