/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Resolving without loading (`bpfprobe resolve`): every probe point, fetch
 * plan and program instance the loader would use, computed by the loader's
 * own stages, with nothing handed to the kernel. Needs no privileges.
 */
#ifndef BPFPROBE_RESOLVE_ONLY_H
#define BPFPROBE_RESOLVE_ONLY_H

#include "loader/object.h"

/*
 * For an object from bpfprobe_object__open(): checks each annotated
 * program's prototype, resolves its probe points and groups them into
 * instances (obj->progs[i].points, obj->insts, obj->aps) exactly as
 * bpfprobe_object__load() does, with the same messages. The object is
 * not loaded and must not be afterwards; destroy it when done.
 * Returns 0 or a negative errno.
 */
int bp_object__resolve_only(struct bpfprobe_object *obj);

/*
 * The same for one SEC() text, as an object holding a single program
 * named after its EVENT= (else its function). *out is destroyed with
 * bpfprobe_object__destroy(); NULL on error (a message was printed).
 */
int bp_object__resolve_sec(const char *text, const char *vmlinux,
			   struct bpfprobe_object **out);

#endif /* BPFPROBE_RESOLVE_ONLY_H */
