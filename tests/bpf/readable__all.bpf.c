// SPDX-License-Identifier: GPL-2.0
/*
 * E2E programs for the readable target (tests/targets/readable): each
 * prints "GOT what ..." in the form of the target's "TRUTH what ..."
 * lines (tests/e2e/readable.sh compares them): what every build keeps.
 * What some builds legitimately drop is in readable__tls.bpf.c,
 * readable__more.bpf.c and readable__rotl.bpf.c.
 */
#include "argx_report.h"

/* entry values away from the entry: a companion probe at the entry */
SEC("exec=" TARGET ";ev=ev_after_call;sink2=1;* a b")
int ev(void *ctx, int err, long a, long b)
{
	REPORT(err, "ev", "%ld %ld", a, b);
	return 0;
}

/* attached mid-call: the entry value is unknown, the fetch fails */
SEC("exec=" TARGET ";blocked=ev_blocked;sink2=4;* a")
int blocked(void *ctx, int err, long a)
{
	REPORT(err, "blocked", "%ld", a);
	return 0;
}

SEC("exec=" TARGET ";rec=ev_rec;sink2=2;* n")
int rec(void *ctx, int err, long n)
{
	REPORT(err, "rec", "%ld", n);
	return 0;
}

/* errno at a return of libc's open: libc's TLS block from its GOT */
SEC("exec=libc.so.6;errno=open%return $retval errno")
int eno(void *ctx, int err, long ret, long e)
{
	if (err)
		bpf_printk("ERR errno err=%d", err);
	else if (ret == -1)
		bpf_printk("GOT errno %ld %ld", ret, e);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
