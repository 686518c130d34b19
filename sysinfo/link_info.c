// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A link's record in two calls: the first learns its type (and target
 * counts), the second passes the buffers that type's union member names,
 * since the members overlap (see sysinfo/uapi_link.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "sysinfo/btf_name.h"
#include "sysinfo/ksym.h"
#include "sysinfo/link_info.h"

static int get_info(int fd, struct bp_link_info *info)
{
	__u32 len = sizeof(*info);

	return bpf_obj_get_info_by_fd(fd, info, &len) ? -errno : 0;
}

static int add_att(struct bp_sys_link *l, const struct bp_attach *a)
{
	struct bp_attach *n = realloc(l->atts, (l->natts + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	l->atts = n;
	l->atts[l->natts++] = *a;
	return 0;
}

static void base(const struct bp_sys_link *l, struct bp_attach *a)
{
	memset(a, 0, sizeof(*a));
	a->pid = -1;
	a->link_id = l->id;
	a->link_type = l->type;
	a->prog_id = l->prog_id;
}

static int read_uprobe_multi(int fd, struct bp_sys_link *l, const struct bp_link_info *first)
{
	__u32 cnt = first->uprobe_multi.count;
	struct bp_link_info info = {};
	char path[PATH_MAX] = "";
	__u64 *offs = NULL, *cookies = NULL;
	int err;

	if (cnt) {
		offs = calloc(cnt, sizeof(*offs));
		cookies = calloc(cnt, sizeof(*cookies));
		if (!offs || !cookies) {
			err = -ENOMEM;
			goto out;
		}
	}
	info.uprobe_multi.path = (__u64)(unsigned long)path;
	info.uprobe_multi.path_size = sizeof(path);
	info.uprobe_multi.offsets = (__u64)(unsigned long)offs;
	info.uprobe_multi.cookies = (__u64)(unsigned long)cookies;
	info.uprobe_multi.count = cnt;
	err = get_info(fd, &info);
	if (err)
		goto out;
	if (info.uprobe_multi.count < cnt)
		cnt = info.uprobe_multi.count;
	for (__u32 i = 0; i < cnt && !err; i++) {
		struct bp_attach a;

		base(l, &a);
		a.kind = BP_ATTACH_UPROBE;
		a.is_return = info.uprobe_multi.flags & BP_F_UPROBE_MULTI_RETURN;
		a.offset = offs[i];
		a.cookie = cookies[i];
		/* uprobe_multi links say which process they are limited to */
		a.pid = info.uprobe_multi.pid ? (int)info.uprobe_multi.pid : -1;
		a.pid_known = true;
		a.target = *path ? strdup(path) : NULL;
		err = add_att(l, &a);
		if (err)
			bp_attach__free(&a);
	}
out:
	free(offs);
	free(cookies);
	return err;
}

static int read_kprobe_multi(int fd, struct bp_sys_link *l, const struct bp_link_info *first)
{
	__u32 cnt = first->kprobe_multi.count;
	struct bp_link_info info = {};
	__u64 *addrs;
	int err;

	if (!cnt)
		return 0;
	addrs = calloc(cnt, sizeof(*addrs));
	if (!addrs)
		return -ENOMEM;
	info.kprobe_multi.addrs = (__u64)(unsigned long)addrs;
	info.kprobe_multi.count = cnt;
	err = get_info(fd, &info);
	if (info.kprobe_multi.count < cnt)
		cnt = info.kprobe_multi.count;
	for (__u32 i = 0; i < cnt && !err; i++) {
		struct bp_attach a;
		uint64_t off = 0;

		base(l, &a);
		a.kind = BP_ATTACH_KPROBE;
		a.is_return = info.kprobe_multi.flags & BP_F_KPROBE_MULTI_RETURN;
		a.pid_known = true;	/* kprobe_multi links fire in every task */
		a.addr = addrs[i];
		a.target = addrs[i] ? bp_ksym__name(addrs[i], &off) : NULL;
		a.offset = off;
		err = add_att(l, &a);
		if (err)
			bp_attach__free(&a);
	}
	free(addrs);
	return err;
}

/* perf event, raw tracepoint, tracing: one target */
static int read_single(int fd, struct bp_sys_link *l, const struct bp_link_info *first,
		       struct bp_btf_names *names)
{
	struct bp_link_info info = {};
	char name[PATH_MAX] = "";
	struct bp_attach a;
	int err;

	if (first->type == BP_LINK_TYPE_PERF_EVENT) {
		/* file_name, func_name and tp_name share one place */
		info.perf_event.uprobe.file_name = (__u64)(unsigned long)name;
		info.perf_event.uprobe.name_len = sizeof(name);
	} else if (first->type == BP_LINK_TYPE_RAW_TRACEPOINT) {
		info.raw_tracepoint.tp_name = (__u64)(unsigned long)name;
		info.raw_tracepoint.tp_name_len = sizeof(name);
	}
	err = get_info(fd, &info);
	if (err)
		return err;
	err = bp_attach__from_link(&info, &a);
	if (err)
		return err == -ENOTSUP ? 0 : err;
	if (info.type == BP_LINK_TYPE_TRACING && names)
		a.target = bp_btf_names__get(names, info.tracing.target_obj_id,
					     info.tracing.target_btf_id);
	err = add_att(l, &a);
	if (err)
		bp_attach__free(&a);
	return err;
}

int bp_sys_link__read_fd(int fd, struct bp_sys_link *l, struct bp_btf_names *names)
{
	struct bp_link_info first = {};
	int err;

	memset(l, 0, sizeof(*l));
	err = get_info(fd, &first);
	if (err)
		return err;
	l->id = first.id;
	l->type = first.type;
	l->prog_id = first.prog_id;
	switch (first.type) {
	case BP_LINK_TYPE_UPROBE_MULTI:
		err = read_uprobe_multi(fd, l, &first);
		break;
	case BP_LINK_TYPE_KPROBE_MULTI:
		err = read_kprobe_multi(fd, l, &first);
		break;
	case BP_LINK_TYPE_PERF_EVENT:
	case BP_LINK_TYPE_RAW_TRACEPOINT:
	case BP_LINK_TYPE_TRACING:
		err = read_single(fd, l, &first, names);
		break;
	default:
		break;	/* not a tracing hook */
	}
	if (err)
		bp_sys_link__free(l);
	return err;
}

void bp_sys_link__free(struct bp_sys_link *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->natts; i++)
		bp_attach__free(&l->atts[i]);
	free(l->atts);
	l->atts = NULL;
	l->natts = 0;
}
