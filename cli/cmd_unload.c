// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfprobe unload NAME... | --all: remove sessions `bpfprobe load --pin` left. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/commands.h"

#define UNLOAD_USAGE "usage: bpfprobe unload NAME... | bpfprobe unload --all\n"

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
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct unload_ctx ctx = {};
	bool all = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "ah", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			all = true;
			break;
		case 'h':
			printf(UNLOAD_USAGE);
			return 0;
		default:
			fprintf(stderr, UNLOAD_USAGE);
			return 2;
		}
	}
	if (all == (optind < argc)) {
		fprintf(stderr, all ? "bpfprobe unload: --all takes no names\n" UNLOAD_USAGE :
				      "bpfprobe unload: name a pinned session, or --all\n" UNLOAD_USAGE);
		return 2;
	}
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
