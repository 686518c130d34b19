/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Building a struct bp_frames: frames appended with copies of their
 * strings, and the stop reason. */
#ifndef BPFPROBE_UW_FRAMES_H
#define BPFPROBE_UW_FRAMES_H

#include "unwind/unwinder.h"

/* An empty stack. */
void uw_frames__init(struct bp_frames *f, bool kernel);

/* Appends fr, its strings copied (the same string twice in a row is
 * copied once). 0 or -ENOMEM. */
int uw_frames__push(struct bp_frames *f, const struct bp_frame *fr);

/* Sets why unwinding stopped (a formatted reason; none for END).
 * 0 or -ENOMEM. */
int uw_frames__stop(struct bp_frames *f, enum bp_unwind_stop stop, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* BPFPROBE_UW_FRAMES_H */
