// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <bpf/libbpf.h>
#include "output/btf_record.h"
#include "output/emit.h"
#include "output/perfbuf.h"
#include "util/log.h"

struct pb_map {
	const char *name;
	const struct btf *btf;
	__u32 type_id;
	bool text;
	struct bp_emitter *em;
	struct perf_buffer *pb;
	__u64 lost;
};

struct bp_perfbufs {
	struct pb_map *maps;
	int nmaps;
};

static void on_sample(void *ctx, int cpu, void *data, __u32 size)
{
	const struct pb_map *m = ctx;
	struct bp_record r = {
		.map = m->name, .cpu = cpu, .text = m->text,
		.val = { .btf = m->btf, .type_id = m->type_id, .data = data, .size = size },
	};

	bp_emit__record(m->em, &r);
}

static void on_lost(void *ctx, int cpu, __u64 cnt)
{
	struct pb_map *m = ctx;
	struct bp_lost l = { .source = m->name, .cpu = cpu, .count = cnt };

	m->lost += cnt;
	bp_emit__lost(m->em, &l);
}

static int count_maps(struct bpf_object *obj)
{
	struct bpf_map *map;
	int n = 0;

	bpf_object__for_each_map(map, obj)
		n += bpf_map__type(map) == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	return n;
}

int bp_perfbufs__open(struct bpf_object *obj, struct bp_emitter *em, size_t pages,
		      struct bp_perfbufs **out)
{
	const struct btf *btf = bpf_object__btf(obj);
	struct bp_perfbufs *p;
	struct bpf_map *map;
	int n = count_maps(obj);

	*out = NULL;
	if (!n)
		return 0;
	if (!pages)
		pages = BP_PERF_PAGES_DEFAULT;
	if (pages & (pages - 1)) {
		bp_err("perf buffer size %zu pages: not a power of 2\n", pages);
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (!p || !(p->maps = calloc(n, sizeof(*p->maps)))) {
		free(p);
		return -ENOMEM;
	}
	bpf_object__for_each_map(map, obj) {
		struct pb_map *m = &p->maps[p->nmaps];
		int err;

		if (bpf_map__type(map) != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			continue;
		m->name = bpf_map__name(map);
		m->btf = btf;
		m->type_id = bp_btf_record__type(btf, m->name);
		m->text = !m->type_id && !strcmp(m->name, BP_PERF_STDOUT_MAP);
		m->em = em;
		m->pb = perf_buffer__new(bpf_map__fd(map), pages, on_sample, on_lost, m, NULL);
		if (!m->pb) {
			err = -errno;
			bp_err("cannot read perf event array map '%s': %s\n", m->name, strerror(-err));
			bp_perfbufs__free(p);
			return err;
		}
		p->nmaps++;
		bp_info("perf buffer '%s': records %s\n", m->name,
			m->type_id ? "typed by " BP_RECORD_VAR_PREFIX "<map>" :
			m->text ? "as text (perf's __bpf_stdout__)" : "in hex");
	}
	*out = p;
	return 0;
}

int bp_perfbufs__add_to_epoll(struct bp_perfbufs *p, int epfd)
{
	for (int i = 0; i < p->nmaps; i++) {
		struct epoll_event ev = { .events = EPOLLIN };

		if (epoll_ctl(epfd, EPOLL_CTL_ADD, perf_buffer__epoll_fd(p->maps[i].pb), &ev))
			return -errno;
	}
	return 0;
}

int bp_perfbufs__consume(struct bp_perfbufs *p)
{
	int err = 0;

	for (int i = 0; i < p->nmaps; i++) {
		int e = perf_buffer__consume(p->maps[i].pb);

		if (e < 0 && !err)
			err = e;
	}
	return err;
}

__u64 bp_perfbufs__lost(const struct bp_perfbufs *p)
{
	__u64 n = 0;

	for (int i = 0; p && i < p->nmaps; i++)
		n += p->maps[i].lost;
	return n;
}

void bp_perfbufs__free(struct bp_perfbufs *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nmaps; i++)
		perf_buffer__free(p->maps[i].pb);
	free(p->maps);
	free(p);
}
