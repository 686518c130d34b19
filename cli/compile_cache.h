/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where `load prog.c` keeps compiled objects: the per-user cache directory
 * (util/cache_dir.h, trusted only when the effective user alone can have
 * written it and its path), or else a private temporary directory that
 * lives until the process exits.
 */
#ifndef BPFPROBE_CLI_COMPILE_CACHE_H
#define BPFPROBE_CLI_COMPILE_CACHE_H

#include "util/cache_dir.h"

/*
 * Opens the per-user cache directory; when it cannot be trusted, says why
 * and makes a fresh directory under $TMPDIR (when it passes the same
 * checks) or /tmp, removed at exit. Returns 0 or a negative errno (a
 * message has been printed). Close it with bp_cache_dir__close().
 */
int bp_cache_dir__open(struct bp_cache_dir *cd);

#endif /* BPFPROBE_CLI_COMPILE_CACHE_H */
