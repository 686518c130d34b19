// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfprobe: a thin command line over libbpfprobe. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/std_streams.h"
#include "util/bigmem.h"

int bp_cli_verbose;

static int cli_print(enum bpfprobe_print_level level, const char *fmt, va_list ap)
{
	if (level == BPFPROBE_INFO && bp_cli_verbose < 1)
		return 0;
	if (level == BPFPROBE_DEBUG && bp_cli_verbose < 2)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

#ifndef BPFPROBE_VERSION
#define BPFPROBE_VERSION "unknown"
#endif

/*
 * One line per subcommand; each lives in cli/cmd_NAME.c. A quick one reads
 * DWARF, prints and exits: its heap is set up for speed, in 2 MiB pages,
 * and not given back to the system before the end (util/bigmem.h), and
 * its output, which shares no pipe with a workload, is written in blocks
 * when it goes to no terminal (stdio's default) instead of line by line.
 */
static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	bool quick;
} commands[] = {
	{ "load", cmd_load, "load OBJ.o or PROG.c, attach, run CMD, print what it outputs" },
	{ "trace", cmd_trace, "print the arguments SEC texts name at each hit, no C needed" },
	{ "resolve", cmd_resolve, "what load would do: probe points, fetches, prologues", true },
	{ "vars", cmd_vars, "parameters and locals at a probe point, fetchable or why not", true },
	{ "funcs", cmd_funcs, "functions of a binary matching a glob", true },
	{ "markers", cmd_markers, "SDT markers (USDT) of a binary", true },
	{ "list", cmd_list, "every BPF program attached to a probe, tracepoint or event" },
	{ "cat", cmd_cat, "the records a pinned session's ring and perf buffers receive" },
	{ "unload", cmd_unload, "remove sessions pinned by load --pin" },
	{ "monitor", cmd_monitor, "live stream of BPF program loads and unloads" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: bpfprobe COMMAND [OPTIONS] [ARGS...]\n"
		   "       bpfprobe COMMAND --help\n"
		   "       bpfprobe --version\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s%s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nbpfprobe COMMAND --help lists the command's options; man bpfprobe says more.\n");
}

/* The command whose name is closest to a mistyped one, or NULL. */
static const char *closest_command(const char *name)
{
	const char *names[NCOMMANDS];

	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	return bp_cli__closest(name, names, NCOMMANDS);
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *cmd;

	bpfprobe_set_print(cli_print);
	/* libbpf's warnings (a verifier log) and -vv chatter go the same way */
	bpfprobe_route_libbpf_print(true);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	/* whole lines per write(2): a pipe shared with the workload never
	 * gets one of our records cut by one of its lines (see quick); what
	 * is printed shows control characters escaped, and a failed write
	 * is said (std_streams.h) */
	cmd = find_command(argv[1]);
	if (bp_stdio__init(cmd && cmd->quick))
		setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("bpfprobe %s (libbpf %s)\n", BPFPROBE_VERSION, libbpf_version_string());
		return bp_stdio__finish("--version", 0);
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		/* help COMMAND is COMMAND --help */
		const struct command *about = argc > 2 ? find_command(argv[2]) : NULL;

		if (about) {
			char *args[] = { argv[2], "--help", NULL };

			return bp_stdio__finish(about->name, about->fn(2, args));
		}
		usage(stdout);
		return bp_stdio__finish("help", 0);
	}
	if (cmd) {
		if (cmd->quick)
			bp_bigmem__heap(4u << 20);
		return bp_stdio__finish(cmd->name, cmd->fn(argc - 1, argv + 1));
	}
	if (closest_command(argv[1]))
		fprintf(stderr, "bpfprobe: unknown command '%s'; did you mean '%s'?\n", argv[1],
			closest_command(argv[1]));
	else
		fprintf(stderr, "bpfprobe: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
