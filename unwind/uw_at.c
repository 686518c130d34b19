// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The modules of a process at a sample's time (uw_core.h's uw_at__*).
 *
 * The sample's generation (uw_hist.h: what the kernel reported, or one
 * adopted for a pid never reported) gives the maps: its base, read when
 * first needed, with the mappings reported by the sample's time over it.
 * A base that is not known yet is read:
 * - from the process's own /proc/PID/maps while /proc/PID is still the
 *   process that ran then (the generation is its current one and it
 *   started before the sample);
 * - else, for a forked child, from its parent's maps at the fork: what
 *   was reported of the parent, or the parent's own /proc snapshot;
 * - else it stays unknown: the mappings reported alone, or, without
 *   any, the process exited before its modules were read.
 * The modules for those maps are built (uw_proc.c) unless the process's
 * last build was of the same maps.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "unwind/uw_core.h"

/* forks followed up from a child to an ancestor whose maps are known */
#define FORK_DEPTH	8

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* g's base from the process's own /proc, when it is the one of g at
 * time_ns. 0, -ESRCH, -ENOMEM. */
static int snapshot_self(struct bp_unwinder *u, struct uw_hist *h, struct uw_gen *g, __u64 time_ns)
{
	struct uw_maps *m;
	int err;

	if (!uw_hist__is_current(h, g))
		return -ESRCH;
	err = uw_maps__read(h->pid, &m);
	if (err)
		return err;
	/* started after time_ns: another process has the pid now */
	if (!uw_proc__older_than(m->start_time, time_ns)) {
		uw_maps__free(m);
		return -ESRCH;
	}
	uw_gen__set_base(&u->hists, g, m, m->taken_ns, true);
	return 0;
}

/* Reads g's base when it is unknown (and not known to be lost). 0 or
 * -ENOMEM: whether it was found, g->kind says. */
static int resolve(struct bp_unwinder *u, struct uw_hist *h, struct uw_gen *g, __u64 time_ns,
		   int depth)
{
	struct uw_hist *ph;
	struct uw_gen *pg;
	struct uw_maps *m;
	bool adopted = false;
	int err;

	if (g->kind != UW_BASE_UNKNOWN || g->base_err)
		return 0;
	err = snapshot_self(u, h, g, time_ns);
	if (err != -ESRCH)
		return err == -ENOMEM ? err : 0;
	/* a forked child has its parent's maps at the fork */
	if (g->forked && g->parent > 0 && depth < FORK_DEPTH) {
		ph = uw_hists__get(&u->hists, g->parent);
		if (ph) {
			pg = uw_hist__gen_at(ph, g->start_ns);
		} else {
			pg = uw_hists__adopt(&u->hists, g->parent);
			if (!pg)
				return -ENOMEM;
			ph = uw_hists__get(&u->hists, g->parent);
			adopted = true;
		}
		err = pg ? resolve(u, ph, pg, g->start_ns, depth + 1) : 0;
		if (err)
			return err;
		if (pg && pg->kind != UW_BASE_UNKNOWN) {
			err = uw_gen__maps_at(pg, h->pid, g->start_ns, &m);
			if (err)
				return err;
			/* every record of the child's is its own, after the fork */
			uw_gen__set_base(&u->hists, g, m, 0, false);
			return 0;
		}
		if (adopted)
			uw_hists__forget(&u->hists, g->parent);
	}
	g->base_err = -ESRCH;
	return 0;
}

/* pid's modules for g at time_ns, built unless they are already. */
static int build(struct bp_unwinder *u, struct uw_hist *h, struct uw_gen *g, __u64 time_ns,
		 struct uw_proc **out)
{
	struct uw_proc_key key = {
		.gen_id = g->id, .nrecs = uw_gen__recs_at(g, time_ns), .time_ns = time_ns,
		.may_live = uw_hist__is_current(h, g), .partial = g->kind == UW_BASE_UNKNOWN,
	};
	struct uw_proc *p = uw_proc__get(u, h->pid);
	struct uw_maps *m;
	int err;

