// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpfprobe_output: every output channel of a loaded object polled
 * together (bpf_trace_printk through our tracefs instance, ring buffers,
 * perf buffers) through one epoll set, and the maps dumped at exit.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpfprobe/bpfprobe.h>
#include "output/batch.h"
#include "output/emitter.h"
#include "output/map_dump.h"
#include "output/perfbuf.h"
#include "output/pinned.h"
#include "output/printk_filter.h"
#include "output/printk_raw.h"
#include "output/ringbuf.h"
#include "output/stack_cache.h"
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
	struct bp_pinned *pinned;	/* bpfprobe_output__open_pinned() */
	struct bp_stacks *stacks;	/* $ustack's and $kstack's, unwound */
	int epfd;
	__u64 printk_lost;
	struct bp_batch batch;	/* when to read the ring buffers */
	int rb_records;		/* ring buffer records the last read found */
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

/* The options every output takes; NULL after setting errno. */
static struct bpfprobe_output *output_alloc(const struct bpfprobe_output_opts *opts,
					    size_t *pages)
{
	struct bpfprobe_output *out;
	FILE *file = stdout;
	bool json = false, quiet = false;
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
	*pages = OPTS_HAS(opts, perf_pages) ? opts->perf_pages : 0;
	out = calloc(1, sizeof(*out));
	if (!out)
		return NULL;
	out->epfd = epoll_create1(EPOLL_CLOEXEC);
	err = out->epfd < 0 ? -errno : bp_emitter__init(&out->em, file, json, quiet);
	if (err) {
		if (out->epfd >= 0)
			close(out->epfd);
		free(out);
		errno = -err;
		return NULL;
	}
	return out;
}

struct bpfprobe_output *bpfprobe_output__open_pinned(const char *name,
						     const struct bpfprobe_output_opts *opts)
{
	struct bpfprobe_output *out;
	char dir[PATH_MAX];
	size_t pages;
	int err;

	if (!name || bpfprobe_pin__exists(name) < 0) {
		errno = EINVAL;
		return NULL;
	}
	if (bpfprobe_pin__exists(name) == 0) {
		bp_err("no pinned bpfprobe session '%s' (%s/%s does not exist)\n", name,
		       bpfprobe_pin__root(), name);
		errno = ENOENT;
		return NULL;
	}
	out = output_alloc(opts, &pages);
	if (!out)
		return NULL;
	snprintf(dir, sizeof(dir), "%s/%s", bpfprobe_pin__root(), name);
	err = bp_pinned__open(dir, &out->em, pages, out->epfd, &out->pinned);
	if (err) {
		bpfprobe_output__free(out);
		errno = -err;
		return NULL;
	}
	return out;
}

/* The stacks $ustack and $kstack fetch, when a program fetches them. */
static int open_stacks(struct bpfprobe_output *out, struct bpfprobe_object *obj)
{
	int samples = -1, kstacks = -1, err, n;
	const int *fds;

	bpfprobe_object__stack_fds(obj, &samples, &kstacks);
	if (samples < 0 && kstacks < 0)
		return 0;

	err = bp_stacks__new(samples, kstacks, &out->stacks);
	out->em.stacks = out->stacks;
	if (err)
		return err;
	/* the reports of mappings wake the loop before their rings fill */
	n = bp_stacks__fds(out->stacks, &fds);
	for (int i = 0; i < n && !err; i++)
		err = add_fd(out->epfd, fds[i]);
	return err;
}

struct bpfprobe_output *bpfprobe_output__new(struct bpfprobe_object *obj,
					     const struct bpfprobe_output_opts *opts)
{
	struct bpfprobe_output *out;
	size_t pages = 0;
	bool global_off = false;
	int err = 0;

	/* only a loaded object is registered (util/ref.h): then it stays
	 * until we are freed, whenever its owner destroys it */
	if (!obj || !bp_ref__get(obj)) {
		if (obj)
			bp_err("bpfprobe_output__new: the object is not loaded (call bpfprobe_object__load() first)\n");
		errno = EINVAL;
		return NULL;
	}
	out = output_alloc(opts, &pages);
	if (!out) {
		bp_ref__put(obj);
		return NULL;
	}
	out->holds = obj;
	if (OPTS_HAS(opts, global_printk_off))
		global_off = opts->global_printk_off;
	out->obj = bpfprobe_object__bpf_object(obj);
	err = open_stacks(out, obj);
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
	/* the samples before the records that name them */
	if (out->stacks) {
		err = bp_stacks__consume(out->stacks);
		if (err < 0)
			return err;
	}
	if (out->rbs) {
		err = bp_ringbufs__consume(out->rbs);
		if (err < 0)
			return err;
		out->rb_records = err;
		n += err;
	}
	if (out->pbs) {
		err = bp_perfbufs__consume(out->pbs);
		if (err < 0)
			return err;
	}
	if (out->pinned) {
		err = bp_pinned__consume(out->pinned);
		if (err < 0)
			return err;
		n += err;
	}
	if (out->printk)
		n += bp_printk_raw__drain(out->printk, on_printk, on_printk_lost, out);
	err = bp_emitter__flush(&out->em);
	return err ? err : n;
}

