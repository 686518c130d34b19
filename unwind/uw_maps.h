/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A process's modules at one moment: each file mapped with some
 * executable part, and the vDSO, as /proc/PID/maps shows them or as the
 * kernel reported their executable mappings (uw_hist.h). Kept after the
 * process exits, so that its samples can still be unwound.
 */
#ifndef BPFPROBE_UW_MAPS_H
#define BPFPROBE_UW_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

struct uw_map {
	__u64 low, high;		/* from its first mapping's start to its last's end */
	__u64 first_start, first_end;	/* its first mapping (/proc/PID/map_files/) */
	__u64 first_off;		/* that mapping's file offset */
	__u64 ino;
	unsigned int dev_major, dev_minor;
	char *path;			/* as the maps name it, without " (deleted)" */
	bool deleted;
	bool vdso;
	/*
	 * Reported by the kernel: its executable mapping alone is known
	 * (first_*, which low and high are too), the module's span comes
	 * from its file's headers when it is opened (uw_proc.c).
	 */
	bool exec_only;
};

struct uw_maps {
	pid_t pid;
	__u64 start_time;	/* /proc/PID/stat's starttime: clock ticks after boot */
	__u64 taken_ns;		/* CLOCK_MONOTONIC when read */
	__u64 exe_dev, exe_ino;	/* its program (an exec changes it) */
	struct uw_map *v;	/* by address */
	size_t n, cap;
};

/*
 * Reads pid's maps. 0, -ESRCH when the process is gone (or a zombie
 * without maps), -ENOMEM, -EIO.
 */
int uw_maps__read(pid_t pid, struct uw_maps **out);
void uw_maps__free(struct uw_maps *m);

/* A copy of m (its paths too), or NULL when out of memory. */
struct uw_maps *uw_maps__dup(const struct uw_maps *m);

/* Adds map (taking its path) where its address puts it: m stays sorted
 * by low. 0, -ENOMEM (the path freed). */
int uw_maps__insert(struct uw_maps *m, const struct uw_map *map);

/*
 * Whether a and b hold the same modules: the same files mapped at the
 * same places (a module's span from its file, set once it is opened,
 * left out).
 */
bool uw_maps__same(const struct uw_maps *a, const struct uw_maps *b);

/* Removes the modules that overlap [start, end) (an exec_only one by its
 * executable mapping). */
void uw_maps__cut(struct uw_maps *m, __u64 start, __u64 end);

/* The module holding addr, or NULL. */
const struct uw_map *uw_maps__find(const struct uw_maps *m, __u64 addr);

/* The device and inode of pid's program (/proc/PID/exe), or -ESRCH. */
int uw_maps__exe(pid_t pid, __u64 *dev, __u64 *ino);

/* pid's start time (uw_maps.start_time), or -ESRCH. */
int uw_proc__start_time(pid_t pid, __u64 *ticks);

/*
 * Whether a process that started at start_time (clock ticks after boot)
 * may have taken a sample at sample_ns (CLOCK_MONOTONIC, as
 * bpf_ktime_get_ns()): false when it started after the sample, so that
 * its pid is another's, reused.
 */
bool uw_proc__older_than(__u64 start_time, __u64 sample_ns);

#endif /* BPFPROBE_UW_MAPS_H */
