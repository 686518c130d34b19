// SPDX-License-Identifier: GPL-2.0
/* Globals and statics of a shared library (TARGET.so), at entry and return. */
#include "argx_report.h"

SEC("exec=" TARGET ".so;lib=lib_bump n @lib_counter lib_static")
int lib(void *ctx, int err, long n, long g, long s)
{
	REPORT(err, "lib", "n=%ld g=%ld s=%ld", n, g, s);
	return 0;
}

SEC("exec=" TARGET ".so;lobj=lib_bump lib_obj.b lib_obj.a")
int lobj(void *ctx, int err, long b, long a)
{
	REPORT(err, "lib_obj", "b=%ld a=%ld", b, a);
	return 0;
}

SEC("exec=" TARGET ".so;libr=lib_bump%return $retval @lib_counter lib_calls")
int libr(void *ctx, int err, long ret, long g, long calls)
{
	REPORT(err, "lib_ret", "retval=%ld g=%ld calls=%ld", ret, g, calls);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
