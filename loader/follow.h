/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Following a process tree. With follow on, the uprobes are attached for
 * every process and each uprobe instance is loaded with a
 * BP_GUARD_TGID_IN_BITMAP guard (prologue/guard.h) on the object's set of
 * followed processes: a bitmap of every possible pid (512 KiB), the one
 * value of an array map, read in place by the guard, which lets through
 * only the processes in it (the seed, the process followed from, before
 * its bit is read: most hits are its own), and kept current by three
 * tracepoint programs
 * (prologue/follow_progs.h): a followed process's children join it, freed
 * tasks leave it. perf_event's inherit cannot do this here: it breaks
 * fork() for BPF-attached uprobes. Without follow (--no-follow, -a, and
 * kernel probes, which fire in every task), the instances carry no such
 * check: the kernel filters by pid, or nothing is filtered. Which form an
 * instance has is chosen when it is loaded (bp_follow__guards()).
 *
 * Every instance marks that it ran (a byte in its own 64-byte block of
 * one value, stored by every run: the report of programs that never ran
 * reads it), and with the follow check counts, per CPU, the hits it
 * refused (in processes not followed), on the refusal's path only.
 */
#ifndef BPFPROBE_FOLLOW_H
#define BPFPROBE_FOLLOW_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "prologue/follow_progs.h"
#include "prologue/guard.h"

struct ring_buffer;

#define BP_FOLLOW_PROGS	3	/* fork, free, exec */

struct bp_follow {
	/* the bitmap of followed pids: an array of one value of
	 * BP_PID_BITMAP_BYTES, mmap'ed as __u64 words */
	int set_fd;
	uint64_t *bits;
	/* an array of one __u32: the followed process the guard lets
	 * through before reading its bit, 0 once it is freed */
	int seed_fd;
	/* an array of one value, a 64-byte block per instance i, mmap'ed:
	 * the byte at 64 i is 1 once instance i ran */
	int ctl_fd;
	uint8_t *ctl;
	int hits_fd;		/* per-CPU array: [i] hits instance i refused */
	int stats_fd;		/* per-CPU array: enum bp_follow_stat */
	int execs_fd;		/* comm[16] -> 1: what the followed processes ran */
	int ninsts;
	int prog_fd[BP_FOLLOW_PROGS];
	int perf_fd[BP_FOLLOW_PROGS];
	int link_fd[BP_FOLLOW_PROGS];
	pid_t seed;		/* the followed process, global pid; 0: none */
	bool pinned;		/* the links are pinned: stopping leaves the set as it is */
	/*
	 * Watching execs (follow_progs.h): the mode word (enum
	 * bp_watch_mode), mmap'ed; the ring buffer of struct bp_exec_event
	 * and libbpf's reader of it, which hands each to on_event.
	 */
	int watch_fd;
	uint32_t *watch;
	int events_fd;
	struct ring_buffer *events;
	int (*on_event)(const struct bp_exec_event *ev, void *ctx);
	void *on_event_ctx;
};

/* All fds -1: nothing to close yet. */
void bp_follow__init(struct bp_follow *f);

/* Creates the maps, with room for the counts of ninsts instances. */
int bp_follow__create_maps(struct bp_follow *f, int ninsts);

/* The guards of instance i: a uprobe instance loaded for following gets
 * the followed-set check and the count of its refusals; every instance the
 * mark of its runs. */
void bp_follow__guards(const struct bp_follow *f, int i, bool uprobe, bool follow,
		       struct bp_guards *gs);

/*
 * Starts following process pid (a global pid, the kernel's) and what it
 * creates from now on: loads and attaches the tracepoint programs and puts
 * pid in the set (the uprobe instances must have been loaded for
 * following). With watch (enum bp_watch_mode bits, 0: none), every exec
 * of a followed process is an event (bp_follow__read_events()), and those
 * the mode says are held until their event is read. Returns 0 or a
 * negative errno after a message; on error nothing of it stays.
 */
int bp_follow__start(struct bp_follow *f, pid_t pid, unsigned int watch);

/* A new watch mode (0: no events, nothing held from now on). */
void bp_follow__set_watch(struct bp_follow *f, unsigned int watch);

/* The fd (epoll) readable when exec events wait; -1 when not watching. */
int bp_follow__events_fd(const struct bp_follow *f);

/* Calls cb with each exec event waiting (a held process waits for the
 * caller's SIGCONT). Returns how many, or a negative errno. */
int bp_follow__read_events(struct bp_follow *f,
			   int (*cb)(const struct bp_exec_event *ev, void *ctx), void *ctx);

/* Whether process pid (the kernel's number) is in the followed set. */
bool bp_follow__is_followed(const struct bp_follow *f, pid_t pid);

/* Stops following: tracepoint programs detached, set emptied, the watch
 * off and every process it holds let go; when pinned, only our fds are
 * closed (the pinned session goes on, holding nothing). */
void bp_follow__stop(struct bp_follow *f);

/* Closes everything. */
void bp_follow__close(struct bp_follow *f);

/* Whether instance i ran, and the hits it refused (summed over the CPUs). */
int bp_follow__hits(const struct bp_follow *f, int i, bool *ran, uint64_t *refused);

/* Sum of stat (enum bp_follow_stat) over the CPUs; 0 when unknown. */
uint64_t bp_follow__stat(const struct bp_follow *f, int stat);

/* loader/task_btf.c: where a task's root is, from kernel BTF; 0, or
 * -ENOENT with o zeroed (said at -v). */
int bp_task_btf__offsets(struct bp_task_offsets *o);

/* Calls cb with each comm a followed process exec'd; stops at cb's first
 * non-zero result and returns it. */
int bp_follow__for_each_exec(const struct bp_follow *f,
			     int (*cb)(const char *comm, void *ctx), void *ctx);

#endif /* BPFPROBE_FOLLOW_H */
