// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Processes' executable mappings over time (uw_hist.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "unwind/uw_hist.h"
#include "util/grow.h"

static size_t bucket(pid_t pid)
{
	return ((unsigned int)pid * 2654435761U) % UW_HIST_BUCKETS;
}

void uw_hists__init(struct uw_hists *t)
{
	memset(t, 0, sizeof(*t));
}

static void gen_fini(struct uw_gen *g)
{
	size_t i;

	for (i = 0; i < g->nrecs; i++)
		free(g->recs[i].path);
	free(g->recs);
	uw_maps__free(g->base);
}

static void hist_free(struct uw_hist *h)
{
	size_t i;

	for (i = 0; i < h->ngens; i++)
		gen_fini(&h->gens[i]);
	free(h->gens);
	free(h);
}

void uw_hists__fini(struct uw_hists *t)
{
	struct uw_hist *h, *next;
	size_t b;

	for (b = 0; b < UW_HIST_BUCKETS; b++) {
		for (h = t->buckets[b]; h; h = next) {
			next = h->next;
			hist_free(h);
		}
		t->buckets[b] = NULL;
	}
	t->n = 0;
}

struct uw_hist *uw_hists__get(const struct uw_hists *t, pid_t pid)
{
	struct uw_hist *h;

	for (h = t->buckets[bucket(pid)]; h; h = h->next)
		if (h->pid == pid)
			return h;
	return NULL;
}

static struct uw_hist *get_or_add(struct uw_hists *t, pid_t pid)
{
	struct uw_hist *h = uw_hists__get(t, pid);
	size_t b = bucket(pid);

	if (h)
		return h;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->pid = pid;
	h->next = t->buckets[b];
	t->buckets[b] = h;
	t->n++;
	return h;
}

void uw_hists__forget(struct uw_hists *t, pid_t pid)
{
	struct uw_hist **p;

	for (p = &t->buckets[bucket(pid)]; *p; p = &(*p)->next) {
		if ((*p)->pid == pid) {
			struct uw_hist *h = *p;

			*p = h->next;
			hist_free(h);
			t->n--;
			return;
		}
	}
}

int uw_hists__forget_exited(struct uw_hists *t, void (*gone)(pid_t pid, void *ctx), void *ctx)
{
	struct uw_hist **p, *h;
	int n = 0;
	size_t b;

	for (b = 0; b < UW_HIST_BUCKETS && t->n; b++) {
		for (p = &t->buckets[b]; (h = *p);) {
			if (!h->exited) {
				p = &h->next;
				continue;
			}
			*p = h->next;
			if (gone)
				gone(h->pid, ctx);
			hist_free(h);
			t->n--;
			n++;
		}
	}
	return n;
}

/* A new generation of h from start_ns (the last one ends there). */
static struct uw_gen *add_gen(struct uw_hists *t, struct uw_hist *h, __u64 start_ns,
			      enum uw_base_kind kind)
{
	struct uw_gen *g;

	if (bp_grow((void **)&h->gens, h->ngens, &h->cap, sizeof(*h->gens), 2))
		return NULL;
	if (h->ngens && h->gens[h->ngens - 1].end_ns > start_ns)
		h->gens[h->ngens - 1].end_ns = start_ns;
	g = &h->gens[h->ngens++];
	*g = (struct uw_gen){ .id = ++t->next_id, .start_ns = start_ns, .end_ns = UW_NEVER,
			      .kind = kind };
	h->exited = false;
	return g;
}

struct uw_gen *uw_hists__adopt(struct uw_hists *t, pid_t pid)
{
	struct uw_hist *h = get_or_add(t, pid);
	struct uw_gen *g;

	if (!h)
		return NULL;
	if (h->ngens)
		return &h->gens[0];
	g = add_gen(t, h, 0, UW_BASE_UNKNOWN);
	if (!g && !h->ngens)
		uw_hists__forget(t, pid);
	return g;
}

struct uw_gen *uw_hist__gen_at(const struct uw_hist *h, __u64 time_ns)
{
	size_t i = h->ngens;

	while (i > 0 && h->gens[i - 1].start_ns > time_ns)
		i--;
	if (!i || time_ns >= h->gens[i - 1].end_ns)
		return NULL;
	return &h->gens[i - 1];
}

bool uw_hist__is_current(const struct uw_hist *h, const struct uw_gen *g)
{
	return !h->exited && h->ngens && g == &h->gens[h->ngens - 1];
}

