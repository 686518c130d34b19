/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Processes' executable mappings over time, as the kernel reported them
 * (bp_unwinder__proc_event). Per pid, generations: one per program a
 * process ran, from its exec (or from its fork, with its parent's maps)
 * to the next exec or its exit. A generation is a base, then the mappings
 * reported since, by time:
 * - after an exec, no base: the program, its interpreter, the vDSO and
 *   every library are reported as the process maps them;
 * - after a fork, the parent's maps at the fork, copied when the parent
 *   is known; else unknown until asked for;
 * - for a process that predates the reports, unknown until asked for.
 * An unknown base is the caller's to fill (uw_gen__set_base): a /proc
 * snapshot of the process or of its parent. The maps at a moment are the
 * base with the mappings reported by then laid over it, each ending what
 * it overlaps (the kernel reports no unmapping).
 *
 * Pure: no /proc, no file is read here.
 */
#ifndef BPFPROBE_UW_HIST_H
#define BPFPROBE_UW_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

#include "unwind/unwinder.h"
#include "unwind/uw_maps.h"

#define UW_NEVER		(~0ULL)
#define UW_HIST_BUCKETS		1024
/* records a generation keeps before the older ones are folded into its
 * base (a JIT compiler maps code all the time) */
#define UW_FOLD_RECS		64

/* One executable mapping reported. */
struct uw_rec {
	__u64 time_ns;
	__u64 start, end, pgoff, ino;
	unsigned int dev_major, dev_minor;
	char *path;		/* NULL: no file's (it ends what it overlaps) */
	bool vdso, deleted;
};

enum uw_base_kind {
	UW_BASE_NONE,		/* after an exec: the records alone */
	UW_BASE_MAPS,		/* base */
	UW_BASE_UNKNOWN,	/* not known yet: uw_gen__set_base */
};

struct uw_gen {
	/* unique in its table; a new one whenever what the generation's
	 * maps at some time are changes (a base set, a record placed
	 * before others) */
	unsigned long long id;
	__u64 start_ns;		/* its exec or fork; 0: before the reports */
	__u64 end_ns;		/* the next generation's start, the exit; UW_NEVER */
	enum uw_base_kind kind;
	/* UW_BASE_MAPS: the base; UW_BASE_UNKNOWN: NULL, or the records
	 * folded so far (uw_hists__settle), for want of a base */
	struct uw_maps *base;
	__u64 base_ns;		/* records up to then are in base already */
	bool self_snapshot;	/* base is the process's own /proc snapshot */
	bool forked;		/* start_ns is its fork from parent */
	pid_t parent;
	int base_err;		/* UW_BASE_UNKNOWN and could not be read */
	struct uw_rec *recs;	/* by time */
	size_t nrecs, cap;
};

struct uw_hist {
	pid_t pid;
	struct uw_gen *gens;	/* by start */
	size_t ngens, cap;
	bool exited;		/* the last generation ended with the exit */
	bool reported;		/* some event named it (else only /proc) */
	struct uw_hist *next;	/* in its bucket */
};

struct uw_hists {
	struct uw_hist *buckets[UW_HIST_BUCKETS];
	size_t n;
	unsigned long long next_id;
	bool tracking;		/* events were given */
};

void uw_hists__init(struct uw_hists *t);
void uw_hists__fini(struct uw_hists *t);

/* One event (unwinder.h's). 0, -EINVAL, -ENOMEM. */
int uw_hists__event(struct uw_hists *t, const struct bp_proc_event *ev);

struct uw_hist *uw_hists__get(const struct uw_hists *t, pid_t pid);

/* A history for a pid never reported: one generation from the start,
 * its base unknown. NULL when out of memory. */
struct uw_gen *uw_hists__adopt(struct uw_hists *t, pid_t pid);

void uw_hists__forget(struct uw_hists *t, pid_t pid);

/* Forgets every process whose exit was reported, calling gone(pid, ctx)
 * for each first. How many. */
int uw_hists__forget_exited(struct uw_hists *t, void (*gone)(pid_t pid, void *ctx), void *ctx);

/*
 * Every sample taken before until_ns has been unwound: a process's
 * generations that ended before it are dropped, and a generation with
 * more than UW_FOLD_RECS records has those before it folded into its
 * base (not a forked child's whose base is unknown: its parent's will
 * be). 0, -ENOMEM.
 */
int uw_hists__settle(struct uw_hists *t, __u64 until_ns);

/* The generation that ran at time_ns, or NULL (before the first, after
 * the exit). */
struct uw_gen *uw_hist__gen_at(const struct uw_hist *h, __u64 time_ns);

/* Whether g is h's last and the process has not exited: /proc/PID is it. */
bool uw_hist__is_current(const struct uw_hist *h, const struct uw_gen *g);

/* How many of g's records count at time_ns (those at or before it). */
size_t uw_gen__recs_at(const struct uw_gen *g, __u64 time_ns);

/*
 * g's maps at time_ns, for pid: its base (none when unknown) with the
 * records up to then laid over it. A module from a record has its
 * executable mapping only (exec_only): its span comes from its file.
 * 0, -ENOMEM.
 */
int uw_gen__maps_at(const struct uw_gen *g, pid_t pid, __u64 time_ns, struct uw_maps **out);

/*
 * Sets g's base (taking maps; NULL: none, the records alone), records up
 * to base_ns being in it already; self: maps is the process's own
 * snapshot (which may be read again). g gets a new id.
 */
void uw_gen__set_base(struct uw_hists *t, struct uw_gen *g, struct uw_maps *maps, __u64 base_ns,
		      bool self);

#endif /* BPFPROBE_UW_HIST_H */
