/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef BPFPROBE_COMMANDS_H
#define BPFPROBE_COMMANDS_H

/* Each subcommand: argv[0] is the subcommand's name; returns the exit code. */
int cmd_load(int argc, char **argv);
int cmd_resolve(int argc, char **argv);
int cmd_vars(int argc, char **argv);
int cmd_funcs(int argc, char **argv);
int cmd_markers(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_unload(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_cat(int argc, char **argv);
int cmd_trace(int argc, char **argv);

/* -v count, shared by the subcommands' print callback */
extern int bp_cli_verbose;

#endif /* BPFPROBE_COMMANDS_H */
