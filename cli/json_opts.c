// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* --json, --compact, -v and -h, parsed once for resolve, vars and funcs. */
#include <errno.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/json_opts.h"

#define MAX_EXTRA	8

/* The table: --json and --compact, the command's own, then --verbose. */
static int build_opts(struct bp_cli_opt *out, const struct bp_cli_extra_opts *extra)
{
	static const struct bp_cli_opt head[] = {
		{ "json", 'j', no_argument, NULL, "print JSON (pretty-printed)" },
		{ "compact", 'c', no_argument, NULL, "with --json: on one line" },
	};
	static const struct bp_cli_opt verbose = {
		"verbose", 'v', no_argument, NULL, "say more on stderr (-vv: libbpf's output too)",
	};
	int n = 0, i;

	for (i = 0; i < (int)(sizeof(head) / sizeof(head[0])); i++)
		out[n++] = head[i];
	for (i = 0; extra && extra->extra[i].name; i++) {
		if (i == MAX_EXTRA)
			return -E2BIG;
		out[n++] = extra->extra[i];
	}
	out[n++] = verbose;
	out[n] = (struct bp_cli_opt){};
	return 0;
}

int bp_cli_format__parse_args(struct bp_cli_format *o, int argc, char **argv,
			      const struct bp_cli_cmd *cmd, const struct bp_cli_extra_opts *extra)
{
	struct bp_cli_opt opts[2 + MAX_EXTRA + 2];
	struct bp_cli_cmd full = *cmd;
	int c, err;

	if (build_opts(opts, extra)) {
		fprintf(stderr, "bpfprobe %s: more than %d command options\n", cmd->name, MAX_EXTRA);
		return -E2BIG;
	}
	full.opts = opts;
	optind = 0;
	while ((c = bp_cli__next(&full, argc, argv)) != -1) {
		switch (c) {
		case 'j':
			o->json = true;
			break;
		case 'c':
			o->compact = true;
			break;
		case 'v':
			bp_cli_verbose++;
			break;
		default:
			if (c == '?' || !extra)
				return -EINVAL;
			err = extra->on_extra(c, optarg, extra->ctx);
			if (err)
				return err;
			break;
		}
	}
	return 0;
}

int bp_cli_binary_args__parse(struct bp_cli_binary_args *a, int argc, char **argv,
			      const struct bp_cli_cmd *cmd)
{
	if (bp_cli_format__parse_args(&a->fmt, argc, argv, cmd, NULL))
		return -EINVAL;
	if (optind == argc || argc - optind > 2) {
		fprintf(stderr, "bpfprobe %s: %s\n", cmd->name,
			optind == argc ? "missing the binary" : "one binary and one glob at most");
		bp_cli__usage(cmd);
		return -EINVAL;
	}
	a->binary = bp_cli__local_file(argv[optind], a->local, sizeof(a->local));
	a->glob = optind + 1 < argc ? argv[optind + 1] : NULL;
	return 0;
}
