// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "output/btf_record.h"
#include "output/emitter.h"
#include "output/perfbuf.h"
#include "output/pinned.h"
#include "util/log.h"

#define MAX_MAPS	64
#define MAP_PREFIX	"map_"

struct pinned_map {
	char name[NAME_MAX];
	int fd;
	enum bpf_map_type type;
	__u32 type_id;
	bool text;
	struct perf_buffer *pb;
	struct bp_pinned *owner;
	__u64 lost;
};

struct bp_pinned {
	struct pinned_map maps[MAX_MAPS];
	int nmaps;
	struct ring_buffer *rb;
	struct btf *btf;
	struct bp_emitter *em;
	int nrecords;
};

static void emit(struct pinned_map *m, int cpu, void *data, size_t size)
{
	struct bp_record r = {
		.map = m->name, .cpu = cpu, .text = m->text,
		.val = { .btf = m->owner->btf, .type_id = m->type_id, .data = data, .size = size },
	};

	bp_emit__record(m->owner->em, &r);
	m->owner->nrecords++;
}

static int on_ring(void *ctx, void *data, size_t size)
{
	emit(ctx, -1, data, size);
	return 0;
}

static void on_sample(void *ctx, int cpu, void *data, __u32 size)
{
	emit(ctx, cpu, data, size);
}

static void on_lost(void *ctx, int cpu, __u64 cnt)
{
	struct pinned_map *m = ctx;
	struct bp_lost l = { .source = m->name, .cpu = cpu, .count = cnt };

	m->lost += cnt;
	bp_emit__lost(m->owner->em, &l);
}

/* Every map pinned in dir, with its type; the session's BTF from the
 * first map that has some. */
static int open_maps(struct bp_pinned *p, const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		bp_err("cannot read pinned session %s: %s\n", dir, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d)) && p->nmaps < MAX_MAPS) {
		struct pinned_map *m = &p->maps[p->nmaps];
		struct bpf_map_info info = {};
		__u32 len = sizeof(info);
		char path[PATH_MAX];

		if (strncmp(de->d_name, MAP_PREFIX, strlen(MAP_PREFIX)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		m->fd = bpf_obj_get(path);
		if (m->fd < 0)
			continue;
		if (bpf_obj_get_info_by_fd(m->fd, &info, &len)) {
			close(m->fd);
			continue;
		}
		snprintf(m->name, sizeof(m->name), "%s", de->d_name + strlen(MAP_PREFIX));
		m->type = info.type;
		m->owner = p;
		if (!p->btf && info.btf_id)
			p->btf = btf__load_from_kernel_by_id(info.btf_id);
		p->nmaps++;
	}
	closedir(d);
	return 0;
}

static int read_map(struct bp_pinned *p, struct pinned_map *m, size_t pages, int epfd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int err = 0;

	m->type_id = p->btf ? bp_btf_record__type(p->btf, m->name) : 0;
	if (m->type == BPF_MAP_TYPE_RINGBUF) {
		if (!p->rb) {
			p->rb = ring_buffer__new(m->fd, on_ring, m, NULL);
			err = p->rb ? 0 : -errno;
			if (!err && epoll_ctl(epfd, EPOLL_CTL_ADD, ring_buffer__epoll_fd(p->rb), &ev))
				err = -errno;
		} else {
			err = ring_buffer__add(p->rb, m->fd, on_ring, m);
		}
	} else {
		m->text = !m->type_id && !strcmp(m->name, BP_PERF_STDOUT_MAP);
		m->pb = perf_buffer__new(m->fd, pages, on_sample, on_lost, m, NULL);
		err = m->pb ? 0 : -errno;
		if (!err && epoll_ctl(epfd, EPOLL_CTL_ADD, perf_buffer__epoll_fd(m->pb), &ev))
			err = -errno;
	}
	if (err)
		bp_err("cannot read map '%s': %s\n", m->name, strerror(-err));
	else
		bp_info("%s '%s': records %s\n",
			m->type == BPF_MAP_TYPE_RINGBUF ? "ring buffer" : "perf buffer", m->name,
			m->type_id ? "typed by " BP_RECORD_VAR_PREFIX "<map>" :
			m->text ? "as text" : "in hex");
	return err;
}

int bp_pinned__open(const char *dir, struct bp_emitter *em, size_t pages, int epfd,
		    struct bp_pinned **out)
{
	struct bp_pinned *p = calloc(1, sizeof(*p));
	int err, nread = 0;

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->em = em;
	if (!pages)
		pages = BP_PERF_PAGES_DEFAULT;
	err = open_maps(p, dir);
	for (int i = 0; !err && i < p->nmaps; i++) {
		struct pinned_map *m = &p->maps[i];

		if (m->type != BPF_MAP_TYPE_RINGBUF && m->type != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			continue;
		err = read_map(p, m, pages, epfd);
		nread++;
	}
	if (!err && !nread) {
		bp_err("pinned session %s has no ring buffer or perf event array map to read (its bpf_trace_printk lines go to the trace_pipe of tracefs)\n",
		       dir);
		err = -ENOENT;
	}
	if (err) {
		bp_pinned__free(p);
		return err;
	}
	*out = p;
	return 0;
}

int bp_pinned__consume(struct bp_pinned *p)
{
	int err = 0;

	p->nrecords = 0;
	if (p->rb)
		err = ring_buffer__consume(p->rb);
	for (int i = 0; err >= 0 && i < p->nmaps; i++)
		if (p->maps[i].pb)
			err = perf_buffer__consume(p->maps[i].pb);
	return err < 0 ? err : p->nrecords;
}

__u64 bp_pinned__lost(const struct bp_pinned *p)
{
	__u64 n = 0;

	for (int i = 0; p && i < p->nmaps; i++)
		n += p->maps[i].lost;
	return n;
}

void bp_pinned__free(struct bp_pinned *p)
{
	if (!p)
		return;
	ring_buffer__free(p->rb);
	for (int i = 0; i < p->nmaps; i++) {
		perf_buffer__free(p->maps[i].pb);
		close(p->maps[i].fd);
	}
	btf__free(p->btf);
	free(p);
}
