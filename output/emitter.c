// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The emitter: each call goes to the text form (text_out.c) or to the
 * JSON Lines form (json_out.c), as the emitter was set up.
 */
#include <errno.h>
#include <string.h>
#include "output/emitter.h"
#include "output/json_out.h"
#include "output/text_out.h"
#include "util/json.h"
#include "util/log.h"

int bp_emitter__init(struct bp_emitter *em, FILE *out, bool json, bool quiet_meta)
{
	memset(em, 0, sizeof(*em));
	em->out = out;
	em->diag = stderr;
	em->json = json;
	em->quiet_meta = quiet_meta;
	if (json) {
		em->j = bp_json__new(out, NULL);
		if (!em->j)
			return -ENOMEM;
	}
	return 0;
}

void bp_emitter__fini(struct bp_emitter *em)
{
	if (em->j && bp_json__free(em->j) == -EINVAL)
		bp_err("bpfprobe: internal error: malformed JSON output\n");
	em->j = NULL;
	if (em->out)
		fflush(em->out);
}

void bp_emit__printk(struct bp_emitter *em, const struct bp_printk_msg *m)
{
	if (em->json)
		bp_jsonout__printk(em->j, m);
	else
		bp_text__printk(em->out, m, em->quiet_meta);
}

void bp_emit__record(struct bp_emitter *em, const struct bp_record *r)
{
	struct bp_record rs = *r;

	rs.val.stacks = em->stacks;
	if (em->json)
		bp_jsonout__record(em->j, &rs);
	else
		bp_text__record(em->out, &rs, em->quiet_meta);
}

void bp_emit__lost(struct bp_emitter *em, const struct bp_lost *l)
{
	if (em->json)
		bp_jsonout__lost(em->j, l);
	else
		bp_text__lost(em->diag, l);
}

void bp_emit__map_begin(struct bp_emitter *em, const struct bp_map_head *h)
{
	if (em->json)
		bp_jsonout__map_begin(em->j, h);
}

/* Per-CPU values beyond this many are printed without their stacks. */
#define STACK_VALUES 64

void bp_emit__map_entry(struct bp_emitter *em, const struct bp_map_head *h,
			const struct bp_typed *key, const struct bp_typed *values, int nvalues)
{
	struct bp_typed ks = *key, vs[STACK_VALUES];

	ks.stacks = em->stacks;
	if (nvalues <= STACK_VALUES) {
		for (int i = 0; i < nvalues; i++) {
			vs[i] = values[i];
			vs[i].stacks = em->stacks;
		}
		values = vs;
	}
	if (em->json)
		bp_jsonout__map_entry(em->j, &ks, values, nvalues);
	else
		bp_text__map_entry(em->out, h, &ks, values, nvalues);
}

void bp_emit__map_hist(struct bp_emitter *em, const struct bp_map_head *h,
		       const struct bp_typed *key, const struct bp_hist *hist)
{
	struct bp_typed ks = *key;

	ks.stacks = em->stacks;
	if (em->json)
		bp_jsonout__map_hist(em->j, &ks, hist);
	else
		bp_text__map_hist(em->out, h, &ks, hist);
}

void bp_emit__map_end(struct bp_emitter *em, const struct bp_map_head *h, size_t nentries)
{
	if (em->json)
		bp_jsonout__map_end(em->j);
}