int bpfprobe_output__drain(struct bpfprobe_output *out)
{
	return bp_api_err(output_drain(out));
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * While ring buffer records stream, sleep the batching interval (or
 * timeout_ms, if shorter) instead of waiting in epoll, then read: see
 * batch.h. A signal ends the sleep early, as it ends epoll_wait.
 */
static int wait_batch(const struct bpfprobe_output *out, int timeout_ms, bool *signaled)
{
	uint64_t ns = out->batch.interval_ns;
	struct timespec ts;

	if (timeout_ms >= 0 && (uint64_t)timeout_ms * 1000000ULL < ns)
		ns = (uint64_t)timeout_ms * 1000000ULL;
	ts.tv_sec = ns / 1000000000ULL;
	ts.tv_nsec = ns % 1000000000ULL;
	if (nanosleep(&ts, NULL)) {
		if (errno != EINTR)
			return -errno;
		*signaled = true;
	}
	return 0;
}

/* One wait, at most timeout_ms (-1: no limit), then one read of
 * everything; *signaled when a signal cut the wait short. */
static int poll_once(struct bpfprobe_output *out, int timeout_ms, bool *signaled)
{
	struct epoll_event evs[8];
	int n;

	if (out->rbs && out->batch.interval_ns) {
		n = wait_batch(out, timeout_ms, signaled);
		if (n)
			return n;
	} else if (epoll_wait(out->epfd, evs, 8, timeout_ms) < 0) {
		/* every channel is drained whichever fd woke us: draining is
		 * cheap and a trace_pipe_raw wakeup may lag behind its data */
		if (errno != EINTR)
			return -errno;
		*signaled = true;
	}
	n = output_drain(out);
	if (out->rbs && n >= 0)
		bp_batch__read(&out->batch, now_ns(), out->rb_records,
			       bp_ringbufs__take_bytes(out->rbs),
			       bp_ringbufs__capacity(out->rbs));
	return n;
}

/*
 * Perf buffers wake their reader only when a quarter full (perfbuf.h), so
 * with them the wait is cut into slices of BP_PERF_DRAIN_MS, each ending
 * in a read, until something was printed or timeout_ms passed.
 */
static int output_poll(struct bpfprobe_output *out, int timeout_ms)
{
	bool signaled = false;
	uint64_t end;
	int n, slice;

	if (!out)
		return -EINVAL;
	if (!out->pbs || (timeout_ms >= 0 && timeout_ms <= BP_PERF_DRAIN_MS))
		return poll_once(out, timeout_ms, &signaled);
	end = timeout_ms < 0 ? UINT64_MAX : now_ns() + timeout_ms * 1000000ULL;
	for (;;) {
		uint64_t now = now_ns();

		slice = BP_PERF_DRAIN_MS;
		if (end != UINT64_MAX && (end - now) / 1000000ULL < (uint64_t)slice)
			slice = now >= end ? 0 : (int)((end - now) / 1000000ULL);
		n = poll_once(out, slice, &signaled);
		if (n || signaled || now_ns() >= end)
			return n;
	}
}

int bpfprobe_output__poll(struct bpfprobe_output *out, int timeout_ms)
{
	return bp_api_err(output_poll(out, timeout_ms));
}

int bpfprobe_output__dump_maps(struct bpfprobe_output *out)
{
	int n, err;

	/* a pinned session's output has no object to dump */
	if (!out || !out->obj)
		return bp_api_err(-EINVAL);
	n = bp_map_dump(out->obj, &out->em);
	err = bp_emitter__flush(&out->em);
	return bp_api_err(err ? err : n);
}

void bpfprobe_output__free(struct bpfprobe_output *out)
{
	if (!out)
		return;
	bp_ringbufs__free(out->rbs);
	bp_perfbufs__free(out->pbs);
	bp_pinned__free(out->pinned);
	bp_stacks__free(out->stacks);
	bp_printk_raw__close(out->printk);
	bp_printk_filter__free(out->filter);
	bp_emitter__fini(&out->em);
	if (out->epfd >= 0)
		close(out->epfd);
	if (out->holds)
		bp_ref__put(out->holds);
	free(out);
}

int bpfprobe_output__write_error(const struct bpfprobe_output *out)
{
	return out ? out->em.werr : -EINVAL;
}

uint64_t bpfprobe_output__unwritten(const struct bpfprobe_output *out)
{
	return out ? out->em.unwritten : 0;
}

uint64_t bpfprobe_output__lost(const struct bpfprobe_output *out)
{
	return out ? out->printk_lost + bp_perfbufs__lost(out->pbs) + bp_pinned__lost(out->pinned) :
		     0;
}
