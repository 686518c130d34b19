// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpfprobe_output: every output channel of a loaded object polled
 * together (bpf_trace_printk through our tracefs instance, ring buffers,
 * perf buffers) through one epoll set, and the maps dumped at exit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpfprobe/bpfprobe.h>
#include "output/emit.h"
#include "output/map_dump.h"
#include "output/perfbuf.h"
#include "output/printk_filter.h"
#include "output/printk_raw.h"
#include "output/ringbuf.h"
#include "util/log.h"
#include "util/opts.h"
#include "util/ref.h"

struct bpfprobe_output {
	struct bpfprobe_object *holds;	/* a reference: freed after us */
	struct bpf_object *obj;
	struct bp_emitter em;
	struct bp_printk_raw *printk;
	struct bp_printk_filter *filter;
	struct bp_ringbufs *rbs;
	struct bp_perfbufs *pbs;
	int epfd;
	__u64 printk_lost;
};

static void on_printk(void *ctx, const struct bp_printk_msg *m)
{
	struct bpfprobe_output *out = ctx;

	if (bp_printk_filter__match(out->filter, m->msg, m->len))
		bp_emit__printk(&out->em, m);
}

static void on_printk_lost(void *ctx, int cpu, long long missed)
{
	struct bpfprobe_output *out = ctx;
	struct bp_lost l = { .source = "printk", .cpu = cpu, .count = missed > 0 ? missed : 0 };

	out->printk_lost += l.count;
	bp_emit__lost(&out->em, &l);
}

/* Opens our tracefs instance only when some program calls bpf_trace_printk. */
static int open_printk(struct bpfprobe_output *out)
{
	int calls;

	out->filter = bp_printk_filter__new();
	if (!out->filter)
		return -ENOMEM;
	calls = bp_printk_filter__from_object(out->filter, out->obj);
	if (calls < 0)
		return calls;
	if (!calls)
		return 0;
	out->printk = bp_printk_raw__open();
	if (!out->printk)
		return -ENOENT;
	return bp_printk_raw__add_to_epoll(out->printk, out->epfd);
}

static int add_fd(int epfd, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN };

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) ? -errno : 0;
}

struct bpfprobe_output *bpfprobe_output__new(struct bpfprobe_object *obj,
					     const struct bpfprobe_output_opts *opts)
{
	struct bpfprobe_output *out;
	FILE *file = stdout;
	bool json = false, quiet = false;
	size_t pages = 0;
	bool global_off = false;
	int err;

	if (!OPTS_VALID(opts, bpfprobe_output_opts)) {
		errno = EINVAL;
		return NULL;
	}
	if (OPTS_HAS(opts, file) && opts->file)
		file = opts->file;
	if (OPTS_HAS(opts, json))
		json = opts->json;
	if (OPTS_HAS(opts, quiet_meta))
		quiet = opts->quiet_meta;
	if (OPTS_HAS(opts, perf_pages))
		pages = opts->perf_pages;
	if (OPTS_HAS(opts, global_printk_off))
		global_off = opts->global_printk_off;
	/* only a loaded object is registered (util/ref.h): then it stays
	 * until we are freed, whenever its owner destroys it */
	if (!obj || !bp_ref__get(obj)) {
		if (obj)
			bp_err("bpfprobe_output__new: the object is not loaded (call bpfprobe_object__load() first)\n");
		errno = EINVAL;
		return NULL;
	}
	out = calloc(1, sizeof(*out));
	if (!out) {
		bp_ref__put(obj);
		errno = ENOMEM;
		return NULL;
	}
	out->holds = obj;
	out->obj = bpfprobe_object__bpf_object(obj);
	out->epfd = epoll_create1(EPOLL_CLOEXEC);
	err = out->epfd < 0 ? -errno : bp_emitter__init(&out->em, file, json, quiet);
	if (!err)
		err = bp_ringbufs__open(out->obj, &out->em, &out->rbs);
	if (!err && out->rbs)
		err = add_fd(out->epfd, bp_ringbufs__epoll_fd(out->rbs));
	if (!err)
		err = bp_perfbufs__open(out->obj, &out->em, pages, &out->pbs);
	if (!err && out->pbs)
		err = bp_perfbufs__add_to_epoll(out->pbs, out->epfd);
	if (!err)
		err = open_printk(out);
	/* our load turned the top-level event on: others' trace_pipe readers
	 * would see our lines (a tool loading a printk program meanwhile
	 * loses its top-level lines until its next load: a narrow window) */
	if (!err && global_off && out->printk && bp_printk_raw__global_disable())
		bp_debug("cannot turn the top-level bpf_trace_printk event off\n");
	if (err) {
		bpfprobe_output__free(out);
		errno = -err;
		return NULL;
	}
	return out;
}

int bpfprobe_output__global_printk(void)
{
	return bp_api_err(bp_printk_raw__global_enabled());
}

int bpfprobe_output__scope_pid(struct bpfprobe_output *out, pid_t pid)
{
	if (!out || pid <= 0)
		return bp_api_err(-EINVAL);
	return bp_api_err(out->printk ? bp_printk_raw__scope_pid(out->printk, pid) : 0);
}

int bpfprobe_output__fd(const struct bpfprobe_output *out)
{
	return out ? out->epfd : bp_api_err(-EINVAL);
}

static int output_drain(struct bpfprobe_output *out)
{
	int n = 0, err;

	if (!out)
		return -EINVAL;
	if (out->rbs) {
		err = bp_ringbufs__consume(out->rbs);
		if (err < 0)
			return err;
		n += err;
	}
	if (out->pbs) {
		err = bp_perfbufs__consume(out->pbs);
		if (err < 0)
			return err;
	}
	if (out->printk)
		n += bp_printk_raw__drain(out->printk, on_printk, on_printk_lost, out);
	fflush(out->em.out);
	return n;
}

int bpfprobe_output__drain(struct bpfprobe_output *out)
{
	return bp_api_err(output_drain(out));
}

int bpfprobe_output__poll(struct bpfprobe_output *out, int timeout_ms)
{
	struct epoll_event evs[8];

	if (!out)
		return bp_api_err(-EINVAL);
	/* every channel is drained whichever fd woke us: draining is cheap
	 * and a trace_pipe_raw wakeup may lag behind its data */
	if (epoll_wait(out->epfd, evs, 8, timeout_ms) < 0 && errno != EINTR)
		return bp_api_err(-errno);
	return bp_api_err(output_drain(out));
}

int bpfprobe_output__dump_maps(struct bpfprobe_output *out)
{
	int n;

	if (!out)
		return bp_api_err(-EINVAL);
	n = bp_map_dump(out->obj, &out->em);
	fflush(out->em.out);
	return bp_api_err(n);
}

void bpfprobe_output__free(struct bpfprobe_output *out)
{
	if (!out)
		return;
	bp_ringbufs__free(out->rbs);
	bp_perfbufs__free(out->pbs);
	bp_printk_raw__close(out->printk);
	bp_printk_filter__free(out->filter);
	bp_emitter__fini(&out->em);
	if (out->epfd >= 0)
		close(out->epfd);
	if (out->holds)
		bp_ref__put(out->holds);
	free(out);
}

uint64_t bpfprobe_output__lost(const struct bpfprobe_output *out)
{
	return out ? out->printk_lost + bp_perfbufs__lost(out->pbs) : 0;
}
