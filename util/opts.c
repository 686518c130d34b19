// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Options structs checked as libbpf checks its own (see opts.h). */
#include "util/log.h"
#include "util/opts.h"

bool bp_opts__valid(const void *opts, size_t sz, size_t known, const char *type)
{
	const unsigned char *bytes = opts;

	if (!opts)
		return true;
	if (sz < sizeof(size_t)) {
		bp_err("struct %s: sz %zu is smaller than the sz field itself\n", type, sz);
		return false;
	}
	for (size_t i = known; i < sz; i++) {
		if (bytes[i]) {
			bp_err("struct %s: byte %zu is not zero, but this library knows the struct only up to byte %zu (built against a newer bpfprobe?)\n",
			       type, i, known);
			return false;
		}
	}
	return true;
}
