// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Stack ids to unwound stacks, for one object (stack_cache.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "output/mmap_feed.h"
#include "output/stack_cache.h"
#include "unwind/unwinder.h"
#include "util/fnv.h"
#include "util/log.h"
#include "util/stack_sample.h"

#define KSTACK_DEPTH	127	/* the stack map's (loader/stack_maps.c) */
/* A sample's time is taken before it is written: one written this long
 * after is not waited for (its maps are those after its time) */
#define SETTLE_MARGIN_NS	1000000000ULL

/* One distinct stack, shared by the ids that unwound to it. */
struct distinct {
	struct bp_frames f;
	uint64_t hash;
	int refs;
	struct distinct *next;	/* in its bucket */
};

/* One id: its stack, in the ring of the last BP_STACKS_MAX_IDS. */
struct id_slot {
	__u64 id;
	struct distinct *st;
	int next;		/* in its bucket: an index + 1; 0 ends */
};

struct bp_stacks {
	struct bp_unwinder *u;
	struct ring_buffer *rb;
	/* the kernel's reports of mappings (NULL: /proc snapshots alone) */
	struct bp_mmap_feed *feed;
	__u64 lost_told;	/* reports lost, as last said */
	bool feed_failed;
	int kstacks_fd;
	struct id_slot *ids;	/* a ring: the oldest at head */
	size_t nids, head;
	/* BP_STACKS_MAX_IDS of them: an index + 1, 0 for none (calloc'd:
	 * pages untouched cost nothing) */
	int *id_buckets;
	struct distinct **dist;	/* DIST_BUCKETS */
	char why[160];
	bool warned;
};

#define DIST_BUCKETS	(1 << 16)

static size_t id_bucket(__u64 id)
{
	return (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 44) & (BP_STACKS_MAX_IDS - 1);
}

static uint64_t frames_hash(const struct bp_frames *f)
{
	uint64_t h = BP_FNV1A_INIT;

	h = bp_fnv1a(h, &f->n, sizeof(f->n));
	h = bp_fnv1a(h, &f->stop, sizeof(f->stop));
	h = bp_fnv1a(h, &f->kernel, sizeof(f->kernel));
	for (int i = 0; i < f->n; i++) {
		h = bp_fnv1a(h, &f->frames[i].addr, sizeof(f->frames[i].addr));
		h = bp_fnv1a(h, &f->frames[i].is_inline, sizeof(f->frames[i].is_inline));
	}
	return h;
}

static bool frames_equal(const struct bp_frames *a, const struct bp_frames *b)
{
	if (a->n != b->n || a->stop != b->stop || a->kernel != b->kernel)
		return false;
	for (int i = 0; i < a->n; i++)
		if (a->frames[i].addr != b->frames[i].addr ||
		    a->frames[i].is_inline != b->frames[i].is_inline)
			return false;
	if (!a->reason != !b->reason)
		return false;
	return !a->reason || !strcmp(a->reason, b->reason);
}

/* f, kept once: an equal stack's, or f itself (then *f is taken). */
static struct distinct *intern(struct bp_stacks *s, struct bp_frames *f)
{
	uint64_t h = frames_hash(f);
	struct distinct **b = &s->dist[h & (DIST_BUCKETS - 1)], *d;

	for (d = *b; d; d = d->next) {
		if (d->hash == h && frames_equal(&d->f, f)) {
			bp_frames__free(f);
			d->refs++;
			return d;
		}
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		bp_frames__free(f);
		return NULL;
	}
	d->f = *f;
	memset(f, 0, sizeof(*f));
	d->hash = h;
	d->refs = 1;
	d->next = *b;
	*b = d;
	return d;
}

static void release(struct bp_stacks *s, struct distinct *d)
{
	struct distinct **p;

	if (!d || --d->refs)
		return;
	for (p = &s->dist[d->hash & (DIST_BUCKETS - 1)]; *p; p = &(*p)->next) {
		if (*p == d) {
			*p = d->next;
			break;
		}
	}
	bp_frames__free(&d->f);
	free(d);
}

