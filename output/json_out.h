/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The JSON Lines form of the output (json_out.c, --json): one object per
 * printk line, record, lost count and dumped map, written through a
 * bp_json writer (util/json.h).
 */
#ifndef BPFPROBE_JSON_OUT_H
#define BPFPROBE_JSON_OUT_H

#include "output/record.h"

struct bp_json;
struct bp_hist;

/* A value by its BTF type (or a hex string), as a JSON value. */
void bp_jsonout__value(struct bp_json *j, const struct bp_typed *v);
void bp_jsonout__printk(struct bp_json *j, const struct bp_printk_msg *m);
void bp_jsonout__record(struct bp_json *j, const struct bp_record *r);
void bp_jsonout__lost(struct bp_json *j, const struct bp_lost *l);
void bp_jsonout__map_begin(struct bp_json *j, const struct bp_map_head *h);
void bp_jsonout__map_entry(struct bp_json *j, const struct bp_typed *key,
			   const struct bp_typed *values, int nvalues);
/* {"key": K, "hist": [{"min": lo, "max": hi, "count": n}, ...]} */
void bp_jsonout__map_hist(struct bp_json *j, const struct bp_typed *key,
			  const struct bp_hist *hist);
void bp_jsonout__map_end(struct bp_json *j);

#endif /* BPFPROBE_JSON_OUT_H */
