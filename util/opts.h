/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the public API's functions share, the way libbpf does it: options
 * structs that grow at their end (a leading sz field says how much the
 * caller knows), and errno set by every int-returning call that fails.
 */
#ifndef BPFPROBE_OPTS_H
#define BPFPROBE_OPTS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

/* A field is there when the caller's sz covers it (an older caller's
 * struct is shorter). */
#define OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= offsetof(typeof(*(opts)), field) + sizeof((opts)->field))

#define BP_OFFSETOFEND(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/*
 * opts (of struct TYPE, whose last known field TYPE__last_field names) is
 * NULL, or says a size of at least its sz field, and every byte past the
 * fields this library knows is zero: a newer caller's option we cannot
 * honour is refused, not ignored. False after a message naming TYPE.
 */
#define OPTS_VALID(opts, type) \
	bp_opts__valid((opts), (opts) ? (opts)->sz : 0, \
		       BP_OFFSETOFEND(struct type, type##__last_field), #type)

bool bp_opts__valid(const void *opts, size_t sz, size_t known, const char *type);

/* ret, with errno = -ret when it is an error (as libbpf_err()). */
static inline int bp_api_err(int ret)
{
	if (ret < 0)
		errno = -ret;
	return ret;
}

#endif /* BPFPROBE_OPTS_H */
