/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Whether a binary and every shared library it needs (its DT_NEEDED
 * closure, each found like the dynamic loader, libpath.h) keep frame
 * pointers, from their CFI (util/cfi_fp.h): what ustack=auto decides by.
 */
#ifndef BPFPROBE_FRAME_POINTERS_H
#define BPFPROBE_FRAME_POINTERS_H

#include <stddef.h>

struct bp_libpath_opts;

/* Most modules a closure is read to. */
#define BP_FP_MAX_MODULES	256

/*
 * 1 when the file at path and every library of its closure keep frame
 * pointers (*nmods: how many modules that is); 0 when one does not, or
 * cannot be read or found: why (len bytes) says which and why, naming the
 * module by its file name. Returns -ENOMEM alone as an error.
 */
int bp_frame_pointers__closure(const char *path, const struct bp_libpath_opts *opts,
			       int *nmods, char *why, size_t len);

#endif /* BPFPROBE_FRAME_POINTERS_H */
