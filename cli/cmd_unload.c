// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfprobe unload NAME... | --all: remove sessions `bpfprobe load --pin` left. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/privileges.h"

static const struct bp_cli_opt unload_opts[] = {
	{ "all", 'a', no_argument, NULL, "remove every pinned session" },
	{}
};

static const struct bp_cli_cmd unload_cmd = {
	.name = "unload",
	.operands = "NAME... | --all",
	.what = "Removes sessions pinned by load --pin NAME: their probes detach and\n"
		"their programs and maps are freed. Sessions live under\n"
		"/sys/fs/bpf/bpfprobe, or $BPFPROBE_PIN_ROOT. Needs root.",
	.opts = unload_opts,
};

struct unload_ctx {
	int count;
	int failed;
};

/* Keeps going after a failure: --all removes what it can. */
static int unload_one(const char *name, void *arg)
{
	struct unload_ctx *ctx = arg;

	if (bpfprobe_pin__remove(name)) {
		ctx->failed++;	/* the library said why */
		return 0;
	}
	printf("unloaded %s\n", name);
	ctx->count++;
	return 0;
}

int cmd_unload(int argc, char **argv)
{
	struct unload_ctx ctx = {};
	bool all = false;
	int c;

	optind = 0;
	while ((c = bp_cli__next(&unload_cmd, argc, argv)) != -1) {
		if (c != 'a')
			return 2;
		all = true;
	}
	if (all == (optind < argc)) {
		fprintf(stderr, all ? "bpfprobe unload: --all takes no names\n" :
				      "bpfprobe unload: name a pinned session, or --all\n");
		bp_cli__usage(&unload_cmd);
		return 2;
	}
	if (bp_cli__check_privileges("unload"))
		return 1;
	if (all) {
		if (bpfprobe_pin__for_each(unload_one, &ctx)) {
			fprintf(stderr, "bpfprobe unload: cannot read %s\n", bpfprobe_pin__root());
			return 1;
		}
		if (!ctx.count && !ctx.failed)
			printf("no pinned bpfprobe session\n");
	}
	for (; optind < argc; optind++)
		unload_one(argv[optind], &ctx);
	return ctx.failed ? 1 : 0;
}
