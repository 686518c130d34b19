/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef BPFPROBE_TRACEFS_H
#define BPFPROBE_TRACEFS_H

#include <stddef.h>

/* The tracefs mount point, mounting it first when nothing is mounted.
 * Returns a static string or NULL (a message has been printed). */
const char *bp_tracefs__root(void);

/* Writes str to root/rel. Returns 0 or -errno. */
int bp_tracefs__write(const char *root, const char *rel, const char *str);

/* The id of tracepoint event "SYSTEM/NAME" (events/SYSTEM/NAME/id), or -errno. */
int bp_tracefs__event_id(const char *root, const char *event);

/* The offset of field in event's records (its format file), or -errno
 * (-ENOENT: no such field). */
int bp_tracefs__field_offset(const char *root, const char *event, const char *field);

#endif /* BPFPROBE_TRACEFS_H */
