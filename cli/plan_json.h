/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A fetch plan's argument as JSON, for every --json output that shows one. */
#ifndef BPFPROBE_PLAN_JSON_H
#define BPFPROBE_PLAN_JSON_H

#include "prologue/plan.h"
#include "util/json.h"

/*
 * Writes f as an object (a value: write its key first when in an object):
 *   {"text": "s32 *(u32 *)(%rdi + 8) [user]",   bp_fetch__format()
 *    "base": "reg" | "const" | "addr" | "none",
 *    "reg": "rdi" (base reg; null otherwise), "add": 8,
 *    "anchor": null | {"addr": 5184, "kind": "ip" | "func_ip"}  (base addr:
 *        the load bias is the anchor's run-time address minus addr),
 *    "derefs": [{"off": 8, "user": true}, ...],  innermost first
 *    "size": 4, "signed": true,
 *    "bits": null | {"off": 3, "size": 5}}
 */
void bp_fetch__json(const struct bp_fetch *f, struct bp_json *j);

#endif /* BPFPROBE_PLAN_JSON_H */
