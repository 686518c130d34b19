// SPDX-License-Identifier: GPL-2.0
/*
 * Globals and statics of the argx target, in PIE and non-PIE builds: @var
 * and plain names, a function's static local, member chains from them,
 * and at a return probe (the load bias then comes from bpf_get_func_ip(),
 * ip being the caller's return address).
 */
#include "argx_report.h"

SEC("exec=" TARGET ";g=use_globals @g_counter s_val calls")
int g(void *ctx, int err, long counter, long s_val, long calls)
{
	REPORT(err, "globals", "g_counter=%ld s_val=%ld calls=%ld", counter, s_val, calls);
	return 0;
}

SEC("exec=" TARGET ";gr=use_globals%return $retval @g_counter calls")
int gr(void *ctx, int err, long ret, long counter, long calls)
{
	REPORT(err, "globals_ret", "retval=%ld g_counter=%ld calls=%ld", ret, counter, calls);
	return 0;
}

SEC("exec=" TARGET ";g2=ptr_bf @s_struct.b s_struct.p[0] g_vals[3]")
int g2(void *ctx, int err, long b, long p0, long v3)
{
	REPORT(err, "globals2", "b=%ld p0=%ld v3=%ld", b, p0, v3);
	return 0;
}

SEC("exec=" TARGET ";g3=ptr_bf g_ptr->y @s_struct.a")
int g3(void *ctx, int err, long y, long a)
{
	REPORT(err, "globals3", "y=%ld a=%ld", y, a);
	return 0;
}

/* other.c's s_val, not main.c's: the probed function's own file first */
SEC("exec=" TARGET ";o=other_get s_val")
int o(void *ctx, int err, long s_val)
{
	REPORT(err, "other", "s_val=%ld", s_val);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
