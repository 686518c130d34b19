// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* --json, --compact, -v and -h, parsed once for resolve, vars and funcs. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "cli/json_opts.h"

#define MAX_EXTRA	4

/*
 * The table getopt_long sees: --json and --compact, the command's own,
 * then --verbose and --help (this order is the one `--v` ambiguity
 * messages list).
 */
static int build_longopts(struct option *out, const struct bp_cli_extra_opts *extra)
{
	static const struct option head[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "compact", no_argument, NULL, 'c' },
	};
	static const struct option tail[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int n = 0, i;

	for (i = 0; i < (int)(sizeof(head) / sizeof(head[0])); i++)
		out[n++] = head[i];
	for (i = 0; extra && extra->extra[i].name; i++) {
		if (i == MAX_EXTRA)
			return -E2BIG;
		out[n++] = extra->extra[i];
	}
	for (i = 0; i < (int)(sizeof(tail) / sizeof(tail[0])); i++)
		out[n++] = tail[i];
	return 0;
}

int bp_cli_format__parse_args(struct bp_cli_format *o, int argc, char **argv,
			      const char *usage, const struct bp_cli_extra_opts *extra)
{
	struct option longopts[2 + MAX_EXTRA + 3];
	int c, err;

	if (build_longopts(longopts, extra)) {
		fprintf(stderr, "bpfprobe %s: more than %d command options\n", argv[0], MAX_EXTRA);
		return -E2BIG;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "jcvh", longopts, NULL)) != -1) {
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
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			if (c == '?' || !extra) {
				fputs(usage, stderr);
				return -EINVAL;
			}
			err = extra->on_extra(c, optarg, extra->ctx);
			if (err)
				return err;
			break;
		}
	}
	return 0;
}
