/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where `load prog.c` keeps compiled objects: the per-user cache directory
 * (util/cache_dir.h, trusted only when the effective user alone can have
 * written it and its path), or else a private temporary directory that
 * lives until the process exits, or else a file in memory. The cache is
 * an optimization: a directory that cannot be made or written (a
 * read-only or full file system) only moves the object elsewhere.
 */
#ifndef BPFPROBE_CLI_COMPILE_CACHE_H
#define BPFPROBE_CLI_COMPILE_CACHE_H

#include <stddef.h>
#include "util/cache_dir.h"

/*
 * Opens the per-user cache directory. When it cannot be trusted (another
 * user's, writable by others, a symlink), says why; when it cannot be
 * made or opened for another reason, says so under -v. Returns 0 or a
 * negative errno; cd->fd is -1 then.
 */
int bp_compile_cache__open(struct bp_cache_dir *cd);

/*
 * Keeps the object obj (size bytes) as name in dir when dir is open
 * (dir->fd >= 0), else, or when that fails, in a fresh private directory
 * under $TMPDIR (when it can be trusted) or /tmp, removed at exit, else in
 * a memory file (memfd) open until exit; what failed is said under -v.
 * Writes the object's path to path (len bytes). Returns 0 or a negative
 * errno after a message.
 */
int bp_compile_cache__keep(const struct bp_cache_dir *dir, const char *name, const void *obj,
			   size_t size, char *path, size_t len);

#endif /* BPFPROBE_CLI_COMPILE_CACHE_H */
