/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Another process's files as it sees them: its root directory
 * (/proc/PID/root, a chroot or a container's root in its own mount
 * namespace), paths looked up in it as that process would (absolute
 * symlinks and ".." stay inside it: openat2's RESOLVE_IN_ROOT), and for a
 * file found there, a path on the host that names the very same file
 * (what a uprobe is attached to: the kernel resolves the path in the
 * attaching process's namespace).
 */
#ifndef BPFPROBE_PROC_ROOT_H
#define BPFPROBE_PROC_ROOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

struct bp_proc_root {
	pid_t pid;
	int fd;			/* /proc/PID/root, O_PATH */
	char dir[40];		/* "/proc/PID/root" */
	/* where that directory is for us: readlink("/proc/PID/root") when
	 * that names the same directory, else "" */
	char host[PATH_MAX];
	/* readlink("/proc/PID/root") as it is: where the root is in the
	 * terms the process's own links (exe, fds, cwd) are read in, even
	 * when no path of ours reaches it (bpfprobe in a chroot, the
	 * process in a mount namespace of its own: both from the host's top) */
	char named[PATH_MAX];
	struct stat st;		/* of the root directory */
	ino_t mnt_ns;		/* its mount namespace's inode; 0: unknown */
	bool ours;		/* the same root and mount namespace as ours */
};

/*
 * Opens process pid's root. Returns 0, or a negative errno with why[]
 * saying it, naming the process: -ESRCH (no such process, or it exited:
 * a zombie has no root any more), -EACCES (bpfprobe may not read it).
 */
int bp_proc_root__open(struct bp_proc_root *r, pid_t pid, char *why, size_t len);
void bp_proc_root__close(struct bp_proc_root *r);

/* Whether the process still has its root (it has not exited). */
bool bp_proc_root__alive(const struct bp_proc_root *r);

/* "the root of process 1234 (/proc/1234/root, /srv/root on the host)":
 * where a path was looked up, for messages. */
const char *bp_proc_root__describe(const struct bp_proc_root *r, char *buf, size_t len);

/*
 * Opens path (absolute, or relative to the root) inside the root, as the
 * process would resolve it. Returns an fd or a negative errno.
 */
int bp_proc_root__open_file(const struct bp_proc_root *r, const char *path, int flags);

/* The canonical path, as the process sees it, of what path names inside
 * the root (realpath() there), malloc'ed; NULL when there is none. */
char *bp_proc_root__realpath(const struct bp_proc_root *r, const char *path);

/* stat() of path inside the root: 0 or a negative errno. */
int bp_proc_root__stat(const struct bp_proc_root *r, const char *path, struct stat *st);

/*
 * For a file open in the root (fd): *inside, its canonical path as the
 * process sees it (NULL when it cannot be told), and *host, a path of
 * ours naming the same file (the host's own path, else one through
 * /proc/PID/root). Both malloc'ed. Returns 0, or -EXDEV when no path of
 * ours reaches it, or -ENOMEM.
 */
int bp_proc_root__paths(const struct bp_proc_root *r, int fd, char **inside, char **host);

/*
 * The value of variable name in process pid's environment
 * (/proc/PID/environ), malloc'ed; NULL when it has none or it cannot be
 * read.
 */
char *bp_proc__getenv(pid_t pid, const char *name);

/* Process pid's current directory as it sees it (inside r), malloc'ed, or NULL. */
char *bp_proc_root__cwd(const struct bp_proc_root *r);

/* Whether a and b are the same file (device and inode). */
static inline bool bp_same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

#endif /* BPFPROBE_PROC_ROOT_H */
