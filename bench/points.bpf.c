// SPDX-License-Identifier: GPL-2.0
/*
 * Load+attach benchmark objects, built WITHOUT -g (perf 6.1 cannot load
 * objects with line info) from one source:
 *   -DPOINTS_ONE       one program on fd_00: one probe point
 *   -DPOINTS_DISTINCT  64 programs on fd_00..fd_77: 64 distinct functions
 *   -DPOINTS_STATIC    one program on copy_fn: 64 static copies, 64 points
 * Every dereference says @user: perf needs it for exec= probes.
 * APP is the benchmark application's absolute path.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* named: perf calls p->v "v", which clashes with the parameter v */
#define ARGS " pv=p->v@user n v"
#define PROG(name, func)						\
	SEC("exec=" APP ";" #name "=" #func ARGS)			\
	int name(void *ctx, int err, long a, long b, long c)		\
	{								\
		return 0;						\
	}

#if defined(POINTS_ONE)
PROG(p1, fd_00)
#elif defined(POINTS_DISTINCT)
#define P(k) PROG(d##k, fd_##k)
#define X8(a) P(a##0) P(a##1) P(a##2) P(a##3) P(a##4) P(a##5) P(a##6) P(a##7)
X8(0) X8(1) X8(2) X8(3) X8(4) X8(5) X8(6) X8(7)
#elif defined(POINTS_STATIC)
PROG(s64, copy_fn)
#endif

char LICENSE[] SEC("license") = "GPL";
