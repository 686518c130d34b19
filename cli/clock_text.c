// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Clocks and the times the monitors print (clock_text.h). */
#include <stdio.h>

#include "cli/clock_text.h"

uint64_t bp_clock__ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void bp_clock__text(uint64_t mono, uint64_t mono_to_real, bool iso, char *buf, size_t len)
{
	uint64_t ns = mono + mono_to_real;
	time_t t = ns / 1000000000ull;
	struct tm tm;
	size_t n;

	if (iso)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	n = strftime(buf, len, iso ? "%Y-%m-%dT%H:%M:%S" : "%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%06u%s", (unsigned)(ns / 1000 % 1000000), iso ? "Z" : "");
}
