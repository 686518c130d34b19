/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * When to read: wait in epoll while records are rare, read in batches on
 * a short timer while they stream. A ring buffer wakes its reader (an
 * irq_work on the producing CPU, then a wakeup across CPUs) whenever a
 * record is committed while the reader has caught up, which at full speed
 * is every record: that wakeup costs the probed program more than the
 * record itself. A reader that lets records gather for a moment is caught
 * up only once per batch, so the producer pays one wakeup per batch.
 *
 * Pure: the caller says what each read found and when.
 */
#ifndef BPFPROBE_BATCH_H
#define BPFPROBE_BATCH_H

#include <stddef.h>
#include <stdint.h>

/* reads this close together count as a stream */
#define BP_BATCH_QUICK_NS	(1000 * 1000ULL)
/* this many of them in a row start batching */
#define BP_BATCH_QUICK_READS	4
#define BP_BATCH_START_NS	(1000 * 1000ULL)
#define BP_BATCH_MIN_NS		(50 * 1000ULL)
#define BP_BATCH_MAX_NS		(2 * 1000 * 1000ULL)
/* batching ends after this many empty reads in a row */
#define BP_BATCH_EMPTY_READS	3

struct bp_batch {
	/* 0: idle, wait in epoll; else read again after this long */
	uint64_t interval_ns;
	uint64_t last_read_ns;
	int quick;		/* reads in a row that came quickly */
	int empty;		/* batched reads in a row that found nothing */
};

/*
 * A read at now_ns found records (bytes of them) in buffers whose smallest
 * holds capacity bytes (0: unknown). Updates when to read next: batching
 * starts after a few quick reads, its interval halves when a batch filled
 * a quarter of the smallest buffer (so nothing is lost while waiting) and
 * grows back while batches stay small, and it ends after a few empty
 * reads (a stream that pauses for a moment stays batched).
 */
void bp_batch__read(struct bp_batch *b, uint64_t now_ns, int records, size_t bytes,
		    size_t capacity);

#endif /* BPFPROBE_BATCH_H */
