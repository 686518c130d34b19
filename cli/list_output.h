/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* `bpfprobe list` output: the aligned table and the stable JSON form. */
#ifndef BPFPROBE_CLI_LIST_OUTPUT_H
#define BPFPROBE_CLI_LIST_OUTPUT_H

#include <stdio.h>
#include "sysinfo/listing.h"

void bp_list__print_table(FILE *f, const struct bp_listing *l);
/* Returns 0 or the JSON writer's error. */
int bp_list__print_json(FILE *f, const struct bp_listing *l);

#endif /* BPFPROBE_CLI_LIST_OUTPUT_H */
