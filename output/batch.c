// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* When to read the ring buffers (batch.h). */
#include "output/batch.h"

static void idle(struct bp_batch *b)
{
	b->interval_ns = 0;
	b->quick = 0;
	b->empty = 0;
}

void bp_batch__read(struct bp_batch *b, uint64_t now_ns, int records, size_t bytes,
		    size_t capacity)
{
	uint64_t since = now_ns - b->last_read_ns;

	b->last_read_ns = now_ns;
	if (records <= 0) {
		if (!b->interval_ns || ++b->empty >= BP_BATCH_EMPTY_READS)
			idle(b);
		return;
	}
	b->empty = 0;
	if (!b->interval_ns) {
		b->quick = since < BP_BATCH_QUICK_NS ? b->quick + 1 : 0;
		if (b->quick >= BP_BATCH_QUICK_READS)
			b->interval_ns = BP_BATCH_START_NS;
		return;
	}
	if (capacity && bytes > capacity / 4) {
		b->interval_ns /= 2;
		if (b->interval_ns < BP_BATCH_MIN_NS)
			b->interval_ns = BP_BATCH_MIN_NS;
	} else if ((!capacity || bytes < capacity / 16) && b->interval_ns < BP_BATCH_MAX_NS) {
		b->interval_ns *= 2;
		if (b->interval_ns > BP_BATCH_MAX_NS)
			b->interval_ns = BP_BATCH_MAX_NS;
	}
}
