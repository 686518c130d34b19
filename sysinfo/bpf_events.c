// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Per-CPU perf side-band events for BPF program loads/unloads (see bpf_events.h). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "sysinfo/bpf_events.h"
#include "util/log.h"
#include "util/grow.h"
#include "util/perf_sideband.h"

#define RING_PAGES 32	/* data pages per CPU, a power of two */
#define SAMPLE_TYPE (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)
#define SAMPLE_ID_SIZE 24	/* pid, tid; time; cpu, res */

struct bp_bpf_events {
	struct bp_sideband *sb;
	struct pollfd *pfds;
	int npfds;
	struct bp_bpf_event *batch;
	size_t nbatch, batch_cap;
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

int bp_bpf_events__open(struct bp_bpf_events **out)
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
	struct bp_bpf_events *e;
	const int *fds;
	int err;

	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	err = bp_sideband__open(&attr, RING_PAGES, &e->sb);
	if (err) {
		bp_err("cannot open a perf event for BPF load/unload records: %s%s\n",
		       strerror(-err), err == -EACCES || err == -EPERM ?
		       " (needs CAP_PERFMON or CAP_SYS_ADMIN)" : "");
		free(e);
		return err;
	}
	e->npfds = bp_sideband__fds(e->sb, &fds);
	e->pfds = calloc(e->npfds, sizeof(*e->pfds));
	if (!e->pfds) {
		bp_bpf_events__close(e);
		return -ENOMEM;
	}
	for (int i = 0; i < e->npfds; i++)
		e->pfds[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	*out = e;
	return 0;
}

void bp_bpf_events__close(struct bp_bpf_events *e)
{
	if (!e)
		return;
	bp_sideband__free(e->sb);
	free(e->pfds);
	free(e->batch);
	free(e);
}

/* One record, in time order, into the batch. */
static int take(const void *rec, size_t size, void *ctx)
{
	struct bp_bpf_events *e = ctx;
	struct bp_bpf_event ev;

	if (bp_bpf_event__parse(rec, size, &ev) || ev.kind == BP_EV_OTHER)
		return 0;
	if (bp_grow((void **)&e->batch, e->nbatch, &e->batch_cap, sizeof(*e->batch), 64))
		return -ENOMEM;
	/* at once: the program may live microseconds */
	if (ev.kind == BP_EV_PROG_LOAD)
		ev.prog_fd = bpf_prog_get_fd_by_id(ev.id);
	e->batch[e->nbatch++] = ev;
	return 0;
}

int bp_bpf_events__poll(struct bp_bpf_events *e, int timeout_ms,
			int (*cb)(const struct bp_bpf_event *ev, void *ctx), void *ctx)
{
	int n, err;

	n = poll(e->pfds, e->npfds, timeout_ms);
	if (n < 0)
		return -errno;
	/* every CPU's records in time order (a load on one may precede an
	 * unload on another), every program opened before the first cb */
	e->nbatch = 0;
	err = bp_sideband__read(e->sb, take, e);
	if (err > 0)
		err = 0;
	for (size_t i = 0; i < e->nbatch && !err; i++)
		err = cb(&e->batch[i], ctx);
	for (size_t i = 0; i < e->nbatch; i++)
		if (e->batch[i].prog_fd >= 0)
			close(e->batch[i].prog_fd);
	return err ? err : (int)e->nbatch;
}
