/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Programs and links pinned in a BPF filesystem, with their ids. */
#ifndef BPFPROBE_SYSINFO_BPFFS_PINS_H
#define BPFPROBE_SYSINFO_BPFFS_PINS_H

#include <stdbool.h>
#include <stdint.h>

struct bp_pin_ref {
	char *path;
	bool is_link;		/* else a program */
	uint32_t id;		/* link or program id */
	uint32_t prog_id;
};

struct bp_pin_refs {
	struct bp_pin_ref *v;
	int n;
};

/* Walks root (e.g. "/sys/fs/bpf"); nothing when it is not a bpffs mount. */
int bp_pin_refs__scan(struct bp_pin_refs *r, const char *root);
void bp_pin_refs__free(struct bp_pin_refs *r);

#endif /* BPFPROBE_SYSINFO_BPFFS_PINS_H */
