// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* When the output reads its ring buffers (output/batch.c). */
#include "output/batch.h"
#include "tests/unit/test.h"

#define US 1000ULL
#define MS (1000 * US)

/* n reads with records, dt apart, starting at *t */
static void reads(struct bp_batch *b, uint64_t *t, int n, uint64_t dt, size_t bytes,
		  size_t cap)
{
	for (int i = 0; i < n; i++) {
		*t += dt;
		bp_batch__read(b, *t, 1, bytes, cap);
	}
}

static void test_rare_records_stay_in_epoll(void)
{
	struct bp_batch b = {};
	uint64_t t = 0;

	reads(&b, &t, 20, 10 * MS, 64, 1 << 20);
	CHECK_INT(b.interval_ns, 0);
}

static void test_stream_batches_then_ends(void)
{
	struct bp_batch b = {};
	uint64_t t = 0;

	reads(&b, &t, BP_BATCH_QUICK_READS, 30 * US, 72, 1 << 20);
	CHECK_INT(b.interval_ns, BP_BATCH_START_NS);
	/* small batches: the interval grows to its bound */
	reads(&b, &t, 10, MS, 72 * 30, 1 << 20);
	CHECK_INT(b.interval_ns, BP_BATCH_MAX_NS);
	/* a pause of two reads keeps batching, the third ends it */
	bp_batch__read(&b, t += 2 * MS, 0, 0, 1 << 20);
	bp_batch__read(&b, t += 2 * MS, 0, 0, 1 << 20);
	CHECK_INT(b.interval_ns, BP_BATCH_MAX_NS);
	bp_batch__read(&b, t += 2 * MS, 1, 72, 1 << 20);
	bp_batch__read(&b, t += 2 * MS, 0, 0, 1 << 20);
	bp_batch__read(&b, t += 2 * MS, 0, 0, 1 << 20);
	bp_batch__read(&b, t += 2 * MS, 0, 0, 1 << 20);
	CHECK_INT(b.interval_ns, 0);
	/* and a new stream needs its quick reads again */
	reads(&b, &t, BP_BATCH_QUICK_READS - 1, 30 * US, 72, 1 << 20);
	CHECK_INT(b.interval_ns, 0);
}

/* A batch that fills a quarter of the smallest ring halves the interval,
 * down to its floor: waiting never risks a full ring. */
static void test_full_batches_shorten_the_wait(void)
{
	struct bp_batch b = {};
	uint64_t t = 0;
	size_t cap = 64 * 1024;

	reads(&b, &t, BP_BATCH_QUICK_READS, 30 * US, 72, cap);
	reads(&b, &t, 1, MS, cap / 2, cap);
	CHECK_INT(b.interval_ns, BP_BATCH_START_NS / 2);
	reads(&b, &t, 20, 100 * US, cap / 2, cap);
	CHECK_INT(b.interval_ns, BP_BATCH_MIN_NS);
	/* a middling batch neither grows nor shrinks it */
	reads(&b, &t, 3, 100 * US, cap / 8, cap);
	CHECK_INT(b.interval_ns, BP_BATCH_MIN_NS);
}

int main(void)
{
	RUN(test_rare_records_stay_in_epoll);
	RUN(test_stream_batches_then_ends);
	RUN(test_full_batches_shorten_the_wait);
	return TEST_EXIT();
}
