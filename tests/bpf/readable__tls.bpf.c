// SPDX-License-Identifier: GPL-2.0
/*
 * Thread-locals of the executable, in the main thread and two others (the
 * readable target). clang's LTO leaves no trace of tls_counter: no
 * location, no symbol (tests/e2e/readable.sh does not load it there).
 */
#include "argx_report.h"

SEC("exec=" TARGET ";tls=tls_probe tls_counter tag")
int tls(void *ctx, int err, long v, long tag)
{
	REPORT(err, "tls", "%ld %ld", v, tag);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
