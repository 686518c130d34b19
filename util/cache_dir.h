/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The per-user cache directory ($XDG_CACHE_HOME/bpfprobe, else
 * $HOME/.cache/bpfprobe, else the effective user's home from the password
 * database) and directories in it, used only when nobody but the effective
 * user can have put anything in them.
 *
 * bpfprobe runs as root, and `su` without '-' or `sudo -E` keep a user's
 * HOME and XDG_CACHE_HOME: a cache path may lead into a directory another
 * user controls, who could then plant the file root reads or a symlink
 * root writes through. So a directory is trusted when it is no symlink, is
 * owned by the effective user and writable by nobody else, and every
 * directory above it is owned by that user or root and not writable by
 * others (unless sticky, as /tmp): no one else can have changed it, nor can
 * swap a component of its path later. Files in it are opened through its
 * descriptor (openat) with O_NOFOLLOW, created with O_EXCL, and written
 * whole to a temporary name renamed into place.
 */
#ifndef BPFPROBE_CACHE_DIR_H
#define BPFPROBE_CACHE_DIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct bp_cache_dir {
	int fd;			/* the directory, opened: files go in with *at() calls */
	char path[PATH_MAX];	/* its canonical path, every component trusted */
	bool temporary;		/* made for this process only (see the command's
				 * compile cache) */
};

/*
 * Opens the per-user cache directory, creating what is missing of it with
 * mode 0700 in directories that are the effective user's alone (never in
 * another user's home). Returns 0, or a negative errno with why saying what
 * cannot be trusted ("/home/u/.cache/bpfprobe is owned by uid 1000, not by
 * uid 0"); cd->fd is then -1.
 */
int bp_cache_dir__open_user(struct bp_cache_dir *cd, char *why, size_t len);

/*
 * Opens (creating it with mode 0700 when missing) the directory name in
 * parent, trusted the same way: no symlink, the effective user's, writable
 * by nobody else. Returns 0 or a negative errno with why.
 */
int bp_cache_dir__open_sub(const struct bp_cache_dir *parent, const char *name,
			   struct bp_cache_dir *cd, char *why, size_t len);

/* Both: the directory name in the per-user cache directory; why says
 * "the cache directory cannot be trusted: ..." when it fails. */
int bp_cache_dir__open_user_sub(const char *name, struct bp_cache_dir *cd, char *why,
				size_t len);

/*
 * Opens the directory at the canonical path path, walking it from "/"
 * without following a symlink, each directory on the way trusted as above
 * (the last one the effective user's when mine). Returns an O_RDONLY
 * descriptor, or a negative errno with why.
 */
int bp_cache_dir__open_trusted(const char *path, bool mine, char *why, size_t len);

/*
 * Whether the file name in cd, opened as fd, may be read: a regular file
 * (fd was opened O_NOFOLLOW) of the effective user that nobody else may
 * write. False with why. st gets the file's status either way it was read.
 */
bool bp_cache_dir__file_trusted(int fd, const char *name, struct stat *st, char *why,
				size_t len);

/*
 * Creates a file in cd under a fresh temporary name (O_EXCL|O_NOFOLLOW,
 * mode 0600) whose last characters are suffix, for
 * bp_cache_dir__commit(). Returns its descriptor, or a negative errno with
 * why; tmp (at least 64 bytes) gets its name.
 */
int bp_cache_dir__create_temp(const struct bp_cache_dir *cd, const char *suffix,
			      char *tmp, size_t tmp_len, char *why, size_t len);

/*
 * Closes fd, the file tmp written whole, and renames it to name in cd at
 * once (or removes it when ok is false or the rename fails). Returns 0 or
 * a negative errno with why.
 */
int bp_cache_dir__commit(const struct bp_cache_dir *cd, int fd, const char *tmp,
			 const char *name, bool ok, char *why, size_t len);

/* size bytes at off of the file fd and at mem + off, read into memory or
 * written from it (out) whole (short transfers continued, EINTR retried):
 * 0 or a negative errno (-EIO: the file ended first). */
int bp_cache_dir__transfer(int fd, void *mem, uint64_t off, size_t size, bool out);

/*
 * Removes from cd the files named *suffix not rewritten for max_age
 * seconds (builds long gone, mostly), and the temporary files of runs
 * killed while writing one.
 */
void bp_cache_dir__prune(const struct bp_cache_dir *cd, const char *suffix, long max_age);

void bp_cache_dir__close(struct bp_cache_dir *cd);

#endif /* BPFPROBE_CACHE_DIR_H */
