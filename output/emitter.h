/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The emitter: where the output channels (printk, ring buffers, perf
 * buffers, map dump) send what they read, printed in one of two forms,
 * text (text_out.h) or JSON Lines (json_out.h). One per bpfprobe_output
 * (output.c), which hands it to the channels it opens.
 */
#ifndef BPFPROBE_OUTPUT_EMITTER_H
#define BPFPROBE_OUTPUT_EMITTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "output/record.h"

struct bp_json;
struct bp_hist;
struct bp_stacks;

struct bp_emitter {
	FILE *out;		/* records */
	FILE *diag;		/* text mode's lost-record notes (stderr) */
	bool json;
	bool quiet_meta;
	struct bp_json *j;	/* json mode */
	/* where the values' stack ids are unwound; NULL: printed as numbers */
	struct bp_stacks *stacks;
	int werr;		/* the first write to out that failed: -errno */
	__u64 unwritten;	/* records and map entries not written since */
};

int bp_emitter__init(struct bp_emitter *em, FILE *out, bool json, bool quiet_meta);
void bp_emitter__fini(struct bp_emitter *em);
/*
 * Flushes out. Returns 0, or the first write that failed (a negative
 * errno): from then on nothing more is written to out, and what would
 * have been is counted in unwritten.
 */
int bp_emitter__flush(struct bp_emitter *em);

void bp_emit__printk(struct bp_emitter *em, const struct bp_printk_msg *m);
void bp_emit__record(struct bp_emitter *em, const struct bp_record *r);
void bp_emit__lost(struct bp_emitter *em, const struct bp_lost *l);
/*
 * values: the value, or for a per-CPU map that could not be summed one
 * value per CPU (nvalues > 1).
 */
void bp_emit__map_begin(struct bp_emitter *em, const struct bp_map_head *h);
void bp_emit__map_entry(struct bp_emitter *em, const struct bp_map_head *h,
			const struct bp_typed *key, const struct bp_typed *values, int nvalues);
/* An entry whose value is a histogram (output/hist.h). */
void bp_emit__map_hist(struct bp_emitter *em, const struct bp_map_head *h,
		       const struct bp_typed *key, const struct bp_hist *hist);
void bp_emit__map_end(struct bp_emitter *em, const struct bp_map_head *h, size_t nentries);

#endif /* BPFPROBE_OUTPUT_EMITTER_H */
