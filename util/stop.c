// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The caller's stop flag (stop.h, bpfprobe_set_stop_flag). */
#include <stddef.h>
#include <bpfprobe/bpfprobe.h>

#include "util/stop.h"

/* set before other threads use the library, as the print callback is */
static const volatile sig_atomic_t *stop_flag;

void bp_stop__set_flag(const volatile sig_atomic_t *flag)
{
	stop_flag = flag;
}

bool bp_stop__requested(void)
{
	return stop_flag && *stop_flag;
}

bool bp_stop__every(unsigned int *counter)
{
	return !(++*counter & 255) && bp_stop__requested();
}

BPFPROBE_API void bpfprobe_set_stop_flag(const volatile sig_atomic_t *flag)
{
	bp_stop__set_flag(flag);
}
