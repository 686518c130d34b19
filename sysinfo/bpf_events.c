// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Per-CPU perf side-band events for BPF program loads/unloads (see bpf_events.h). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "sysinfo/bpf_events.h"
#include "util/log.h"
#include "util/grow.h"

#define RING_PAGES 32	/* data pages per CPU, a power of two */
#define SAMPLE_TYPE (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)
#define SAMPLE_ID_SIZE 24	/* pid, tid; time; cpu, res */

struct ring {
	int fd;
	void *base;		/* the control page, then the data */
	size_t size;		/* whole mapping */
};

struct bp_bpf_events {
	struct ring *rings;
	int nrings;
	struct pollfd *pfds;
	struct bp_bpf_event *batch;
	size_t nbatch, batch_cap;
	char *rec;		/* a record that wraps around the ring, copied */
	size_t rec_cap;
};

static void parse_sample_id(const uint8_t *end, struct bp_bpf_event *ev)
{
	const uint8_t *p = end - SAMPLE_ID_SIZE;
	uint32_t pt[2];

	memcpy(pt, p, sizeof(pt));
	ev->pid = pt[0];
	ev->tid = pt[1];
	memcpy(&ev->time, p + 8, sizeof(ev->time));
	memcpy(&ev->cpu, p + 16, sizeof(ev->cpu));
}

int bp_bpf_event__parse(const void *rec, size_t len, struct bp_bpf_event *ev)
{
	const uint8_t *p = rec;
	struct perf_event_header h;

	memset(ev, 0, sizeof(*ev));
	ev->prog_fd = -1;
	if (len < sizeof(h))
		return -EINVAL;
	memcpy(&h, p, sizeof(h));
	if (h.size > len || h.size < sizeof(h) + SAMPLE_ID_SIZE)
		return -EINVAL;
	p += sizeof(h);
	switch (h.type) {
	case PERF_RECORD_BPF_EVENT: {
		uint16_t type;

		if (h.size < sizeof(h) + 8 + BPF_TAG_SIZE + SAMPLE_ID_SIZE)
			return -EINVAL;
		memcpy(&type, p, sizeof(type));
		memcpy(&ev->id, p + 4, sizeof(ev->id));
		memcpy(ev->tag, p + 8, BPF_TAG_SIZE);
		ev->kind = type == PERF_BPF_EVENT_PROG_LOAD ? BP_EV_PROG_LOAD :
			   type == PERF_BPF_EVENT_PROG_UNLOAD ? BP_EV_PROG_UNLOAD : BP_EV_OTHER;
		break;
	}
	case PERF_RECORD_KSYMBOL: {
		uint16_t flags;
		size_t max;

		if (h.size < sizeof(h) + 16 + SAMPLE_ID_SIZE)
			return -EINVAL;
		memcpy(&ev->addr, p, sizeof(ev->addr));
		memcpy(&ev->len, p + 8, sizeof(ev->len));
		memcpy(&flags, p + 14, sizeof(flags));
		ev->kind = flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER ? BP_EV_KSYM_DEL : BP_EV_KSYM_ADD;
		max = h.size - sizeof(h) - 16 - SAMPLE_ID_SIZE;
		if (max >= sizeof(ev->name))
			max = sizeof(ev->name) - 1;
		memcpy(ev->name, p + 16, max);
		ev->name[max] = '\0';
		break;
	}
	case PERF_RECORD_COMM: {
		size_t max;

		if (h.size < sizeof(h) + 8 + SAMPLE_ID_SIZE)
			return -EINVAL;
		ev->kind = BP_EV_COMM;
		max = h.size - sizeof(h) - 8 - SAMPLE_ID_SIZE;
		if (max >= sizeof(ev->name))
			max = sizeof(ev->name) - 1;
		memcpy(ev->name, p + 8, max);
		ev->name[max] = '\0';
		break;
	}
	case PERF_RECORD_LOST:
		if (h.size < sizeof(h) + 16 + SAMPLE_ID_SIZE)
			return -EINVAL;
		ev->kind = BP_EV_LOST;
		memcpy(&ev->lost, p + 8, sizeof(ev->lost));
		break;
	default:
		ev->kind = BP_EV_OTHER;
		break;
	}
	parse_sample_id((const uint8_t *)rec + h.size, ev);
	if (ev->kind == BP_EV_COMM) {
		/* the record's own pid/tid say whose name it is */
		uint32_t pt[2];

		memcpy(pt, p, sizeof(pt));
		ev->pid = pt[0];
		ev->tid = pt[1];
	}
	return 0;
}

static int open_cpu(int cpu, struct ring *r)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = SAMPLE_TYPE,
		.sample_id_all = 1,
		.bpf_event = 1,
		.ksymbol = 1,
		.comm = 1,
		/* side-band records do not count as wakeup_events: wake on
		 * every byte instead, so each load is seen at once */
		.watermark = 1,
		.wakeup_watermark = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
	};
	long page = sysconf(_SC_PAGESIZE);

	r->fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return -errno;
	r->size = (RING_PAGES + 1) * page;
	r->base = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->base == MAP_FAILED) {
		int err = -errno;

		close(r->fd);
		r->fd = -1;
		r->base = NULL;
		return err;
	}
	return 0;
}

