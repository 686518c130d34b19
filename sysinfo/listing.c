// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Building the listing (see listing.h). Attach points come from two places
 * that overlap: links (iterated by id) and perf event fds held by processes
 * (a perf link's process holds both). A point seen in both is kept once,
 * from the link; on kernels before 6.6 a perf link says nothing about its
 * event, and the perf fd's answer fills it in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "sysinfo/bpffs_pins.h"
#include "sysinfo/btf_name.h"
#include "sysinfo/fd_refs.h"
#include "sysinfo/link_info.h"
#include "sysinfo/listing.h"
#include "sysinfo/usym.h"

#define BPFFS_ROOT "/sys/fs/bpf"

struct atts {
	struct bp_attach *v;
	int n;
};

bool bp_sys__stats_enabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");
	int v = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v != 0;
}

static uint64_t now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

uint64_t bp_sys__boot_to_realtime(uint64_t boot_ns)
{
	return now_ns(CLOCK_REALTIME) - now_ns(CLOCK_BOOTTIME) + boot_ns;
}

static int push_att(struct atts *a, const struct bp_attach *att)
{
	struct bp_attach *n = realloc(a->v, (a->n + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	a->v = n;
	a->v[a->n++] = *att;
	return 0;
}

static int collect_links(struct atts *a, struct bp_btf_names *names)
{
	__u32 id = 0;
	int err = 0;

	for (;;) {
		struct bp_sys_link l;
		int fd;

		if (bpf_link_get_next_id(id, &id))
			return errno == ENOENT ? 0 : -errno;	/* ENOENT: the last one */
		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0)
			continue;	/* gone meanwhile */
		err = bp_sys_link__read_fd(fd, &l, names);
		close(fd);
		if (err == -ENOMEM)
			return err;
		if (err) {
			err = 0;
			continue;
		}
		for (int i = 0; i < l.natts && !err; i++) {
			err = push_att(a, &l.atts[i]);
			if (!err)
				memset(&l.atts[i], 0, sizeof(l.atts[i]));	/* moved */
		}
		bp_sys_link__free(&l);
		if (err)
			return err;
	}
}

/* A perf event fd's attach point, unless a link already told it. */
static int merge_perf(struct atts *a, const struct bp_attach *p)
{
	struct bp_attach *blank = NULL;
	struct bp_attach c;
	int err;

	for (int i = 0; i < a->n; i++) {
		struct bp_attach *x = &a->v[i];

		if (x->prog_id != p->prog_id)
			continue;
		if (bp_attach__same_point(x, p))
			return 0;
		if (!blank && x->kind == BP_ATTACH_UNKNOWN &&
		    x->link_type == BP_LINK_TYPE_PERF_EVENT)
			blank = x;
	}
	err = bp_attach__copy(&c, p);
	if (err)
		return err;
	if (blank) {
		c.link_id = blank->link_id;
		c.link_type = blank->link_type;
		bp_attach__free(blank);
		*blank = c;
		return 0;
	}
	err = push_att(a, &c);
	if (err)
		bp_attach__free(&c);
	return err;
}

static bool tracing_type(uint32_t t)
{
	return t == BPF_PROG_TYPE_KPROBE || t == BPF_PROG_TYPE_TRACEPOINT ||
	       t == BPF_PROG_TYPE_PERF_EVENT || t == BPF_PROG_TYPE_RAW_TRACEPOINT ||
	       t == BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE || t == BPF_PROG_TYPE_TRACING;
}

static bool has_atts(const struct atts *a, uint32_t prog_id)
{
	for (int i = 0; i < a->n; i++)
		if (a->v[i].prog_id == prog_id)
			return true;
	return false;
}

static int add_owner(struct bp_listed_prog *p, pid_t pid, const char *comm)
{
	struct bp_owner *n;

	for (int i = 0; i < p->nowners; i++)
		if (p->owners[i].pid == pid)
			return 0;
	n = realloc(p->owners, (p->nowners + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->owners = n;
	n[p->nowners].pid = pid;
	memcpy(n[p->nowners].comm, comm, sizeof(n->comm));
	p->nowners++;
	return 0;
}

static int add_pin(struct bp_listed_prog *p, const char *path)
{
	char **n = realloc(p->pins, (p->npins + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	p->pins = n;
	n[p->npins] = strdup(path);
	if (!n[p->npins])
		return -ENOMEM;
	p->npins++;
	return 0;
}

/* Moves the program's attach points out of a, symbolizing uprobes. */
static int take_atts(struct bp_listed_prog *p, struct atts *a, struct bp_usym *usym)
{
	const char *meta_pid = bp_meta__get(&p->prog.meta, "pid", 0);

	for (int i = 0; i < a->n; i++) {
		struct bp_attach *x = &a->v[i], *n;

		if (x->prog_id != p->prog.id)
			continue;
		n = realloc(p->atts, (p->natts + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		p->atts = n;
		n[p->natts] = *x;
		memset(x, 0, sizeof(*x));
		x = &n[p->natts++];
		if (x->kind == BP_ATTACH_UPROBE && x->target && !x->symbol)
			bp_usym__lookup(usym, x->target, x->offset, &x->symbol, &x->sym_off);
		/* the kernel does not report a perf event's task, and a
		 * uprobe_multi link for every process may be narrowed by
		 * bpfprobe's guard to a followed process tree: bpfprobe's
		 * metadata says which, for what bpfprobe attached */
		if (meta_pid && x->kind == BP_ATTACH_UPROBE && (!x->pid_known || x->pid < 0)) {
			x->pid = atoi(meta_pid);
			x->pid_known = true;
		}
	}
	return 0;
}

static int fill_prog(struct bp_listed_prog *p, struct atts *a, const struct bp_fd_refs *refs,
		     const struct bp_pin_refs *pins, struct bp_usym *usym)
{
	int err = take_atts(p, a, usym);

	for (int i = 0; i < refs->n && !err; i++)
		if (refs->v[i].prog_id == p->prog.id)
			err = add_owner(p, refs->v[i].pid, refs->v[i].comm);
	for (int i = 0; i < pins->n && !err; i++)
		if (pins->v[i].prog_id == p->prog.id)
			err = add_pin(p, pins->v[i].path);
	return err;
}

static int collect_progs(struct bp_listing *l, const struct bp_listing_opts *opts, struct atts *a,
			 const struct bp_fd_refs *refs, const struct bp_pin_refs *pins,
			 struct bp_btf_names *names, struct bp_usym *usym)
{
	bool all = opts && opts->sz > offsetof(struct bp_listing_opts, all) && opts->all;
	__u32 id = 0;
	int err = 0;

	while (!err) {
		struct bp_listed_prog *n, *p;
		struct bp_sys_prog sp;

		if (bpf_prog_get_next_id(id, &id))
			return errno == ENOENT ? 0 : -errno;	/* ENOENT: the last one */
		if (!has_atts(a, id) && !all)
			continue;
		if (bp_sys_prog__read_id(id, &sp, names))
			continue;	/* unloaded meanwhile */
		if (!has_atts(a, id) && !tracing_type(sp.type)) {
			bp_sys_prog__free(&sp);
			continue;
		}
		n = realloc(l->progs, (l->nprogs + 1) * sizeof(*n));
		if (!n) {
			bp_sys_prog__free(&sp);
			return -ENOMEM;
		}
		l->progs = n;
		p = &n[l->nprogs++];
		memset(p, 0, sizeof(*p));
		p->prog = sp;
		err = fill_prog(p, a, refs, pins, usym);
	}
	return err;
}

static void count_tags(struct bp_listing *l)
{
	for (int i = 0; i < l->nprogs; i++)
		for (int j = 0; j < l->nprogs; j++)
			if (i != j && !memcmp(l->progs[i].prog.tag, l->progs[j].prog.tag,
					      sizeof(l->progs[i].prog.tag)))
				l->progs[i].same_tag++;
}

int bp_listing__build(struct bp_listing *l, const struct bp_listing_opts *opts)
{
	struct bp_btf_names *names = bp_btf_names__new();
	struct bp_usym *usym = bp_usym__new();
	struct bp_fd_refs refs = {};
	struct bp_pin_refs pins = {};
	struct atts a = {};
	int err;

	memset(l, 0, sizeof(*l));
	l->stats_enabled = bp_sys__stats_enabled();
	if (!names || !usym) {
		err = -ENOMEM;
		goto out;
	}
	/* processes first: our own fds (opened below) are not owners */
	err = bp_fd_refs__scan(&refs);
	if (!err)
		err = bp_pin_refs__scan(&pins, BPFFS_ROOT);
	if (!err)
		err = collect_links(&a, names);
	for (int i = 0; i < refs.n && !err; i++)
		if (refs.v[i].kind == BP_FD_PERF)
			err = merge_perf(&a, &refs.v[i].att);
	if (!err)
		err = collect_progs(l, opts, &a, &refs, &pins, names, usym);
	if (!err)
		count_tags(l);
out:
	for (int i = 0; i < a.n; i++)
		bp_attach__free(&a.v[i]);
	free(a.v);
	bp_fd_refs__free(&refs);
	bp_pin_refs__free(&pins);
	bp_usym__free(usym);
	bp_btf_names__free(names);
	if (err)
		bp_listing__free(l);
	return err;
}

void bp_listing__free(struct bp_listing *l)
{
	for (int i = 0; i < l->nprogs; i++) {
		struct bp_listed_prog *p = &l->progs[i];

		bp_sys_prog__free(&p->prog);
		for (int j = 0; j < p->natts; j++)
			bp_attach__free(&p->atts[j]);
		free(p->atts);
		free(p->owners);
		for (int j = 0; j < p->npins; j++)
			free(p->pins[j]);
		free(p->pins);
	}
	free(l->progs);
	l->progs = NULL;
	l->nprogs = 0;
}
