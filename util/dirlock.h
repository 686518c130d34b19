/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Directories whose owner proves it is alive by holding an flock(2) on the
 * directory itself: bpfprobe's tracefs instance and its pin staging
 * directories. The lock lives exactly as long as the owner's descriptor,
 * so a killed owner's directory is found unlocked, and the lock is on the
 * inode, so the proof holds across PID namespaces (where a pid proves
 * nothing) and mounts of the same filesystem.
 */
#ifndef BPFPROBE_DIRLOCK_H
#define BPFPROBE_DIRLOCK_H

#include <sys/types.h>

/*
 * Creates directory path (never adopting one that exists) and locks it.
 * Returns the descriptor holding the lock; -EEXIST when path exists;
 * -EAGAIN when another process removed it before it was locked (pick
 * another name); another -errno.
 */
int bp_dirlock__create(const char *path, mode_t mode);

/*
 * Locks the existing directory path (not following a symlink) when no
 * live owner holds it. Returns the descriptor holding the lock,
 * -EWOULDBLOCK when its owner is alive, or another -errno.
 */
int bp_dirlock__try(const char *path);

#endif /* BPFPROBE_DIRLOCK_H */