int bp_bpf_events__open(struct bp_bpf_events **out)
{
	int ncpus = libbpf_num_possible_cpus(), err = 0;
	struct bp_bpf_events *e;

	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->rings = calloc(ncpus, sizeof(*e->rings));
	e->pfds = calloc(ncpus, sizeof(*e->pfds));
	if (!e->rings || !e->pfds) {
		bp_bpf_events__close(e);
		return -ENOMEM;
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct ring *r = &e->rings[e->nrings];

		err = open_cpu(cpu, r);
		if (err == -ENODEV || err == -EINVAL) {
			err = 0;	/* a possible but offline CPU */
			continue;
		}
		if (err) {
			bp_err("cannot open a perf event for BPF load/unload records on CPU %d: %s%s\n",
			       cpu, strerror(-err),
			       err == -EACCES || err == -EPERM ?
			       " (needs CAP_PERFMON or CAP_SYS_ADMIN)" : "");
			bp_bpf_events__close(e);
			return err;
		}
		e->pfds[e->nrings].fd = r->fd;
		e->pfds[e->nrings].events = POLLIN;
		e->nrings++;
	}
	if (!e->nrings) {
		bp_err("no online CPU accepted a perf event for BPF records\n");
		bp_bpf_events__close(e);
		return -ENODEV;
	}
	*out = e;
	return 0;
}

void bp_bpf_events__close(struct bp_bpf_events *e)
{
	if (!e)
		return;
	for (int i = 0; i < e->nrings; i++) {
		munmap(e->rings[i].base, e->rings[i].size);
		close(e->rings[i].fd);
	}
	free(e->rings);
	free(e->pfds);
	free(e->batch);
	free(e->rec);
	free(e);
}

static int push(struct bp_bpf_events *e, const struct bp_bpf_event *ev)
{
	if (bp_grow((void **)&e->batch, e->nbatch, &e->batch_cap, sizeof(*e->batch), 64))
		return -ENOMEM;
	e->batch[e->nbatch++] = *ev;
	return 0;
}

/* Moves every complete record of one ring into the batch. */
static int drain(struct bp_bpf_events *e, struct ring *r)
{
	struct perf_event_mmap_page *mp = r->base;
	uint8_t *data = (uint8_t *)r->base + mp->data_offset;
	uint64_t size = mp->data_size, head, tail;
	int err = 0;

	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	tail = mp->data_tail;
	while (tail < head && !err) {
		struct perf_event_header h;
		uint64_t off = tail % size;
		struct bp_bpf_event ev;
		const void *rec;

		memcpy(&h, data + off, sizeof(h));	/* headers never wrap: 8-aligned */
		if (!h.size)
			break;
		if (off + h.size <= size) {
			rec = data + off;
		} else {
			size_t first = size - off;

			if (h.size > e->rec_cap) {
				char *n = realloc(e->rec, h.size);

				if (!n)
					return -ENOMEM;
				e->rec = n;
				e->rec_cap = h.size;
			}
			memcpy(e->rec, data + off, first);
			memcpy(e->rec + first, data, h.size - first);
			rec = e->rec;
		}
		if (!bp_bpf_event__parse(rec, h.size, &ev) && ev.kind != BP_EV_OTHER) {
			/* at once: the program may live microseconds */
			if (ev.kind == BP_EV_PROG_LOAD)
				ev.prog_fd = bpf_prog_get_fd_by_id(ev.id);
			err = push(e, &ev);
			if (err && ev.prog_fd >= 0)
				close(ev.prog_fd);
		}
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	return err;
}

static int cmp_time(const void *a, const void *b)
{
	const struct bp_bpf_event *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

int bp_bpf_events__poll(struct bp_bpf_events *e, int timeout_ms,
			int (*cb)(const struct bp_bpf_event *ev, void *ctx), void *ctx)
{
	int n, err = 0;

	n = poll(e->pfds, e->nrings, timeout_ms);
	if (n < 0)
		return -errno;
	e->nbatch = 0;
	for (int i = 0; i < e->nrings && !err; i++)
		err = drain(e, &e->rings[i]);
	/* several CPUs: a load on one may precede an unload on another */
	if (!err && e->nbatch > 1)
		qsort(e->batch, e->nbatch, sizeof(*e->batch), cmp_time);
	for (size_t i = 0; i < e->nbatch && !err; i++)
		err = cb(&e->batch[i], ctx);
	for (size_t i = 0; i < e->nbatch; i++)
		if (e->batch[i].prog_fd >= 0)
			close(e->batch[i].prog_fd);
	return err ? err : (int)e->nbatch;
}