	if (p && p->key.gen_id == key.gen_id && p->key.nrecs == key.nrecs) {
		*out = p;
		return 0;
	}
	err = uw_gen__maps_at(g, h->pid, time_ns, &m);
	if (err)
		return err;
	/* the same modules (JIT code mapped, records folded): kept */
	if (p && p->key.may_live == key.may_live && p->key.partial == key.partial &&
	    uw_maps__same(p->maps, m)) {
		uw_maps__free(m);
		p->key = key;
		*out = p;
		return 0;
	}
	return uw_proc__build(u, h->pid, m, &key, out);
}

static int no_process(pid_t pid, char *reason, size_t size)
{
	snprintf(reason, size, "process %d exited before its modules were read", (int)pid);
	return 1;
}

int uw_at__proc(struct bp_unwinder *u, const struct bp_stack_sample *s, struct uw_proc **out,
		char *reason, size_t size)
{
	pid_t pid = (pid_t)s->pid;
	struct uw_hist *h = uw_hists__get(&u->hists, pid);
	struct uw_gen *g;
	int err;

	if (h) {
		g = uw_hist__gen_at(h, s->time_ns);
	} else {
		g = uw_hists__adopt(&u->hists, pid);
		if (!g)
			return -ENOMEM;
		h = uw_hists__get(&u->hists, pid);
	}
	if (!g)
		return no_process(pid, reason, size);
	err = resolve(u, h, g, s->time_ns, 0);
	if (err)
		return err;
	if (g->kind == UW_BASE_UNKNOWN && !g->base && !uw_gen__recs_at(g, s->time_ns)) {
		/* nothing kept of a pid nothing was reported of */
		if (!h->reported)
			uw_hists__forget(&u->hists, pid);
		return no_process(pid, reason, size);
	}
	/* a snapshot of a process that started after the sample */
	if (g->self_snapshot && !uw_proc__older_than(g->base->start_time, s->time_ns))
		return no_process(pid, reason, size);
	return build(u, h, g, s->time_ns, out);
}

int uw_at__refresh(struct bp_unwinder *u, const struct bp_stack_sample *s, struct uw_proc **p)
{
	struct uw_hist *h = uw_hists__get(&u->hists, (pid_t)s->pid);
	struct uw_gen *g = h ? uw_hist__gen_at(h, s->time_ns) : NULL;
	struct uw_maps *m;
	int err;

	if (!g || !g->self_snapshot || g->base->taken_ns >= s->time_ns || !uw_proc__alive(*p))
		return -EAGAIN;
	err = uw_maps__read(h->pid, &m);
	if (err)
		return err == -ENOMEM ? err : -EAGAIN;
	if (m->start_time != g->base->start_time) {
		uw_maps__free(m);
		return -EAGAIN;
	}
	uw_gen__set_base(&u->hists, g, m, m->taken_ns, true);
	return build(u, h, g, s->time_ns, p);
}

int uw_at__note(struct bp_unwinder *u, pid_t pid)
{
	struct uw_hist *h = uw_hists__get(&u->hists, pid);
	__u64 now = now_ns(), start, dev, ino;
	struct uw_proc *p;
	struct uw_gen *g;
	int err;

	if (h) {
		g = uw_hist__gen_at(h, now);
	} else {
		g = uw_hists__adopt(&u->hists, pid);
		if (!g)
			return -ENOMEM;
		h = uw_hists__get(&u->hists, pid);
	}
	if (!g || !uw_hist__is_current(h, g))
		return -ESRCH;
	if (g->self_snapshot &&
	    (uw_proc__start_time(pid, &start) || start != g->base->start_time ||
	     (!uw_maps__exe(pid, &dev, &ino) &&
	      (dev != g->base->exe_dev || ino != g->base->exe_ino)))) {
		/* it exec'd (unreported: its maps start over) or the pid
		 * names another process now */
		uw_gen__set_base(&u->hists, g, NULL, 0, false);
		g->kind = UW_BASE_UNKNOWN;
	}
	if (g->kind == UW_BASE_UNKNOWN) {
		g->base_err = 0;
		err = resolve(u, h, g, now, 0);
		if (err)
			return err;
	}
	if (g->kind == UW_BASE_UNKNOWN) {
		if (!h->reported)
			uw_hists__forget(&u->hists, pid);
		return -ESRCH;
	}
	return build(u, h, g, now, &p);
}
