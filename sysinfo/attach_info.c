// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Decoding and printing attach points from link info and task fd queries. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include "sysinfo/attach_info.h"

void bp_attach__free(struct bp_attach *a)
{
	if (!a)
		return;
	free(a->target);
	free(a->symbol);
	a->target = a->symbol = NULL;
}

int bp_attach__copy(struct bp_attach *dst, const struct bp_attach *src)
{
	*dst = *src;
	dst->target = src->target ? strdup(src->target) : NULL;
	dst->symbol = src->symbol ? strdup(src->symbol) : NULL;
	if ((src->target && !dst->target) || (src->symbol && !dst->symbol)) {
		bp_attach__free(dst);
		return -ENOMEM;
	}
	return 0;
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

bool bp_attach__same_point(const struct bp_attach *a, const struct bp_attach *b)
{
	return a->kind == b->kind && a->is_return == b->is_return &&
	       str_eq(a->target, b->target) && a->offset == b->offset &&
	       a->addr == b->addr && a->perf_type == b->perf_type &&
	       a->perf_config == b->perf_config;
}

const char *bp_attach__kind_str(const struct bp_attach *a)
{
	switch (a->kind) {
	case BP_ATTACH_UPROBE:
		return a->is_return ? "uretprobe" : "uprobe";
	case BP_ATTACH_KPROBE:
		return a->is_return ? "kretprobe" : "kprobe";
	case BP_ATTACH_TRACEPOINT:
		return "tracepoint";
	case BP_ATTACH_RAW_TRACEPOINT:
		return "raw_tracepoint";
	case BP_ATTACH_FUNC:
		if (a->tracing_type == BPF_MODIFY_RETURN)
			return "fmod_ret";
		return a->is_return ? "fexit" : "fentry";
	case BP_ATTACH_PERF_EVENT:
		return "perf_event";
	case BP_ATTACH_UNKNOWN:
		break;
	}
	return "link";
}

int bp_attach__format(const struct bp_attach *a, char *buf, size_t len)
{
	const char *kind = bp_attach__kind_str(a);
	const char *t = a->target && *a->target ? a->target : NULL;

	switch (a->kind) {
	case BP_ATTACH_UPROBE:
		if (a->symbol && a->sym_off)
			return snprintf(buf, len, "%s:%s:%s+0x%llx", kind, t ? t : "?",
					a->symbol, (unsigned long long)a->sym_off);
		if (a->symbol)
			return snprintf(buf, len, "%s:%s:%s", kind, t ? t : "?", a->symbol);
		return snprintf(buf, len, "%s:%s:0x%llx", kind, t ? t : "?",
				(unsigned long long)a->offset);
	case BP_ATTACH_KPROBE:
		if (!t)
			return snprintf(buf, len, "%s:0x%llx", kind, (unsigned long long)a->addr);
		if (a->offset)
			return snprintf(buf, len, "%s:%s+0x%llx", kind, t,
					(unsigned long long)a->offset);
		return snprintf(buf, len, "%s:%s", kind, t);
	case BP_ATTACH_TRACEPOINT:
	case BP_ATTACH_RAW_TRACEPOINT:
	case BP_ATTACH_FUNC:
		return snprintf(buf, len, "%s:%s", kind, t ? t : "?");
	case BP_ATTACH_PERF_EVENT:
		return snprintf(buf, len, "%s:type=%u,config=%llu", kind, a->perf_type,
				(unsigned long long)a->perf_config);
	case BP_ATTACH_UNKNOWN:
		break;
	}
	{
		const char *lt = libbpf_bpf_link_type_str(a->link_type);

		if (a->link_type == BP_LINK_TYPE_PERF_EVENT)
			lt = "perf_event";
		if (lt)
			return snprintf(buf, len, "link:%s", lt);
		return snprintf(buf, len, "link:type%u", a->link_type);
	}
}

static char *dup_name(__u64 ptr)
{
	const char *s = (const char *)(unsigned long)ptr;

	return s && *s ? strdup(s) : NULL;
}

static int from_perf_link(const struct bp_link_info *info, struct bp_attach *a)
{
	switch (info->perf_event.type) {
	case BP_PERF_EVENT_URETPROBE:
		a->is_return = true;
		/* fall through */
	case BP_PERF_EVENT_UPROBE:
		a->kind = BP_ATTACH_UPROBE;
		a->target = dup_name(info->perf_event.uprobe.file_name);
		a->offset = info->perf_event.uprobe.offset;
		a->cookie = info->perf_event.uprobe.cookie;
		break;
	case BP_PERF_EVENT_KRETPROBE:
		a->is_return = true;
		/* fall through */
	case BP_PERF_EVENT_KPROBE:
		a->kind = BP_ATTACH_KPROBE;
		a->target = dup_name(info->perf_event.kprobe.func_name);
		a->offset = info->perf_event.kprobe.offset;
		a->addr = info->perf_event.kprobe.addr;
		a->cookie = info->perf_event.kprobe.cookie;
		break;
	case BP_PERF_EVENT_TRACEPOINT:
		a->kind = BP_ATTACH_TRACEPOINT;
		a->target = dup_name(info->perf_event.tracepoint.tp_name);
		a->cookie = info->perf_event.tracepoint.cookie;
		break;
	case BP_PERF_EVENT_EVENT:
		a->kind = BP_ATTACH_PERF_EVENT;
		a->perf_type = info->perf_event.event.type;
		a->perf_config = info->perf_event.event.config;
		a->cookie = info->perf_event.event.cookie;
		break;
	default:
		/* before 6.6 the kernel says nothing about a perf link's event */
		a->kind = BP_ATTACH_UNKNOWN;
		break;
	}
	return 0;
}

int bp_attach__from_link(const struct bp_link_info *info, struct bp_attach *a)
{
	memset(a, 0, sizeof(*a));
	a->pid = -1;
	a->link_id = info->id;
	a->link_type = info->type;
	a->prog_id = info->prog_id;
	switch (info->type) {
	case BP_LINK_TYPE_PERF_EVENT:
		return from_perf_link(info, a);
	case BP_LINK_TYPE_RAW_TRACEPOINT:
		a->kind = BP_ATTACH_RAW_TRACEPOINT;
		a->target = dup_name(info->raw_tracepoint.tp_name);
		a->pid_known = true;	/* these hooks run in every task */
		return 0;
	case BP_LINK_TYPE_TRACING:
		a->pid_known = true;
		a->tracing_type = info->tracing.attach_type;
		a->cookie = info->tracing.cookie;
		switch (info->tracing.attach_type) {
		case BPF_TRACE_FEXIT:
			a->is_return = true;
			/* fall through */
		case BPF_TRACE_FENTRY:
		case BPF_MODIFY_RETURN:
			a->kind = BP_ATTACH_FUNC;
			return 0;
		case BPF_TRACE_RAW_TP:
			a->kind = BP_ATTACH_RAW_TRACEPOINT;
			return 0;
		}
		return -ENOTSUP;
	}
	return -ENOTSUP;
}

int bp_attach__from_task_fd(uint32_t prog_id, uint32_t fd_type, const char *buf,
			    uint64_t probe_offset, uint64_t probe_addr,
			    struct bp_attach *a)
{
	memset(a, 0, sizeof(*a));
	a->pid = -1;
	a->prog_id = prog_id;
	switch (fd_type) {
	case BPF_FD_TYPE_URETPROBE:
		a->is_return = true;
		/* fall through */
	case BPF_FD_TYPE_UPROBE:
		a->kind = BP_ATTACH_UPROBE;
		a->offset = probe_offset;
		break;
	case BPF_FD_TYPE_KRETPROBE:
		a->is_return = true;
		/* fall through */
	case BPF_FD_TYPE_KPROBE:
		a->kind = BP_ATTACH_KPROBE;
		a->offset = probe_offset;
		a->addr = probe_addr;
		break;
	case BPF_FD_TYPE_TRACEPOINT:
		a->kind = BP_ATTACH_TRACEPOINT;
		break;
	case BPF_FD_TYPE_RAW_TRACEPOINT:
		a->kind = BP_ATTACH_RAW_TRACEPOINT;
		break;
	default:
		return -ENOTSUP;
	}
	if (buf && *buf) {
		a->target = strdup(buf);
		if (!a->target)
			return -ENOMEM;
	}
	return 0;
}
