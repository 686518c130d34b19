/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Directories of the pin root (loader/pin.c): telling bpfprobe's sessions
 * from anything else there, removing them without following a symlink or
 * touching what bpfprobe did not pin, and reclaiming the staging
 * directories of a `load --pin` that was killed.
 */
#ifndef BPFPROBE_PIN_DIR_H
#define BPFPROBE_PIN_DIR_H

#include <stdbool.h>

#define BP_PIN_STAGING_NEW "_new-"
#define BP_PIN_STAGING_OLD "_old-"

/*
 * Removes directory entry (a session NAME, or a staging directory of
 * session name) of the pin root root: only when it is a directory, not a
 * symlink, and holds bpfprobe's session (a pinned program, or a link's
 * program, whose metadata says pin=name; an empty directory will do when
 * empty_ok); then only its link_*, prog_* and map_* pins, never following
 * a symlink. Returns 0; -ENOTDIR (a symlink or a file), -EPERM (not a
 * bpfprobe session: nothing removed), -ENOTEMPTY (something else was put
 * in it: it stays, with that) or another -errno, each after a message.
 */
int bp_pin_dir__remove(const char *root, const char *entry, const char *name, bool empty_ok);

/* 1 when entry of root is a session of bpfprobe named name (as above), 0
 * when not, -errno when it cannot be read. */
int bp_pin_dir__is_session(const char *root, const char *entry, const char *name);

/*
 * Reclaims the staging directories (_new-NAME-PID, _old-NAME-PID) whose
 * `load --pin` was killed: nobody holds their lock (util/dirlock.h). A
 * _new- one is removed (its probes detach); an _old- one, the session a
 * --replace moved aside, is put back as NAME when NAME is missing, else
 * removed. Each is said on stderr.
 */
void bp_pin_dir__reclaim(const char *root);

#endif /* BPFPROBE_PIN_DIR_H */
