/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Reading a bpf_link's kernel record into attach points: one for perf
 * event, raw tracepoint and tracing links, one per target for kprobe_multi
 * and uprobe_multi links. Links that do not attach to tracing hooks (cgroup,
 * xdp, netfilter, ...) give none.
 */
#ifndef BPFPROBE_SYSINFO_LINK_INFO_H
#define BPFPROBE_SYSINFO_LINK_INFO_H

#include <stdint.h>
#include "sysinfo/attach_info.h"

struct bp_btf_names;

struct bp_sys_link {
	uint32_t id;
	uint32_t type;		/* enum bpf_link_type */
	uint32_t prog_id;
	struct bp_attach *atts;
	int natts;
};

/* names resolves tracing targets (may be NULL). */
int bp_sys_link__read_fd(int fd, struct bp_sys_link *l, struct bp_btf_names *names);
void bp_sys_link__free(struct bp_sys_link *l);

#endif /* BPFPROBE_SYSINFO_LINK_INFO_H */
