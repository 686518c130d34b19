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
#include "cli/list_output.h"
#include "sysinfo/listing.h"

#define LIST_USAGE "usage: bpfprobe list [--json] [--stats[=SECONDS]] [-a]\n"

struct list_args {
	bool json;
	bool all;
	bool stats;
	double stats_secs;
};

static int parse_args(int argc, char **argv, struct list_args *a)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "stats", optional_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int c;

	a->stats_secs = 1.0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "ah", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			a->json = true;
			break;
		case 's': {
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
		case 'h':
			printf(LIST_USAGE);
			exit(0);
		default:
			fprintf(stderr, LIST_USAGE);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bpfprobe list: unexpected argument '%s'\n" LIST_USAGE, argv[optind]);
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
	if (fflush(stdout) || err) {
		fprintf(stderr, "bpfprobe list: cannot write the listing\n");
		return 1;
	}
	return 0;
}
