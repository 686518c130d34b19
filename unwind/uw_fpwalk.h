/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The frames of a sample taken by frame pointers (ustack=fp,
 * util/stack_sample.h), from the kernel's return addresses, each caller
 * trusted only where the CFI says the frame-pointer chain holds it, so
 * that no frame is invented (pure; uw_user.c asks the CFI):
 * - frame 0 whose CFA is rsp + 8 (a function's entry, or a leaf that
 *   never moves rsp) has its caller's return address at [rsp], which the
 *   kernel's walk from rbp misses: Linux 6.11+ stores it as the walk's
 *   second address when the uprobe sits on push %rbp or endbr64, else it
 *   is inserted here (when whether the kernel stored it is unknown: unless
 *   the walk's second address is it already);
 * - frame k's caller is the walk's next address only when frame k's
 *   function sets its CFA to rbp + 16 at its address; elsewhere the stack
 *   ends there (it keeps no frame pointer);
 * - a frame whose CFI marks its return address undefined is the last.
 */
#ifndef BPFPROBE_UW_FPWALK_H
#define BPFPROBE_UW_FPWALK_H

#include <stdbool.h>
#include <stdint.h>

#include "util/cfi_fp.h"
#include "util/stack_sample.h"

/* The CFA rule at lookup (a frame's address, minus 1 for a return
 * address); BP_CFA_NONE when no module or CFI covers it. */
typedef enum bp_cfa_rule (*uw_fp_rule_fn)(void *ctx, uint64_t lookup, bool *outermost);

enum uw_fp_end {
	UW_FP_END,		/* the outermost frame */
	UW_FP_NO_CFI,		/* the last frame's address: no module or CFI */
	UW_FP_NO_FP,		/* the last frame keeps no frame pointer there */
	UW_FP_NO_TOP,		/* frame 0 at rsp + 8, and [rsp] unread */
	UW_FP_WALK_END,		/* the kernel's walk has no more addresses */
	UW_FP_LIMIT,		/* max frames */
};

struct uw_fp_walk {
	uint64_t pcs[BP_STACK_MAX_IPS + 1];	/* the frames' addresses, innermost first */
	int n;
	enum uw_fp_end end;	/* why there are no more */
};

/*
 * The frames of ips[0..nips) (ips[0] the sampled PC, nips >= 1) with top
 * the 8 bytes at [rsp] (0: unread), at most max (<= BP_STACK_MAX_IPS + 1).
 * top_given: whether the kernel stored top as ips[1] (1: yes, believed
 * only when ips[1] is top; 0: no; -1: unknown, then ips[1] == top says).
 */
void uw_fp__frames(const uint64_t *ips, int nips, uint64_t top, int top_given, int max,
		   uw_fp_rule_fn rule, void *ctx, struct uw_fp_walk *out);

#endif /* BPFPROBE_UW_FPWALK_H */
