// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <linux/perf_event.h>
#include <bpf/libbpf.h>
#include "output/btf_record.h"
#include "output/emitter.h"
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

/* what the kernel writes for a bpf_perf_event_output() sample ... */
struct sample {
	struct perf_event_header header;
	__u32 size;
	char data[];
};

/* ... and for the records it had no room for */
struct lost {
	struct perf_event_header header;
	__u64 id;
	__u64 lost;
};

static enum bpf_perf_event_ret on_perf_record(void *ctx, int cpu, struct perf_event_header *e)
{
	struct pb_map *m = ctx;

	if (e->type == PERF_RECORD_SAMPLE) {
		const struct sample *s = (const struct sample *)e;
		struct bp_record r = {
			.map = m->name, .cpu = cpu, .text = m->text,
			.val = { .btf = m->btf, .type_id = m->type_id, .data = s->data,
				 .size = s->size },
		};

		bp_emit__record(m->em, &r);
	} else if (e->type == PERF_RECORD_LOST) {
		const struct lost *l = (const struct lost *)e;
		struct bp_lost bl = { .source = m->name, .cpu = cpu, .count = l->lost };

		m->lost += l->lost;
		bp_emit__lost(m->em, &bl);
	}
	return LIBBPF_PERF_EVENT_CONT;
}

/*
 * One bpf-output event per CPU that wakes its reader only once a quarter
 * of its buffer is full, not at every record (libbpf's perf_buffer__new()
 * wakes at every one: at full speed that wakeup costs the probed program
 * more than the record). Fewer records wait for the reader's timed drain
 * (bpfprobe_output__poll() drains at least every BP_PERF_DRAIN_MS).
 */
static struct perf_buffer *open_buffer(struct pb_map *m, int fd, size_t pages)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.size = sizeof(attr),
		.sample_type = PERF_SAMPLE_RAW,
		.sample_period = 1,
		.watermark = 1,
		.wakeup_watermark = pages * sysconf(_SC_PAGESIZE) / 4,
	};

	return perf_buffer__new_raw(fd, pages, &attr, on_perf_record, m, NULL);
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
		if (!m->type_id && !m->text)
			m->type_id = bp_btf_record__abi_type(obj);
		m->em = em;
		m->pb = open_buffer(m, bpf_map__fd(map), pages);
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
