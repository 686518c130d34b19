// SPDX-License-Identifier: GPL-2.0
/* perf's fetch arguments on the fetch target built with -g: those that need
 * no DWARF, and $argN typed by its parameter (sign extension, members). */
#include "fetch_progs.h"

SEC("exec=" TARGET ";typed=fa_node $arg1->val $arg1->next->key $arg2")
int typed(void *ctx, int err, long val, long nextkey, long k)
{
	REPORT(err, "typed", "val=%ld nextkey=%ld k=%ld", val, nextkey, k);
	return 0;
}

SEC("exec=" TARGET ";typed8=fa_eight $arg3 $arg4 $arg5")
int typed8(void *ctx, int err, long a3, long a4, unsigned long a5)
{
	REPORT(err, "typed8", "a3=%ld a4=%ld a5=%lu", a3, a4, a5);
	return 0;
}