static struct id_slot *find_slot(struct bp_stacks *s, __u64 id)
{
	for (int i = s->id_buckets[id_bucket(id)]; i; i = s->ids[i - 1].next)
		if (s->ids[i - 1].id == id)
			return &s->ids[i - 1];
	return NULL;
}

/* Forgets the oldest id, making room. */
static void drop_oldest(struct bp_stacks *s)
{
	struct id_slot *o = &s->ids[s->head];
	int *p = &s->id_buckets[id_bucket(o->id)];

	while (*p && *p != (int)s->head + 1)
		p = &s->ids[*p - 1].next;
	if (*p)
		*p = o->next;
	release(s, o->st);
	s->nids--;
	s->head = (s->head + 1) % BP_STACKS_MAX_IDS;
}

static void remember(struct bp_stacks *s, __u64 id, struct distinct *d)
{
	size_t i;
	size_t b = id_bucket(id);

	if (s->nids == BP_STACKS_MAX_IDS)
		drop_oldest(s);
	i = (s->head + s->nids) % BP_STACKS_MAX_IDS;
	s->ids[i] = (struct id_slot){ .id = id, .st = d, .next = s->id_buckets[b] };
	s->id_buckets[b] = (int)i + 1;
	s->nids++;
}

/* The reports of mappings waiting, to the unwinder. */
static void read_feed(struct bp_stacks *s)
{
	__u64 lost;
	int err;

	if (!s->feed)
		return;
	err = bp_mmap_feed__read(s->feed, s->u);
	if (err < 0 && !s->feed_failed) {
		bp_err("cannot read the kernel's reports of mappings: %s\n", strerror(-err));
		s->feed_failed = true;
	}
	lost = bp_mmap_feed__lost(s->feed);
	if (lost > s->lost_told) {
		if (!s->lost_told)
			bp_info("%llu reports of processes' mappings were lost (the rings were full): the stacks of processes that started meanwhile may stop early\n",
				(unsigned long long)lost);
		s->lost_told = lost;
	}
}

static int on_sample(void *ctx, void *data, size_t size)
{
	struct bp_stacks *s = ctx;
	const struct bp_stack_sample *smp = data;
	struct bp_frames f = {};
	struct distinct *d;
	int err;

	if (size < sizeof(*smp))
		return 0;
	/* taken since the reports were read: what its process mapped
	 * before it may be reported since */
	if (s->feed && smp->time_ns >= bp_mmap_feed__read_ns(s->feed))
		read_feed(s);
	err = bp_unwinder__user(s->u, smp, size, &f);
	if (err) {
		if (!s->warned)
			bp_err("cannot unwind the stack of pid %u: %s\n", smp->pid, strerror(-err));
		s->warned = true;
		return 0;
	}
	d = intern(s, &f);
	if (d)
		remember(s, smp->id, d);
	return 0;
}

int bp_stacks__new(int samples_fd, int kstacks_fd, struct bp_stacks **out)
{
	struct bp_stacks *s = calloc(1, sizeof(*s));
	int err = 0;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->kstacks_fd = kstacks_fd;
	s->ids = calloc(BP_STACKS_MAX_IDS, sizeof(*s->ids));
	s->id_buckets = calloc(BP_STACKS_MAX_IDS, sizeof(*s->id_buckets));
	s->dist = calloc(DIST_BUCKETS, sizeof(*s->dist));
	s->u = bp_unwinder__new(NULL);
	if (!s->ids || !s->id_buckets || !s->dist || !s->u) {
		err = -ENOMEM;
		goto fail;
	}
	if (samples_fd >= 0) {
		/* before any sample: a process that starts from now on is
		 * unwound over what the kernel reports it maps */
		err = bp_mmap_feed__open(&s->feed);
		if (err == -ENOMEM)
			goto fail;
		if (err)
			bp_info("user stacks: the kernel's reports of mappings are refused (%s%s): modules are read from /proc/PID/maps when a process's first sample is, so a process that exits before cannot be unwound\n",
				strerror(-err), err == -EACCES || err == -EPERM ?
				": perf_event_paranoid, or CAP_PERFMON" : "");
		err = 0;
		s->rb = ring_buffer__new(samples_fd, on_sample, s, NULL);
		if (!s->rb) {
			err = -errno;
			bp_err("cannot read the ring buffer of stack samples: %s\n", strerror(-err));
			goto fail;
		}
	}
	*out = s;
	return 0;
fail:
	bp_stacks__free(s);
	return err;
}

