// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A frame-pointer walk's frames, checked (uw_fpwalk.h). */
#include "unwind/uw_fpwalk.h"

void uw_fp__frames(const uint64_t *ips, int nips, uint64_t top, int top_given, int max,
		   uw_fp_rule_fn rule, void *ctx, struct uw_fp_walk *out)
{
	int next_ip = 1;	/* the walk's address the next caller may be */
	enum bp_cfa_rule r;
	bool outermost;
	uint64_t pc, caller;

	if (max > BP_STACK_MAX_IPS + 1)
		max = BP_STACK_MAX_IPS + 1;
	out->n = 0;
	out->end = UW_FP_WALK_END;
	if (nips < 1 || max < 1)
		return;
	pc = ips[0];
	out->pcs[out->n++] = pc;
	for (;;) {
		/* a return address is looked up in its call */
		r = rule(ctx, out->n == 1 ? pc : pc - 1, &outermost);
		if (r == BP_CFA_NONE) {
			out->end = UW_FP_NO_CFI;
			return;
		}
		if (outermost) {
			out->end = UW_FP_END;
			return;
		}
		if (out->n == 1 && r == BP_CFA_ENTRY) {
			/* the return address is at [rsp]; rbp is still the caller's */
			if (!top) {
				out->end = UW_FP_NO_TOP;
				return;
			}
			caller = top;
			/* the kernel gave it (6.11+): the walk from rbp follows */
			if (top_given && nips > 1 && ips[1] == top)
				next_ip = 2;
		} else if (r == BP_CFA_RBP) {
			if (next_ip >= nips || !ips[next_ip]) {
				out->end = UW_FP_WALK_END;
				return;
			}
			caller = ips[next_ip++];
		} else {
			out->end = UW_FP_NO_FP;
			return;
		}
		if (out->n == max) {
			out->end = UW_FP_LIMIT;
			return;
		}
		out->pcs[out->n++] = caller;
		pc = caller;
	}
}
