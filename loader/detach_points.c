// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Detaching probe points. Closing a uprobe's or kprobe's perf event makes
 * the kernel wait for a grace period before close() returns (about 50 ms
 * here), so closing N of them one after the other takes N grace periods.
 * Closed from several threads at once, the waits overlap: detaching 64
 * points costs about one grace period instead of 64.
 */
#include <pthread.h>
#include <unistd.h>
#include "loader/object.h"

/* enough to overlap the waits; thread creation is cheap next to them */
#define MAX_CLOSERS	16

struct closer {
	struct bp_attach_point *aps;
	int first, step, n;
};

/*
 * A bpf_link holds its perf event: closing the event's fd first only drops
 * a reference, and the link's close then does the whole teardown, so the
 * waits of all points start together and share their grace periods.
 */
static void drop_linked_event(struct bp_attach_point *ap)
{
	if (ap->link_fd >= 0 && ap->perf_fd >= 0) {
		close(ap->perf_fd);
		ap->perf_fd = -1;
	}
}

static void close_point(struct bp_attach_point *ap)
{
	if (ap->link_fd >= 0)
		close(ap->link_fd);
	if (ap->perf_fd >= 0)
		close(ap->perf_fd);
	ap->link_fd = ap->perf_fd = -1;
}

static void *close_every(void *arg)
{
	struct closer *c = arg;

	for (int i = c->first; i < c->n; i += c->step)
		close_point(&c->aps[i]);
	return NULL;
}

static int count_attached(const struct bp_attach_point *aps, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += aps[i].perf_fd >= 0 || aps[i].link_fd >= 0;
	return k;
}

void bp_attach_points__close(struct bp_attach_point *aps, int n)
{
	struct closer c[MAX_CLOSERS];
	pthread_t tid[MAX_CLOSERS];
	bool started[MAX_CLOSERS] = { false };
	int nthreads = count_attached(aps, n), i;

	for (i = 0; i < n; i++)
		drop_linked_event(&aps[i]);
	if (nthreads > MAX_CLOSERS)
		nthreads = MAX_CLOSERS;
	if (nthreads <= 1) {
		for (i = 0; i < n; i++)
			close_point(&aps[i]);
		return;
	}
	/* thread 0 is this one; a thread that cannot start leaves its
	 * share to the final pass below */
	for (i = 0; i < nthreads; i++)
		c[i] = (struct closer){ .aps = aps, .first = i, .step = nthreads, .n = n };
	for (i = 1; i < nthreads; i++)
		started[i] = !pthread_create(&tid[i], NULL, close_every, &c[i]);
	close_every(&c[0]);
	for (i = 1; i < nthreads; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
	}
	for (i = 0; i < n; i++)
		close_point(&aps[i]);	/* the shares of threads that did not start */
}
