/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef BPFPROBE_MONITOR_MAP_H
#define BPFPROBE_MONITOR_MAP_H

#include <stdbool.h>

/* `bpfprobe monitor --map MAP`: every update and delete of MAP, live, until
 * SIGINT/SIGTERM or duration seconds (0: none). Returns the exit code. */
int cmd_monitor_map(const char *map, bool json, double duration);

#endif /* BPFPROBE_MONITOR_MAP_H */
