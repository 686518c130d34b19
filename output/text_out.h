/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The text form of the output (text_out.c): printk lines, records, lost
 * record notes and map entries, written to a stdio stream.
 */
#ifndef BPFPROBE_TEXT_OUT_H
#define BPFPROBE_TEXT_OUT_H

#include <stdbool.h>
#include <stdio.h>
#include "output/record.h"

struct bp_hist;

/* A value by its BTF type (or hex bytes), as records and map entries print it. */
void bp_text__value(FILE *f, const struct bp_typed *v);
void bp_text__printk(FILE *f, const struct bp_printk_msg *m, bool quiet_meta);
void bp_text__record(FILE *f, const struct bp_record *r, bool quiet_meta);
void bp_text__lost(FILE *f, const struct bp_lost *l);
void bp_text__map_entry(FILE *f, const struct bp_map_head *h, const struct bp_typed *key,
			const struct bp_typed *values, int nvalues);
/* @MAP[key]: then the histogram's lines and an empty line. */
void bp_text__map_hist(FILE *f, const struct bp_map_head *h, const struct bp_typed *key,
		       const struct bp_hist *hist);

#endif /* BPFPROBE_TEXT_OUT_H */
