/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The options the inspecting commands (resolve, vars, funcs) share:
 * --json, --compact, -v/--verbose, -h/--help, plus each command's own.
 */
#ifndef BPFPROBE_CLI_JSON_OPTS_H
#define BPFPROBE_CLI_JSON_OPTS_H

#include <limits.h>
#include <stdbool.h>
#include "cli/options.h"

/* How the command prints: JSON (--json), on one line (--compact). */
struct bp_cli_format {
	bool json;
	bool compact;
};

/*
 * A command's own options: extra ends with an all-zero entry; on_extra
 * gets each one's key and optarg and returns 0 or a negative errno after
 * its own message.
 */
struct bp_cli_extra_opts {
	const struct bp_cli_opt *extra;
	int (*on_extra)(int key, const char *arg, void *ctx);
	void *ctx;
};

/*
 * Parses argv's options into o (and bumps bp_cli_verbose per -v) for
 * command cmd (its name, operands and what; its options are the shared
 * ones and extra's). -h prints the help on stdout and exits 0; a bad
 * option is said on stderr and returns -EINVAL. extra may be NULL. On 0,
 * optind is the first operand.
 */
int bp_cli_format__parse_args(struct bp_cli_format *o, int argc, char **argv,
			      const struct bp_cli_cmd *cmd, const struct bp_cli_extra_opts *extra);

/* The operands of a listing of one binary (funcs, markers): BIN [GLOB]. */
struct bp_cli_binary_args {
	const char *binary;
	char local[PATH_MAX];	/* BIN's absolute path, when it is a file here */
	const char *glob;	/* NULL: everything */
	struct bp_cli_format fmt;
};

/*
 * The shared options into a->fmt (bp_cli_format__parse_args()), then BIN
 * and an optional GLOB; a missing binary or a third operand is said on
 * stderr, naming cmd, with its usage: -EINVAL.
 */
int bp_cli_binary_args__parse(struct bp_cli_binary_args *a, int argc, char **argv,
			      const struct bp_cli_cmd *cmd);

#endif /* BPFPROBE_CLI_JSON_OPTS_H */
