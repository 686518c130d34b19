/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * struct bpf_link_info as Linux 6.6+ lays it out. Debian 12's uapi headers
 * (linux-libc-dev 6.1) lack the perf_event, kprobe_multi and uprobe_multi
 * parts, so we carry the layouts we read, as bpftool carries its own bpf.h.
 * Older kernels leave the parts they do not know zero; the kernel accepts a
 * larger struct than its own as long as the extra tail is zero.
 *
 * Layout checked against this kernel's BTF (bpftool btf dump file
 * /sys/kernel/btf/vmlinux format c) and asserted below.
 */
#ifndef BPFPROBE_SYSINFO_UAPI_LINK_H
#define BPFPROBE_SYSINFO_UAPI_LINK_H

#include <stddef.h>
#include <linux/types.h>

/* enum bpf_link_type values (6.1 already has 1..6) */
#define BP_LINK_TYPE_RAW_TRACEPOINT	1
#define BP_LINK_TYPE_TRACING		2
#define BP_LINK_TYPE_PERF_EVENT		7
#define BP_LINK_TYPE_KPROBE_MULTI	8
#define BP_LINK_TYPE_UPROBE_MULTI	12

/* enum bpf_perf_event_type (6.6) */
enum bp_perf_event_type {
	BP_PERF_EVENT_UNSPEC = 0,
	BP_PERF_EVENT_UPROBE = 1,
	BP_PERF_EVENT_URETPROBE = 2,
	BP_PERF_EVENT_KPROBE = 3,
	BP_PERF_EVENT_KRETPROBE = 4,
	BP_PERF_EVENT_TRACEPOINT = 5,
	BP_PERF_EVENT_EVENT = 6,
};

/* flags of kprobe_multi / uprobe_multi links */
#define BP_F_KPROBE_MULTI_RETURN	(1U << 0)
#define BP_F_UPROBE_MULTI_RETURN	(1U << 0)

struct bp_link_info {
	__u32 type;
	__u32 id;
	__u32 prog_id;
	__u32 :32;
	union {
		struct {
			__aligned_u64 tp_name;
			__u32 tp_name_len;
			__u32 :32;
			__u64 cookie;
		} raw_tracepoint;
		struct {
			__u32 attach_type;
			__u32 target_obj_id;
			__u32 target_btf_id;
			__u32 :32;
			__u64 cookie;
		} tracing;
		struct {
			__aligned_u64 addrs;
			__u32 count;
			__u32 flags;
			__u64 missed;
			__aligned_u64 cookies;
		} kprobe_multi;
		struct {
			__aligned_u64 path;
			__aligned_u64 offsets;
			__aligned_u64 ref_ctr_offsets;
			__aligned_u64 cookies;
			__u32 path_size;
			__u32 count;
			__u32 flags;
			__u32 pid;
		} uprobe_multi;
		struct {
			__u32 type;	/* enum bp_perf_event_type */
			__u32 :32;
			union {
				struct {
					__aligned_u64 file_name;
					__u32 name_len;
					__u32 offset;	/* file offset */
					__u64 cookie;
					__u64 ref_ctr_offset;
				} uprobe;
				struct {
					__aligned_u64 func_name;
					__u32 name_len;
					__u32 offset;	/* into func_name */
					__u64 addr;
					__u64 missed;
					__u64 cookie;
				} kprobe;
				struct {
					__aligned_u64 tp_name;
					__u32 name_len;
					__u32 :32;
					__u64 cookie;
				} tracepoint;
				struct {
					__u64 config;
					__u32 type;
					__u32 :32;
					__u64 cookie;
				} event;
			};
		} perf_event;
	};
} __attribute__((aligned(8)));

_Static_assert(offsetof(struct bp_link_info, perf_event.uprobe.file_name) == 24,
	       "bpf_link_info perf_event.uprobe.file_name");
_Static_assert(offsetof(struct bp_link_info, perf_event.uprobe.name_len) == 32,
	       "bpf_link_info perf_event.uprobe.name_len");
_Static_assert(offsetof(struct bp_link_info, perf_event.uprobe.offset) == 36,
	       "bpf_link_info perf_event.uprobe.offset");
_Static_assert(offsetof(struct bp_link_info, uprobe_multi.pid) == 60,
	       "bpf_link_info uprobe_multi.pid");
_Static_assert(sizeof(struct bp_link_info) == 64, "bpf_link_info size (6.18)");

#endif /* BPFPROBE_SYSINFO_UAPI_LINK_H */