void bp_stacks__free(struct bp_stacks *s)
{
	if (!s)
		return;
	while (s->ids && s->nids)
		drop_oldest(s);
	ring_buffer__free(s->rb);
	bp_mmap_feed__free(s->feed);
	bp_unwinder__free(s->u);
	free(s->ids);
	free(s->id_buckets);
	free(s->dist);
	free(s);
}

int bp_stacks__consume(struct bp_stacks *s)
{
	__u64 read_ns;
	int n;

	if (!s || !s->rb)
		return 0;
	/* the mappings before the samples taken after them */
	read_feed(s);
	n = ring_buffer__consume(s->rb);
	/* every sample of a process whose exit was read is unwound now (it
	 * was written before the exit), and those taken before the reports
	 * were read (but for one whose writing took a second) */
	read_ns = s->feed ? bp_mmap_feed__read_ns(s->feed) : 0;
	if (read_ns > SETTLE_MARGIN_NS)
		bp_unwinder__settle(s->u, read_ns - SETTLE_MARGIN_NS);
	return n;
}

int bp_stacks__fds(const struct bp_stacks *s, const int **fds)
{
	*fds = NULL;
	return s && s->feed ? bp_mmap_feed__fds(s->feed, fds) : 0;
}

/* Kernel stack id's frames, looked up in the stack map once. */
static struct distinct *kernel_stack(struct bp_stacks *s, __u64 id, const char **why)
{
	__u64 ips[KSTACK_DEPTH] = {};
	__u32 key = (__u32)id;
	struct bp_frames f = {};
	int n = 0, err;

	if (s->kstacks_fd < 0 || bpf_map_lookup_elem(s->kstacks_fd, &key, ips)) {
		snprintf(s->why, sizeof(s->why), "kernel stack %u is not in the stack map", key);
		*why = s->why;
		return NULL;
	}
	while (n < KSTACK_DEPTH && ips[n])
		n++;
	err = bp_unwinder__kernel(s->u, ips, n, &f);
	if (err) {
		snprintf(s->why, sizeof(s->why), "cannot symbolize kernel stack %u: %s", key,
			 strerror(-err));
		*why = s->why;
		return NULL;
	}
	return intern(s, &f);
}

const struct bp_frames *bp_stacks__find(struct bp_stacks *s, __u64 id, const char **why)
{
	struct id_slot *slot;
	struct distinct *d;

	if (!id) {
		*why = "no stack: the fetch failed";
		return NULL;
	}
	slot = find_slot(s, id);
	if (!slot && !(id & BP_STACK_KERNEL_BIT)) {
		/* a sample written after the last read */
		bp_stacks__consume(s);
		slot = find_slot(s, id);
	}
	if (slot)
		return &slot->st->f;
	if (id & BP_STACK_KERNEL_BIT) {
		d = kernel_stack(s, id, why);
		if (!d)
			return NULL;
		remember(s, id, d);
		return &d->f;
	}
	snprintf(s->why, sizeof(s->why),
		 "no sample of user stack 0x%llx: the ring of samples was full, or it is older than the last %d",
		 (unsigned long long)id, BP_STACKS_MAX_IDS);
	*why = s->why;
	return NULL;
}
