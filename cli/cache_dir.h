/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where `load prog.c` keeps compiled objects: a per-user cache directory
 * that only the effective user can have written, or else a private
 * temporary directory that lives until the process exits.
 */
#ifndef BPFPROBE_CACHE_DIR_H
#define BPFPROBE_CACHE_DIR_H

#include <limits.h>
#include <stdbool.h>

struct bp_cache_dir {
	int fd;			/* the directory, opened: files go in with *at() calls */
	char path[PATH_MAX];	/* its canonical path, every component trusted */
	bool temporary;		/* removed at exit, with what it holds */
};

/*
 * Opens $XDG_CACHE_HOME/bpfprobe (else $HOME/.cache/bpfprobe, else the
 * effective user's home from the password database), creating it with
 * mode 0700 when its parent is the effective user's. It is used only when
 * it is a directory (not a symlink) owned by the effective user and not
 * writable by group or others, and every directory above it is owned by
 * the effective user or root and not writable by others (or sticky), so
 * no one else can have put a file in it nor swap a path component later.
 * Otherwise a fresh directory under $TMPDIR (when it passes the same
 * checks) or /tmp is made, after a message saying why.
 * Returns 0 or a negative errno (a message has been printed).
 */
int bp_cache_dir__open(struct bp_cache_dir *cd);

/* Closes the directory; a temporary one is removed at exit. */
void bp_cache_dir__close(struct bp_cache_dir *cd);

#endif /* BPFPROBE_CACHE_DIR_H */
