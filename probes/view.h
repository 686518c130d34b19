/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A process's view of the files exec= names: its root (a chroot, a
 * container's root in its own mount namespace), its PATH and
 * LD_LIBRARY_PATH, its root's ld.so.cache and library directories
 * (probes/binary/libpath.h over util/proc_root.h). What is attached is a
 * path of ours to the same file; what the process calls it is said too.
 */
#ifndef BPFPROBE_VIEW_H
#define BPFPROBE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct bp_view;

/*
 * Process pid's view. Returns 0, or a negative errno with why[] saying
 * it, naming the process: -ESRCH (no such process, or it exited), -EACCES
 * (its root may not be read).
 */
int bp_view__open(pid_t pid, struct bp_view **out, char *why, size_t len);
void bp_view__free(struct bp_view *v);

pid_t bp_view__pid(const struct bp_view *v);
/* Whether the process sees our root, in our mount namespace. */
bool bp_view__ours(const struct bp_view *v);
/* Whether the process still has its root (it has not exited). */
bool bp_view__alive(const struct bp_view *v);
/* Its root told apart from others: the root directory's device and
 * inode, and its mount namespace's inode. */
void bp_view__key(const struct bp_view *v, dev_t *dev, ino_t *ino, ino_t *mnt_ns);
/* Its root's /usr/lib/debug as a path of ours, when that root is not ours
 * and has one; else NULL. Lives as long as v. */
const char *bp_view__debug_dir(const struct bp_view *v);

/*
 * exec (a path, or a bare name looked up as exec= does) as the process
 * sees it. On 0, *seen_as is its canonical path there (NULL when that
 * cannot be told) and *host a path of ours to the same file, both
 * malloc'ed. Else a negative errno with why[] naming exec and the root it
 * was looked up in: -ENOENT (not there), -EXDEV (no path of ours reaches
 * it), -ENOMEM.
 */
int bp_view__find(const struct bp_view *v, const char *exec, char **seen_as, char **host,
		  char *why, size_t len);

#endif /* BPFPROBE_VIEW_H */
