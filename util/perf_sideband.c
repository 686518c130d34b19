// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Per-CPU perf side-band rings read in time order (perf_sideband.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "util/grow.h"
#include "util/perf_sideband.h"

struct ring {
	void *base;		/* the control page, then the data */
	size_t size;		/* the whole mapping */
};

/* A record taken off its ring: where its copy is, and its order. */
struct taken {
	__u64 time;
	size_t off, size;	/* in the copies */
	int ring;
	size_t seq;		/* in its ring */
};

struct bp_sideband {
	struct ring *rings;
	int *fds;
	int n;
	/* from the end of a record to its time */
	size_t time_from_end;
	unsigned char *copies;	/* the records of one read */
	size_t ncopies, copies_cap;
	struct taken *taken;
	size_t ntaken, taken_cap;
};

/* Where the time is in a sample_id (perf_event.h: pid/tid, time, id,
 * stream_id, cpu/res, identifier), counted from its end; 0 without one. */
static size_t time_from_end(__u64 type)
{
	size_t after = 8;

	if (!(type & PERF_SAMPLE_TIME))
		return 0;
	if (type & PERF_SAMPLE_ID)
		after += 8;
	if (type & PERF_SAMPLE_STREAM_ID)
		after += 8;
	if (type & PERF_SAMPLE_CPU)
		after += 8;
	if (type & PERF_SAMPLE_IDENTIFIER)
		after += 8;
	return after;
}

void bp_sideband__free(struct bp_sideband *sb)
{
	int i;

	if (!sb)
		return;
	for (i = 0; i < sb->n; i++) {
		munmap(sb->rings[i].base, sb->rings[i].size);
		close(sb->fds[i]);
	}
	free(sb->rings);
	free(sb->fds);
	free(sb->copies);
	free(sb->taken);
	free(sb);
}

int bp_sideband__open(const struct perf_event_attr *attr, size_t pages, struct bp_sideband **out)
{
	long page = sysconf(_SC_PAGESIZE);
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	struct bp_sideband *sb;
	int cpu, fd, err = 0;
	void *base;

	*out = NULL;
	if (!attr->sample_id_all || !time_from_end(attr->sample_type) || !pages ||
	    (pages & (pages - 1)) || ncpus <= 0 || page <= 0)
		return -EINVAL;
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		return -ENOMEM;
	sb->time_from_end = time_from_end(attr->sample_type);
	sb->rings = calloc(ncpus, sizeof(*sb->rings));
	sb->fds = calloc(ncpus, sizeof(*sb->fds));
	if (!sb->rings || !sb->fds) {
		bp_sideband__free(sb);
		return -ENOMEM;
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		fd = syscall(__NR_perf_event_open, attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			err = -errno;
			/* a CPU that is not online */
			if (err == -ENODEV || (err == -EINVAL && sb->n)) {
				err = 0;
				continue;
			}
			break;
		}
		base = mmap(NULL, (pages + 1) * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (base == MAP_FAILED) {
			err = -errno;
			close(fd);
			break;
		}
		sb->rings[sb->n] = (struct ring){ .base = base, .size = (pages + 1) * page };
		sb->fds[sb->n++] = fd;
	}
	if (!err && !sb->n)
		err = -ENODEV;
	if (err) {
		bp_sideband__free(sb);
		return err;
	}
	*out = sb;
	return 0;
}

int bp_sideband__fds(const struct bp_sideband *sb, const int **fds)
{
	*fds = sb->fds;
	return sb->n;
}

/* Copies one record (size bytes at off of a ring of data bytes). */
static int take(struct bp_sideband *sb, const unsigned char *data, __u64 size, __u64 off,
		size_t rec_size, int ring, size_t seq)
{
	size_t first = size - off < rec_size ? size - off : rec_size;
	struct taken *t;
	__u64 time;

	if (rec_size < sizeof(struct perf_event_header) + sb->time_from_end)
		return 0;
	if (bp_grow((void **)&sb->taken, sb->ntaken, &sb->taken_cap, sizeof(*sb->taken), 64))
		return -ENOMEM;
	while (sb->copies_cap - sb->ncopies < rec_size) {
		size_t cap = sb->copies_cap ? sb->copies_cap * 2 : 16384;
		unsigned char *c = realloc(sb->copies, cap);

		if (!c)
			return -ENOMEM;
		sb->copies = c;
		sb->copies_cap = cap;
	}
	memcpy(sb->copies + sb->ncopies, data + off, first);
	memcpy(sb->copies + sb->ncopies + first, data, rec_size - first);
	memcpy(&time, sb->copies + sb->ncopies + rec_size - sb->time_from_end, sizeof(time));
	t = &sb->taken[sb->ntaken++];
	*t = (struct taken){ .time = time, .off = sb->ncopies, .size = rec_size, .ring = ring,
			     .seq = seq };
	sb->ncopies += rec_size;
	return 0;
}

/* Takes every complete record of ring i off it. */
static int drain(struct bp_sideband *sb, int i)
{
	struct perf_event_mmap_page *mp = sb->rings[i].base;
	const unsigned char *data = (const unsigned char *)mp + mp->data_offset;
	__u64 size = mp->data_size, head, tail;
	size_t seq = 0;
	int err = 0;

	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	tail = mp->data_tail;
	while (tail < head && !err) {
		struct perf_event_header h;
		__u64 off = tail % size;

		/* 8-aligned: a header never wraps */
		memcpy(&h, data + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail)
			break;
		err = take(sb, data, size, off, h.size, i, seq++);
		if (!err)
			tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	return err;
}

static int by_time(const void *a, const void *b)
{
	const struct taken *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->ring != y->ring)
		return x->ring < y->ring ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int bp_sideband__read(struct bp_sideband *sb, int (*cb)(const void *rec, size_t size, void *ctx),
		      void *ctx)
{
	size_t k;
	int i, err = 0;

	sb->ncopies = sb->ntaken = 0;
	for (i = 0; i < sb->n && !err; i++)
		err = drain(sb, i);
	if (sb->ntaken > 1)
		qsort(sb->taken, sb->ntaken, sizeof(*sb->taken), by_time);
	for (k = 0; k < sb->ntaken && !err; k++)
		err = cb(sb->copies + sb->taken[k].off, sb->taken[k].size, ctx);
	return err ? err : (int)sb->ntaken;
}
