/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Names of kernel BTF types by (BTF object id, type id): what a tracing
 * link or program (fentry, fexit, tp_btf) is attached to. Module BTF is
 * split BTF on top of vmlinux; both are loaded once and cached.
 */
#ifndef BPFPROBE_SYSINFO_BTF_NAME_H
#define BPFPROBE_SYSINFO_BTF_NAME_H

#include <stdint.h>

struct bp_btf_names;

struct bp_btf_names *bp_btf_names__new(void);
void bp_btf_names__free(struct bp_btf_names *n);

/* malloc'd name of type_id in BTF object obj_id, or NULL. A tp_btf target
 * (typedef btf_trace_NAME) comes back as NAME. */
char *bp_btf_names__get(struct bp_btf_names *n, uint32_t obj_id, uint32_t type_id);

#endif /* BPFPROBE_SYSINFO_BTF_NAME_H */
