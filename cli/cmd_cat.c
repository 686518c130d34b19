// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfprobe cat NAME: the records a pinned session's ring and perf buffers get. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/privileges.h"

enum { OPT_JSON = 256, OPT_QUIET_META, OPT_PERF_PAGES };

static const struct bp_cli_opt cat_opts[] = {
	{ "json", OPT_JSON, no_argument, NULL, "records as JSON Lines" },
	{ "quiet-meta", OPT_QUIET_META, no_argument, NULL, "records without their map's name" },
	{ "duration", 'd', required_argument, "SECONDS", "stop after SECONDS (default: Ctrl-C)" },
	{ "perf-pages", OPT_PERF_PAGES, required_argument, "N",
	  "pages per CPU of each perf buffer, a power of 2\n(default 64)" },
	{}
};

static const struct bp_cli_cmd cat_cmd = {
	.name = "cat",
	.operands = "NAME",
	.what = "Prints the records the ring buffer and perf event array maps of pinned\n"
		"session NAME (load --pin NAME) receive from now on, typed as load\n"
		"prints them, until Ctrl-C. One reader at a time. The session's\n"
		"bpf_trace_printk lines are not here: pinned programs print to tracefs's\n"
		"global trace_pipe (cat /sys/kernel/tracing/trace_pipe). Needs root.",
	.opts = cat_opts,
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int cmd_cat(int argc, char **argv)
{
	struct bpfprobe_output_opts opts = { .sz = sizeof(opts) };
	struct sigaction sa = { .sa_handler = on_signal };
	struct bpfprobe_output *out;
	double duration = 0, end;
	char *e;
	int c;

	optind = 0;
	while ((c = bp_cli__next(&cat_cmd, argc, argv)) != -1) {
		switch (c) {
		case OPT_JSON:
			opts.json = true;
			break;
		case OPT_QUIET_META:
			opts.quiet_meta = true;
			break;
		case 'd':
			duration = strtod(optarg, &e);
			if (*e || duration <= 0) {
				fprintf(stderr, "bpfprobe cat: bad --duration '%s' (seconds > 0)\n", optarg);
				return 2;
			}
			break;
		case OPT_PERF_PAGES:
			opts.perf_pages = strtoul(optarg, &e, 10);
			if (*e || !opts.perf_pages || (opts.perf_pages & (opts.perf_pages - 1))) {
				fprintf(stderr, "bpfprobe cat: --perf-pages '%s': want a power of 2\n", optarg);
				return 2;
			}
			break;
		default:
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "bpfprobe cat: %s\n",
			optind == argc ? "name a pinned session" : "one session at a time");
		bp_cli__usage(&cat_cmd);
		return 2;
	}
	if (bp_cli__check_privileges("cat"))
		return 1;
	out = bpfprobe_output__open_pinned(argv[optind], &opts);
	if (!out) {
		if (errno == EINVAL)
			fprintf(stderr, "bpfprobe cat: bad session name '%s'\n", argv[optind]);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	end = now() + duration;
	/* a failed write ends it (what stdout lost: main, std_streams.h) */
	while (!stop && (!duration || now() < end) && !bpfprobe_output__write_error(out))
		bpfprobe_output__poll(out, 100);
	if (!bpfprobe_output__write_error(out))
		bpfprobe_output__drain(out);
	bpfprobe_output__free(out);
	return 0;
}
