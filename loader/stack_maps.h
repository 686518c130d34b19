/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The maps $ustack and $kstack fetch into, one of each per object, made
 * only when a plan needs them: a ring buffer of user stack samples
 * (util/stack_sample.h) and a stack map of kernel stacks
 * (BPF_MAP_TYPE_STACK_TRACE). The output reads them to print stack ids
 * (bpfprobe_object__stack_fds()).
 */
#ifndef BPFPROBE_STACK_MAPS_H
#define BPFPROBE_STACK_MAPS_H

struct bpfprobe_object;

/* Creates the maps the instances' plans need. 0, or a negative errno
 * after a message. */
int bp_stack_maps__create(struct bpfprobe_object *obj);
void bp_stack_maps__close(struct bpfprobe_object *obj);

#endif /* BPFPROBE_STACK_MAPS_H */
