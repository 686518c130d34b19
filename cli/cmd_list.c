// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfprobe list: every BPF program attached to a tracing hook on the system. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/privileges.h"
#include "cli/list_output.h"
#include "cli/std_streams.h"
#include "sysinfo/listing.h"

enum { OPT_JSON = 256, OPT_STATS };

static const struct bp_cli_opt list_opts[] = {
	{ "json", OPT_JSON, no_argument, NULL, "print one JSON object (keys in docs/commands.md)" },
	{ "stats", OPT_STATS, optional_argument, "SECONDS",
	  "turn kernel.bpf_stats_enabled on for SECONDS\n"
	  "(default 1) first, and show run counts" },
	{ "all", 'a', no_argument, NULL, "also tracing-type programs attached nowhere" },
	{}
};

static const struct bp_cli_cmd list_cmd = {
	.name = "list",
	.operands = "",
	.what = "Every BPF program attached to a uprobe, kprobe, tracepoint, raw\n"
		"tracepoint, trampoline or perf event, whoever loaded it: id, tag, name,\n"
		"type, pid filter, owners, maps, load time, attach point; for bpfprobe's\n"
		"own, the object (and for load PROG.c its source), program, SEC text,\n"
		"arguments and pin name. Needs root.",
	.opts = list_opts,
};

struct list_args {
	bool json;
	bool all;
	bool stats;
	double stats_secs;
};

static int parse_args(int argc, char **argv, struct list_args *a)
{
	int c;

	a->stats_secs = 1.0;
	optind = 0;
	while ((c = bp_cli__next(&list_cmd, argc, argv)) != -1) {
		switch (c) {
		case OPT_JSON:
			a->json = true;
			break;
		case OPT_STATS: {
			char *end;

			a->stats = true;
			if (!optarg)
				break;
			a->stats_secs = strtod(optarg, &end);
			if (*end || a->stats_secs < 0 || a->stats_secs > 3600) {
				fprintf(stderr, "bpfprobe list: bad --stats duration '%s' (seconds, 0..3600)\n",
					optarg);
				return -EINVAL;
			}
			break;
		}
		case 'a':
			a->all = true;
			break;
		default:
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bpfprobe list: unexpected argument '%s'\n", argv[optind]);
		bp_cli__usage(&list_cmd);
		return -EINVAL;
	}
	return 0;
}

/*
 * Turns run statistics on (BPF_ENABLE_STATS: on while the fd is open) and
 * lets the programs run a while, so run counts mean something.
 */
static int enable_stats(double secs)
{
	int fd = -1;

	/* already on (sysctl): nothing to undo, but still a while to count */
	if (!bp_sys__stats_enabled()) {
		fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (fd < 0) {
			fprintf(stderr, "bpfprobe list: cannot enable BPF run statistics (BPF_ENABLE_STATS): %s%s\n",
				strerror(errno), errno == EPERM ? " (needs CAP_SYS_ADMIN)" : "");
			return -2;
		}
	}
	if (secs > 0)
		usleep((useconds_t)(secs * 1e6));
	return fd;
}

int cmd_list(int argc, char **argv)
{
	struct bp_listing_opts opts = { .sz = sizeof(opts) };
	struct list_args a = {};
	struct bp_listing l;
	int stats_fd = -1, err;

	if (parse_args(argc, argv, &a))
		return 2;
	if (bp_cli__check_privileges("list"))
		return 1;
	if (a.stats) {
		stats_fd = enable_stats(a.stats_secs);
		if (stats_fd == -2)
			return 1;
	}
	opts.all = a.all;
	err = bp_listing__build(&l, &opts);
	if (err) {
		fprintf(stderr, "bpfprobe list: cannot read the kernel's BPF records: %s%s\n",
			strerror(-err),
			err == -EPERM ? " (needs CAP_SYS_ADMIN, or CAP_BPF and CAP_PERFMON)" : "");
		if (stats_fd >= 0)
			close(stats_fd);
		return 1;
	}
	if (stats_fd >= 0)
		l.stats_enabled = true;
	if (a.json)
		err = bp_list__print_json(stdout, &l);
	else
		bp_list__print_table(stdout, &l);
	bp_listing__free(&l);
	if (stats_fd >= 0)
		close(stats_fd);
	/* a failed write to stdout is said at the end (std_streams.h) */
	if ((fflush(stdout) || err) && !bp_stdio__out_error()) {
		fprintf(stderr, "bpfprobe list: cannot write the listing\n");
		return 1;
	}
	return 0;
}
