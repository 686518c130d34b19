/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * libbpf's feature probes: tiny programs of fixed instructions libbpf
 * loads and unloads at once, before an object's own programs, to learn
 * what the kernel supports (memcg accounting, program names, global data,
 * ...). A program's tag is a hash of its instructions (map fds left out),
 * so the same instructions loaded here give the tags `monitor` then
 * recognises. Other software loading the very same instructions is
 * recognised alike.
 */
#ifndef BPFPROBE_LIBBPF_PROBES_H
#define BPFPROBE_LIBBPF_PROBES_H

#include <stdbool.h>
#include <stdint.h>

#define BP_LIBBPF_PROBES_MAX	8

struct bp_libbpf_probes {
	uint8_t tags[BP_LIBBPF_PROBES_MAX][8];
	int n;
};

/* Loads each probe's instructions once, keeps the tags of those that
 * load (a kernel may refuse some, as it refuses them to libbpf). */
void bp_libbpf_probes__init(struct bp_libbpf_probes *p);

bool bp_libbpf_probes__match(const struct bp_libbpf_probes *p, const uint8_t tag[8]);

#endif /* BPFPROBE_LIBBPF_PROBES_H */
