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
	/* after a failed write, a map's JSON may have been left open */
	if (em->j && bp_json__free(em->j) == -EINVAL && !em->werr)
		bp_err("bpfprobe: internal error: malformed JSON output\n");
	em->j = NULL;
	if (em->out)
		fflush(em->out);
}

/*
 * Around each write to out: once one failed (a full disk, a pipe nobody
 * reads) nothing more is written, and what would have been is counted.
 */
static bool can_write(struct bp_emitter *em, bool counted)
{
	if (!em->werr) {
		errno = 0;
		return true;
	}
	em->unwritten += counted;
	return false;
}

static void wrote(struct bp_emitter *em, bool counted)
{
	if (em->werr || !ferror(em->out))
		return;
	/* errno is the failed write's: stdio sets nothing after it */
	em->werr = errno ? -errno : -EIO;
	em->unwritten += counted;
}

int bp_emitter__flush(struct bp_emitter *em)
{
	if (can_write(em, false) && fflush(em->out))
		wrote(em, false);
	return em->werr;
}

void bp_emit__printk(struct bp_emitter *em, const struct bp_printk_msg *m)
{
	if (!can_write(em, true))
		return;
	if (em->json)
		bp_jsonout__printk(em->j, m);
	else
		bp_text__printk(em->out, m, em->quiet_meta);
	wrote(em, true);
}

void bp_emit__record(struct bp_emitter *em, const struct bp_record *r)
{
	struct bp_record rs = *r;

	if (!can_write(em, true))
		return;
	rs.val.stacks = em->stacks;
	if (em->json)
		bp_jsonout__record(em->j, &rs);
	else
		bp_text__record(em->out, &rs, em->quiet_meta);
	wrote(em, true);
}

void bp_emit__lost(struct bp_emitter *em, const struct bp_lost *l)
{
	if (!em->json)
		bp_text__lost(em->diag, l);
	else if (can_write(em, false)) {
		bp_jsonout__lost(em->j, l);
		wrote(em, false);
	}
}

void bp_emit__map_begin(struct bp_emitter *em, const struct bp_map_head *h)
{
	if (em->json && can_write(em, false)) {
		bp_jsonout__map_begin(em->j, h);
		wrote(em, false);
	}
}

/* Per-CPU values beyond this many are printed without their stacks. */
#define STACK_VALUES 64

void bp_emit__map_entry(struct bp_emitter *em, const struct bp_map_head *h,
			const struct bp_typed *key, const struct bp_typed *values, int nvalues)
{
	struct bp_typed ks = *key, vs[STACK_VALUES];

	if (!can_write(em, true))
		return;
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
	wrote(em, true);
}

void bp_emit__map_hist(struct bp_emitter *em, const struct bp_map_head *h,
		       const struct bp_typed *key, const struct bp_hist *hist)
{
	struct bp_typed ks = *key;

	if (!can_write(em, true))
		return;
	ks.stacks = em->stacks;
	if (em->json)
		bp_jsonout__map_hist(em->j, &ks, hist);
	else
		bp_text__map_hist(em->out, h, &ks, hist);
	wrote(em, true);
}

void bp_emit__map_end(struct bp_emitter *em, const struct bp_map_head *h, size_t nentries)
{
	if (em->json && can_write(em, false)) {
		bp_jsonout__map_end(em->j);
		wrote(em, false);
	}
}
