/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Opening, for reading, a file that a binary names (a debug link, a DWZ
 * alternate file, a build-ID path, a source file) or that a user names:
 * never blocking on what is not a regular file. The open is non-blocking
 * (a FIFO with no writer would block a plain open forever, a device may
 * hang or never end), and what it opened is then looked at with fstat(),
 * on the descriptor (not stat() on the path before: the path could be
 * swapped in between). Only a regular file is kept open.
 */
#ifndef BPFPROBE_REGULAR_FILE_H
#define BPFPROBE_REGULAR_FILE_H

#include <sys/stat.h>

/*
 * path opened read-only (close-on-exec): returns the descriptor, with st
 * filled; -EINVAL when it is not a regular file (st says what it is:
 * bp_file_type__name()), else -errno of the open or the fstat.
 */
int bp_regular_file__open(const char *path, struct stat *st);

/* What st_mode is, for messages: "a FIFO", "a directory", ... */
const char *bp_file_type__name(mode_t mode);

#endif /* BPFPROBE_REGULAR_FILE_H */
