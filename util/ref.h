/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Reference counts of library objects, keyed by their address, so a layer
 * can keep another's object alive without knowing its type: the loader
 * registers a loaded bpfprobe_object, each output made from it holds a
 * reference, and the object is freed when the last one goes.
 */
#ifndef BPFPROBE_REF_H
#define BPFPROBE_REF_H

#include <stdbool.h>

/* Registers key with one reference; release(key) runs when the last one is
 * dropped. Returns 0 or -ENOMEM. */
int bp_ref__init(void *key, void (*release)(void *key));

/* One more reference to key: false when key is not registered. */
bool bp_ref__get(const void *key);

/* Drops one reference to key (releasing it when it was the last): false
 * when key is not registered. */
bool bp_ref__put(const void *key);

#endif /* BPFPROBE_REF_H */
