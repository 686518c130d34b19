/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The code of the programs that keep a session's set of followed
 * processes current (the bitmap a BP_GUARD_TGID_IN_BITMAP guard reads: the
 * one value of an array map, read in place as __u64 words, bit pid % 64 of
 * word pid / 64, which is bit pid % 8 of byte pid / 8 where the guard
 * looks, BPF being little-endian wherever uprobes are): small
 * BPF_PROG_TYPE_TRACEPOINT programs, built here instruction by
 * instruction because the offsets of the tracepoints' fields differ
 * between kernels (read from tracefs's format files by the caller). Bits
 * change by atomic OR and AND, so programs on several CPUs and the loader
 * never lose each other's. Pure: map fds are only numbers here.
 *
 *   sched:sched_process_fork  a task whose tgid is followed creates a
 *                             task: its pid (child_pid) joins. Threads
 *                             join too (a tracepoint cannot tell them
 *                             apart); their bits are never looked at and
 *                             clear when they are freed.
 *   sched:sched_process_free  a task is freed: its pid's bit clears. A
 *                             process's leader is freed last, when it is
 *                             reaped, so a process stays followed while
 *                             any of its threads runs. The seed (a
 *                             tgid the guard lets through without its
 *                             bit) clears too when it is that pid.
 *   sched:sched_process_exec  a followed process execs: its new comm is
 *                             a key of the execs map (what the followed
 *                             processes ran, for the report at exit).
 *                             When the session watches execs (watch map's
 *                             mode), its pid goes into a ring buffer, for
 *                             the loader to look at what it runs (copies
 *                             of probed binaries, another root); a process
 *                             to be looked at before it runs its first
 *                             instruction is held: it sends itself
 *                             SIGSTOP (bpf_send_signal), which the loader
 *                             undoes with SIGCONT once it has attached
 *                             what the process needs. It is held at every
 *                             exec (BP_WATCH_HOLD_ALL), or when its root
 *                             (task->fs->root, mount and dentry) is not
 *                             its parent's (BP_WATCH_HOLD_ROOT: it
 *                             entered a chroot or a mount namespace).
 */
#ifndef BPFPROBE_FOLLOW_PROGS_H
#define BPFPROBE_FOLLOW_PROGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>
#include <linux/types.h>

/* Entries of the per-CPU stats array (__u64 values). */
enum bp_follow_stat {
	BP_FOLLOW_STAT_FULL,	/* a child could not join: its pid is past the bitmap */
	BP_FOLLOW_STAT_FORKS,	/* children that joined */
	BP_FOLLOW_STAT_CNT,
};

/* The watch map's one __u32: what the exec program does beyond the
 * execs map. */
enum bp_watch_mode {
	BP_WATCH_EVENTS = 1,	/* a struct bp_exec_event per exec */
	BP_WATCH_HOLD_ALL = 2,	/* every exec is held */
	BP_WATCH_HOLD_ROOT = 4,	/* an exec in another root than its parent's is held */
};

/* What the ring buffer gets per exec of a followed process. */
struct bp_exec_event {
	__u32 pid;		/* the kernel's (tgid) */
	__u32 held;		/* stopped with SIGSTOP: it waits for SIGCONT */
};

/* Where a task's root is: kernel BTF's offsets (all 0: unknown, no root
 * is compared). struct path is { mnt; dentry; }, 16 bytes. */
struct bp_task_offsets {
	int task_fs;		/* task_struct.fs (struct fs_struct *) */
	int task_parent;	/* task_struct.real_parent */
	int fs_root;		/* fs_struct.root (struct path) */
};

struct bp_follow_cfg {
	int set_fd;		/* the bitmap: an array map of one value */
	uint32_t set_bytes;	/* its size, a multiple of 8 */
	int seed_fd;		/* an array map of one __u32 value, the seed */
	int stats_fd;		/* per-CPU array of BP_FOLLOW_STAT_CNT __u64 */
	int execs_fd;		/* hash: char comm[16] -> __u64 (1) */
	int child_pid_off;	/* sched_process_fork's child_pid */
	int free_pid_off;	/* sched_process_free's pid */
	/* watching execs: the mode (array of one __u32, enum bp_watch_mode)
	 * and the ring buffer of struct bp_exec_event */
	bool watch;
	int watch_fd;
	int events_fd;
	struct bp_task_offsets task;
};

/* Upper bound on each generator's output. */
#define BP_FOLLOW_MAX_INSNS	128

/*
 * Each writes its program into insns (room for max) and returns the number
 * of instructions, or -EINVAL (a bad fd or offset) / -E2BIG.
 */
int bp_follow__gen_fork(const struct bp_follow_cfg *cfg, struct bpf_insn *insns, size_t max);
int bp_follow__gen_free(const struct bp_follow_cfg *cfg, struct bpf_insn *insns, size_t max);
int bp_follow__gen_exec(const struct bp_follow_cfg *cfg, struct bpf_insn *insns, size_t max);

#endif /* BPFPROBE_FOLLOW_PROGS_H */
