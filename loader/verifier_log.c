// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "loader/verifier_log.h"

/* What the verifier writes that is not a reason: statistics, the
 * instructions it walks ("7: (85) call ..."), register states, source
 * lines (";"), and libbpf's frame. */
static bool is_noise(const char *line, size_t n)
{
	static const char *const prefixes[] = {
		"processed ", "verification time", "stack depth", "-- ", ";", "from ",
		"func#", "mark_precise", "last_idx", "parent ", "regs=",
		"Validating ", "old state", "cur state", "Func#", "Global function",
	};
	size_t i = 0;

	while (i < n && isdigit((unsigned char)line[i]))
		i++;
	/* "7: (85) call bpf_trace_printk#6" or "0: R1=ctx() R10=fp0" */
	if (i && i < n && line[i] == ':')
		return true;
	for (size_t k = 0; k < sizeof(prefixes) / sizeof(prefixes[0]); k++)
		if (n >= strlen(prefixes[k]) && !strncmp(line, prefixes[k], strlen(prefixes[k])))
			return true;
	return false;
}

size_t bp_verifier_log__reason(const char *log, char *buf, size_t len)
{
	const char *best = NULL, *p = log;
	size_t best_n = 0;

	if (len)
		buf[0] = '\0';
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		if (n && !is_noise(p, n)) {
			best = p;
			best_n = n;
		}
		p = nl ? nl + 1 : NULL;
	}
	if (!best || !len)
		return 0;
	if (best_n >= len)
		best_n = len - 1;
	memcpy(buf, best, best_n);
	buf[best_n] = '\0';
	return best_n;
}