size_t uw_gen__recs_at(const struct uw_gen *g, __u64 time_ns)
{
	size_t lo = 0, hi = g->nrecs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->recs[mid].time_ns <= time_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Lays rec over m. */
static int apply(struct uw_maps *m, const struct uw_rec *rec)
{
	struct uw_map map;

	uw_maps__cut(m, rec->start, rec->end);
	if (!rec->path)
		return 0;
	map = (struct uw_map){
		.low = rec->start, .high = rec->end, .first_start = rec->start,
		.first_end = rec->end, .first_off = rec->pgoff, .ino = rec->ino,
		.dev_major = rec->dev_major, .dev_minor = rec->dev_minor,
		.deleted = rec->deleted, .vdso = rec->vdso, .exec_only = !rec->vdso,
		.path = strdup(rec->path),
	};
	if (!map.path)
		return -ENOMEM;
	return uw_maps__insert(m, &map);
}

/* g's base with its first n records laid over it. */
static int build_maps(const struct uw_gen *g, pid_t pid, size_t n, struct uw_maps **out)
{
	bool exe_known;
	struct uw_maps *m;
	size_t i;
	int err;

	*out = NULL;
	/* (an unknown base may hold the records folded into it) */
	m = g->base ? uw_maps__dup(g->base) : calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->pid = pid;
	/* a parent's maps say nothing of when this process started */
	if (!g->self_snapshot) {
		m->start_time = 0;
		m->taken_ns = 0;
	}
	/* after an exec, the first mapping is the program's */
	exe_known = g->kind != UW_BASE_NONE || g->base;
	for (i = 0; i < n; i++) {
		const struct uw_rec *r = &g->recs[i];

		if (g->base && r->time_ns <= g->base_ns)
			continue;
		if (!exe_known && r->path && !r->vdso) {
			m->exe_dev = makedev(r->dev_major, r->dev_minor);
			m->exe_ino = r->ino;
			exe_known = true;
		}
		err = apply(m, r);
		if (err) {
			uw_maps__free(m);
			return err;
		}
	}
	*out = m;
	return 0;
}

int uw_gen__maps_at(const struct uw_gen *g, pid_t pid, __u64 time_ns, struct uw_maps **out)
{
	return build_maps(g, pid, uw_gen__recs_at(g, time_ns), out);
}

/* Folds g's records before until_ns into its base. */
static int fold(struct uw_hists *t, pid_t pid, struct uw_gen *g, __u64 until_ns)
{
	size_t i, n = until_ns ? uw_gen__recs_at(g, until_ns - 1) : 0;
	struct uw_maps *m;
	int err;

	if (!n)
		return 0;
	err = build_maps(g, pid, n, &m);
	if (err)
		return err;
	if (g->base) {
		/* what the base says of the process stays */
		m->start_time = g->base->start_time;
		m->taken_ns = g->base->taken_ns;
	}
	uw_maps__free(g->base);
	g->base = m;
	if (g->kind == UW_BASE_NONE)
		g->kind = UW_BASE_MAPS;
	if (g->recs[n - 1].time_ns > g->base_ns)
		g->base_ns = g->recs[n - 1].time_ns;
	for (i = 0; i < n; i++)
		free(g->recs[i].path);
	memmove(g->recs, g->recs + n, (g->nrecs - n) * sizeof(*g->recs));
	g->nrecs -= n;
	g->id = ++t->next_id;
	return 0;
}

int uw_hists__settle(struct uw_hists *t, __u64 until_ns)
{
	struct uw_hist *h;
	size_t b, i;
	int err;

	for (b = 0; b < UW_HIST_BUCKETS; b++) {
		for (h = t->buckets[b]; h; h = h->next) {
			/* programs the process ran before: no sample is left */
			for (i = 0; i + 1 < h->ngens && h->gens[i].end_ns < until_ns; i++)
				gen_fini(&h->gens[i]);
			if (i) {
				memmove(h->gens, h->gens + i, (h->ngens - i) * sizeof(*h->gens));
				h->ngens -= i;
			}
			for (i = 0; i < h->ngens; i++) {
				struct uw_gen *g = &h->gens[i];

				/* an unknown base read later from /proc holds
				 * what was folded, except a forked child's,
				 * whose base is its parent's */
				if (g->nrecs <= UW_FOLD_RECS ||
				    (g->kind == UW_BASE_UNKNOWN && g->forked))
					continue;
				err = fold(t, h->pid, g, until_ns);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

void uw_gen__set_base(struct uw_hists *t, struct uw_gen *g, struct uw_maps *maps, __u64 base_ns,
		      bool self)
{
	uw_maps__free(g->base);
	g->base = maps;
	g->kind = maps ? UW_BASE_MAPS : UW_BASE_NONE;
	g->base_ns = maps ? base_ns : 0;
	g->self_snapshot = maps && self;
	g->base_err = 0;
	g->id = ++t->next_id;
}

/* The path of a record's file: NULL for memory that is no file's. */
static int rec_path(const char *path, struct uw_rec *r)
{
	static const char deleted[] = " (deleted)";
	size_t len;

	r->vdso = !strcmp(path, "[vdso]");
	/* "//anon", "[uprobes]", "[heap]": memory that is no file's */
	if (!r->vdso && (path[0] != '/' || path[1] == '/'))
		return 0;
	len = strlen(path);
	if (!r->vdso && len > sizeof(deleted) - 1 &&
	    !strcmp(path + len - (sizeof(deleted) - 1), deleted)) {
		r->deleted = true;
		len -= sizeof(deleted) - 1;
	}
	r->path = strndup(path, len);
	return r->path ? 0 : -ENOMEM;
}

static int on_proc_mmap(struct uw_hists *t, const struct bp_proc_event *ev)
{
	struct uw_rec r = {
		.time_ns = ev->time_ns, .start = ev->start, .end = ev->start + ev->len,
		.pgoff = ev->pgoff, .ino = ev->ino, .dev_major = ev->dev_major,
		.dev_minor = ev->dev_minor,
	};
	struct uw_hist *h;
	struct uw_gen *g;
	size_t at;
	int err;

	if (!ev->len || r.end < r.start || !ev->path)
		return -EINVAL;
	h = get_or_add(t, ev->pid);
	if (!h)
		return -ENOMEM;
	h->reported = true;
	/* a process that predates the reports: its maps before them unknown */
	g = h->ngens ? uw_hist__gen_at(h, ev->time_ns) : add_gen(t, h, 0, UW_BASE_UNKNOWN);
	if (!g) {
		/* after the exit, before the first generation: no process of ours */
		if (!h->ngens)
			uw_hists__forget(t, ev->pid);
		return h->ngens ? 0 : -ENOMEM;
	}
	err = rec_path(ev->path, &r);
	if (!err)
		err = bp_grow((void **)&g->recs, g->nrecs, &g->cap, sizeof(*g->recs), 8);
	if (err) {
		free(r.path);
		return err;
	}
	at = uw_gen__recs_at(g, r.time_ns);
	if (at < g->nrecs) {
		/* placed before records already there: maps computed for
		 * times after it are not what they were */
		memmove(&g->recs[at + 1], &g->recs[at], (g->nrecs - at) * sizeof(*g->recs));
		g->id = ++t->next_id;
	}
	g->recs[at] = r;
	g->nrecs++;
	return 0;
}

static int on_proc_fork(struct uw_hists *t, const struct bp_proc_event *ev)
{
	struct uw_hist *h, *ph = uw_hists__get(t, ev->ppid);
	struct uw_gen *g, *pg = ph ? uw_hist__gen_at(ph, ev->time_ns) : NULL;
	struct uw_maps *copy = NULL;
	int err;

	/* the parent's maps, when they are known: the child has them */
	if (pg && pg->kind != UW_BASE_UNKNOWN) {
		err = uw_gen__maps_at(pg, ev->pid, ev->time_ns, &copy);
		if (err)
			return err;
	}
	h = get_or_add(t, ev->pid);
	g = h ? add_gen(t, h, ev->time_ns, copy ? UW_BASE_MAPS : UW_BASE_UNKNOWN) : NULL;
	if (!g) {
		uw_maps__free(copy);
		if (h && !h->ngens)
			uw_hists__forget(t, ev->pid);
		return -ENOMEM;
	}
	h->reported = true;
	g->forked = true;
	g->parent = ev->ppid;
	if (copy)
		uw_gen__set_base(t, g, copy, 0, false);
	return 0;
}

static int on_proc_exec(struct uw_hists *t, const struct bp_proc_event *ev)
{
	struct uw_hist *h = get_or_add(t, ev->pid);
	struct uw_gen *g = h ? add_gen(t, h, ev->time_ns, UW_BASE_NONE) : NULL;

	if (!g) {
		if (h && !h->ngens)
			uw_hists__forget(t, ev->pid);
		return -ENOMEM;
	}
	h->reported = true;
	return 0;
}

static int on_proc_exit(struct uw_hists *t, const struct bp_proc_event *ev)
{
	struct uw_hist *h = uw_hists__get(t, ev->pid);

	/* a process never seen before: nothing to forget later */
	if (!h || !h->ngens)
		return 0;
	if (h->gens[h->ngens - 1].end_ns > ev->time_ns)
		h->gens[h->ngens - 1].end_ns = ev->time_ns;
	h->exited = true;
	return 0;
}

int uw_hists__event(struct uw_hists *t, const struct bp_proc_event *ev)
{
	if (!ev || ev->pid <= 0)
		return -EINVAL;
	t->tracking = true;
	switch (ev->kind) {
	case BP_PROC_MMAP:
		return on_proc_mmap(t, ev);
	case BP_PROC_FORK:
		return on_proc_fork(t, ev);
	case BP_PROC_EXEC:
		return on_proc_exec(t, ev);
	case BP_PROC_EXIT:
		return on_proc_exit(t, ev);
	}
	return -EINVAL;
}
