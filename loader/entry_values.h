/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Entry values away from the entry (prologue/entry_save.h), for the
 * loader: when a probe point's plan reads a register's value at some
 * function's entry, one hash map per object holds what companion probes
 * at those entries save, one companion program writes it, and it is
 * attached once per distinct entry (binary and file offset), with the
 * object's pid filter. Points whose plans read none cost nothing.
 */
#ifndef BPFPROBE_ENTRY_VALUES_H
#define BPFPROBE_ENTRY_VALUES_H

#include <sys/types.h>

struct bpfprobe_object;

/* Creates the map and loads the companion when a point needs them (the
 * points are resolved). 0 or a negative errno, said. */
int bp_entry_values__load(struct bpfprobe_object *obj);

/* The map the prologues read (-1: none loaded). */
int bp_entry_values__map_fd(const struct bpfprobe_object *obj);

/* The companion at every entry the points need; pid as for the points. */
int bp_entry_values__attach(struct bpfprobe_object *obj, pid_t pid);
void bp_entry_values__detach(struct bpfprobe_object *obj);

/* Detaches and closes everything (safe when nothing was loaded). */
void bp_entry_values__close(struct bpfprobe_object *obj);

#endif /* BPFPROBE_ENTRY_VALUES_H */
