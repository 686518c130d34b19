/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef BPFPROBE_COMMANDS_H
#define BPFPROBE_COMMANDS_H

/* Each subcommand: argv[0] is the subcommand's name; returns the exit code. */
int cmd_load(int argc, char **argv);

/* -v count, shared by the subcommands' print callback */
extern int bp_cli_verbose;

#endif /* BPFPROBE_COMMANDS_H */
