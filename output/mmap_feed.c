// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The kernel's reports of processes' mappings, for the unwinder (mmap_feed.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "output/mmap_feed.h"
#include "unwind/unwinder.h"
#include "util/perf_sideband.h"

/* The sample_id every record ends with: pid, tid; time. */
#define SAMPLE_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME)
#define SAMPLE_ID_SIZE	16

/*
 * The records' bodies after their header (perf_event.h's comments):
 *	MMAP2:	u32 pid, tid; u64 addr, len, pgoff; u32 maj, min; u64 ino,
 *		ino_generation; u32 prot, flags; char filename[]
 *	COMM:	u32 pid, tid; char comm[]
 *	FORK, EXIT: u32 pid, ppid, tid, ptid; u64 time
 *	LOST:	u64 id, lost
 */
#define MMAP2_FILENAME	64
#define COMM_SIZE	8
#define TASK_SIZE	24
#define LOST_SIZE	16

struct bp_mmap_feed {
	struct bp_sideband *sb;
	struct bp_unwinder *u;	/* during a read */
	__u64 read_ns;
	__u64 lost;
	int given;
};

static __u32 u32_at(const unsigned char *p)
{
	__u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static __u64 u64_at(const unsigned char *p)
{
	__u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int bp_mmap_feed__parse(const void *rec, size_t size, struct bp_proc_event *ev, __u64 *lost)
{
	const unsigned char *r = rec, *body = r + sizeof(struct perf_event_header);
	struct perf_event_header h;
	size_t len, max;

	memset(ev, 0, sizeof(*ev));
	if (size < sizeof(h) + SAMPLE_ID_SIZE)
		return -EINVAL;
	memcpy(&h, r, sizeof(h));
	if (h.size > size || h.size < sizeof(h) + SAMPLE_ID_SIZE)
		return -EINVAL;
	len = h.size - sizeof(h) - SAMPLE_ID_SIZE;
	ev->time_ns = u64_at(r + h.size - 8);
	switch (h.type) {
	case PERF_RECORD_MMAP2:
		if (len <= MMAP2_FILENAME)
			return -EINVAL;
		/* asked without build IDs: the union holds dev and inode */
		if (h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)
			return 0;
		ev->kind = BP_PROC_MMAP;
		ev->pid = (pid_t)u32_at(body);
		ev->start = u64_at(body + 8);
		ev->len = u64_at(body + 16);
		ev->pgoff = u64_at(body + 24);
		ev->dev_major = u32_at(body + 32);
		ev->dev_minor = u32_at(body + 36);
		ev->ino = u64_at(body + 40);
		/* NUL-terminated within its 8-byte padding */
		max = len - MMAP2_FILENAME;
		if (!memchr(body + MMAP2_FILENAME, 0, max))
			return -EINVAL;
		ev->path = (const char *)body + MMAP2_FILENAME;
		return ev->len ? 1 : 0;
	case PERF_RECORD_COMM:
		if (len < COMM_SIZE)
			return -EINVAL;
		if (!(h.misc & PERF_RECORD_MISC_COMM_EXEC))
			return 0;	/* a rename (prctl) */
		ev->kind = BP_PROC_EXEC;
		ev->pid = (pid_t)u32_at(body);
		return 1;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (len < TASK_SIZE)
			return -EINVAL;
		ev->pid = (pid_t)u32_at(body);
		ev->ppid = (pid_t)u32_at(body + 4);
		/* a thread's: its tid is not the process's */
		if (u32_at(body + 8) != (__u32)ev->pid)
			return 0;
		ev->kind = h.type == PERF_RECORD_FORK ? BP_PROC_FORK : BP_PROC_EXIT;
		return 1;
	case PERF_RECORD_LOST:
		if (len < LOST_SIZE)
			return -EINVAL;
		*lost += u64_at(body + 8);
		return 0;
	default:
		return 0;
	}
}

static int on_record(const void *rec, size_t size, void *ctx)
{
	struct bp_mmap_feed *f = ctx;
	struct bp_proc_event ev;
	int err;

	if (bp_mmap_feed__parse(rec, size, &ev, &f->lost) != 1 || ev.pid <= 0)
		return 0;
	err = bp_unwinder__proc_event(f->u, &ev);
	if (err == -ENOMEM)
		return err;
	f->given++;
	return 0;
}

int bp_mmap_feed__open(struct bp_mmap_feed **out)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = SAMPLE_TYPE,
		.sample_id_all = 1,
		/* executable mappings (no mmap_data), in MMAP2's form */
		.mmap = 1,
		.mmap2 = 1,
		.comm = 1,
		.comm_exec = 1,
		.task = 1,
		/* wake a poller when half full; the output reads them before
		 * each batch of samples anyway */
		.watermark = 1,
		.wakeup_watermark = (__u32)(BP_MMAP_FEED_PAGES * (page > 0 ? page : 4096) / 2),
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
	};
	struct bp_mmap_feed *f;
	int err;

	*out = NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	err = bp_sideband__open(&attr, BP_MMAP_FEED_PAGES, &f->sb);
	if (err) {
		free(f);
		return err;
	}
	*out = f;
	return 0;
}

void bp_mmap_feed__free(struct bp_mmap_feed *f)
{
	if (!f)
		return;
	bp_sideband__free(f->sb);
	free(f);
}

int bp_mmap_feed__read(struct bp_mmap_feed *f, struct bp_unwinder *u)
{
	struct timespec ts;
	int err;

	/* before the rings are looked at: what happened before now is in them */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	f->u = u;
	f->given = 0;
	err = bp_sideband__read(f->sb, on_record, f);
	f->u = NULL;
	if (err < 0)
		return err;
	f->read_ns = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	return f->given;
}

__u64 bp_mmap_feed__read_ns(const struct bp_mmap_feed *f)
{
	return f->read_ns;
}

__u64 bp_mmap_feed__lost(const struct bp_mmap_feed *f)
{
	return f->lost;
}

int bp_mmap_feed__fds(const struct bp_mmap_feed *f, const int **fds)
{
	return bp_sideband__fds(f->sb, fds);
}
