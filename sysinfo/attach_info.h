/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where a BPF program is attached, as the kernel's records tell it: from a
 * bpf_link's info (BPF_OBJ_GET_INFO_BY_FD) or from a perf event fd a
 * process holds (BPF_TASK_FD_QUERY). The decoders are pure.
 */
#ifndef BPFPROBE_SYSINFO_ATTACH_INFO_H
#define BPFPROBE_SYSINFO_ATTACH_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sysinfo/uapi_link.h"

enum bp_attach_kind {
	BP_ATTACH_UNKNOWN,	/* a link whose target this kernel does not report */
	BP_ATTACH_UPROBE,
	BP_ATTACH_KPROBE,
	BP_ATTACH_TRACEPOINT,
	BP_ATTACH_RAW_TRACEPOINT,
	BP_ATTACH_FUNC,		/* fentry/fexit/fmod_ret (BPF trampoline) */
	BP_ATTACH_PERF_EVENT,	/* a hardware/software perf event */
};

struct bp_attach {
	enum bp_attach_kind kind;
	bool is_return;
	char *target;		/* uprobe: binary; kprobe/func: kernel function;
				 * tracepoints: event name; NULL when unknown */
	uint64_t offset;	/* uprobe: file offset; kprobe: offset into target */
	uint64_t addr;		/* kprobe: kernel address when known */
	char *symbol;		/* uprobe: function holding offset, NULL if unknown */
	uint64_t sym_off;	/* offset into symbol */
	int pid;		/* pid filter: -1 none (every process), else the pid */
	bool pid_known;		/* the kernel does not report a perf event's task */
	uint64_t cookie;
	uint32_t tracing_type;	/* FUNC: enum bpf_attach_type (fentry, fexit, ...) */
	uint32_t perf_type;	/* PERF_EVENT: attr.type, attr.config */
	uint64_t perf_config;
	uint32_t link_id;	/* 0: no bpf_link (PERF_EVENT_IOC_SET_BPF) */
	uint32_t link_type;	/* enum bpf_link_type when link_id */
	uint32_t prog_id;
};

void bp_attach__free(struct bp_attach *a);
/* Deep copy; returns -ENOMEM. */
int bp_attach__copy(struct bp_attach *dst, const struct bp_attach *src);
/* Same probe point (kind, target, offset/addr, return, perf event)? */
bool bp_attach__same_point(const struct bp_attach *a, const struct bp_attach *b);

/* "uprobe", "uretprobe", "kprobe", "kretprobe", "tracepoint", "raw_tracepoint",
 * "fentry", "fexit", "fmod_ret", "perf_event", "link" */
const char *bp_attach__kind_str(const struct bp_attach *a);

/*
 * One-line form, bpftrace-like:
 *	uprobe:/usr/bin/app:handle_req+0x4   uretprobe:/bin/x:0x1234
 *	kprobe:do_sys_open+0x8   fentry:vfs_read   tracepoint:sched_switch
 *	perf_event:type=1,config=0   link:perf_event (no details)
 * Returns what snprintf returns.
 */
int bp_attach__format(const struct bp_attach *a, char *buf, size_t len);

/*
 * Decodes a link of a single target (perf_event, raw_tracepoint, tracing).
 * Names (file_name, func_name, tp_name) are read from the buffers the info
 * points to. func_name is resolved by the caller for tracing links (BTF).
 * Returns 0, or -ENOTSUP for link types that are not tracing attachments.
 */
int bp_attach__from_link(const struct bp_link_info *info, struct bp_attach *a);

/* Decodes BPF_TASK_FD_QUERY's answer (fd_type is enum bpf_task_fd_type). */
int bp_attach__from_task_fd(uint32_t prog_id, uint32_t fd_type, const char *buf,
			    uint64_t probe_offset, uint64_t probe_addr,
			    struct bp_attach *a);

#endif /* BPFPROBE_SYSINFO_ATTACH_INFO_H */
