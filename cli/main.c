// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfprobe: a thin command line over libbpfprobe. */
#include <stdio.h>
#include <string.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/commands.h"

int bp_cli_verbose;

static int cli_print(enum bpfprobe_print_level level, const char *fmt, va_list ap)
{
	if (level == BPFPROBE_INFO && bp_cli_verbose < 1)
		return 0;
	if (level == BPFPROBE_DEBUG && bp_cli_verbose < 2)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* One line per subcommand; each lives in cli/cmd_NAME.c. */
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "load", cmd_load },
	{ "resolve", cmd_resolve },
	{ "vars", cmd_vars },
	{ "funcs", cmd_funcs },
	{ "list", cmd_list },
	{ "unload", cmd_unload },
	{ "monitor", cmd_monitor },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfprobe load [-v] [-a] [-p PID] [--json] [--quiet-meta] [--no-map-dump]\n"
		"                     [--perf-pages N] [--pin NAME [--replace]] [--vmlinux PATH]\n"
		"                     OBJ.o|PROG.c [--] [CMD [ARGS...]]\n"
		"       bpfprobe resolve [-v] [--json [--compact]] OBJ.o|'SEC text'\n"
		"       bpfprobe vars [--json [--compact]] BIN FUNC[+OFFS|%%return]...\n"
		"       bpfprobe funcs [--json [--compact]] BIN [GLOB]\n"
		"       bpfprobe list [--json] [--stats[=SECONDS]] [-a]\n"
		"       bpfprobe unload NAME... | --all\n"
		"       bpfprobe monitor [--json] [--duration SECONDS]\n"
		"\n"
		"  load    load OBJ.o, fetch the arguments its SEC() annotations name,\n"
		"          attach, and print bpf_trace_printk output on stdout.\n"
		"          With CMD: start it held, attach, run it, exit with its status.\n"
		"          Without: run until SIGINT/SIGTERM.\n"
		"    -p PID  uprobes fire only in process PID\n"
		"    -a      system-wide, even with CMD\n"
		"    -v      show probe points, fetch plans, prologues; -vv adds libbpf output\n"
		"  resolve show what load would do, loading nothing (no privileges needed):\n"
		"          probe points, argument locations and fetches, instances, prologues\n"
		"  vars    parameters and locals at a probe point, and whether each is fetchable\n"
		"  funcs   functions of BIN (DWARF, else symbol table) matching GLOB\n"
		"  list    every BPF program attached to a uprobe, kprobe, tracepoint or perf\n"
		"          event: id, tag, attach point, pid filter, maps, owners, load time;\n"
		"          --stats turns kernel.bpf_stats_enabled on for SECONDS (1) first\n"
		"  unload  remove sessions left by load --pin NAME (--all: every one)\n"
		"  monitor live stream of BPF program loads and unloads on the system\n");
}

int main(int argc, char **argv)
{
	/* whole lines per write(2): a pipe shared with the workload never
	 * gets one of our records cut by one of its lines */
	setvbuf(stdout, NULL, _IOLBF, 0);
	bpfprobe_set_print(cli_print);
	/* libbpf's warnings (a verifier log) and -vv chatter go the same way */
	bpfprobe_route_libbpf_print(true);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "bpfprobe: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
