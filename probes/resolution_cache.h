/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Finished resolutions: the probe points (with their fetch plans) a
 * user-space SEC text resolved to, kept in the user's cache directory
 * (resolutions/HASH.res, under util/cache_dir.h's rules) so that the same
 * SEC text against the same binary is given again without reading any
 * DWARF. An entry is used only when it was made by this very build of
 * bpfprobe (its build ID), for this SEC text, binary path, kernel release
 * and BPFPROBE_DEBUGINFO_PATH, and the binary and the debug file it was read
 * from still have the identity (device, inode, size, modification and
 * change times) they had: a binary rebuilt, touched or replaced, or its
 * debug file, is resolved again. Only resolutions made from DWARF without
 * a single warning are kept (what is given again says nothing), and none
 * that needed a DWZ alternate file (whose identity is not known here).
 */
#ifndef BPFPROBE_RESOLUTION_CACHE_H
#define BPFPROBE_RESOLUTION_CACHE_H

#include <stddef.h>

#include "probes/point.h"

struct bp_debuginfo;

/*
 * The points spec_text resolved to against binary (an absolute path), into
 * a malloc'ed array *pts of *n. Returns 0 with *binary_fd the binary, open
 * (the file whose identity the entry was checked against: the caller
 * closes it); -ENOENT when there is no entry; another negative errno with
 * why when the entry is not used (made for another build or file,
 * changed, corrupt, not trusted). path gets the entry's path either way
 * (when known).
 */
int bp_resolution_cache__read(const char *binary, const char *spec_text,
			      struct bp_point **pts, int *n, int *binary_fd,
			      char *path, size_t path_len, char *why, size_t len);

/*
 * Keeps the n points spec_text resolved to in di (bp_debuginfo__open of
 * the same binary path). Returns 0, or a negative errno with why when they
 * are not kept (-EOPNOTSUPP: points of a kind not kept, see above).
 */
int bp_resolution_cache__write(const struct bp_debuginfo *di, const char *spec_text,
			       const struct bp_point *pts, int n, char *path, size_t path_len,
			       char *why, size_t len);

#endif /* BPFPROBE_RESOLUTION_CACHE_H */
