/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Every command's options in one table: getopt_long is driven from it,
 * --help is printed from it (so every option is documented), and a
 * mistyped option is answered with the closest one it has.
 */
#ifndef BPFPROBE_CLI_OPTIONS_H
#define BPFPROBE_CLI_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct bp_cli_opt {
	const char *name;	/* long name; NULL ends the table */
	int key;		/* the short option's letter, or a value >= 256 */
	int has_arg;		/* no_argument, required_argument, optional_argument */
	const char *arg;	/* the argument in the help: "PID" */
	const char *help;	/* what it does; lines joined by '\n' */
};

/* --no-cache, for the commands that resolve (load, resolve, vars) */
#define BP_NO_CACHE_OPTION(KEY)							\
	{ "no-cache", (KEY), no_argument, NULL,					\
	  "no caches: do not read binaries' function index, finished\n"	\
	  "resolutions nor compiled PROG.c objects from ~/.cache/bpfprobe\n"	\
	  "nor store them; walk the DWARF, compile in a private directory" }

/*
 * The options of the commands that run probes (load, trace), with the same
 * words in each: whom they trace, where records go, what is said.
 */
#define BP_PID_OPTION							\
	{ "pid", 'p', required_argument, "PID",				\
	  "trace process PID and, unless --no-follow, the\n"		\
	  "processes it starts from now on, until Ctrl-C;\n"		\
	  "exec= is looked up as PID sees it (its root)" }
#define BP_NO_FOLLOW_OPTION(KEY)					\
	{ "no-follow", (KEY), no_argument, NULL,				\
	  "trace CMD's (or PID's) own process only: its\n"		\
	  "threads and its execs, not the processes it starts" }
#define BP_ALL_CPUS_OPTION						\
	{ "all-cpus", 'a', no_argument, NULL,				\
	  "trace every process (system-wide), even with CMD" }
#define BP_JSON_RECORDS_OPTION(KEY)					\
	{ "json", (KEY), no_argument, NULL,				\
	  "records as JSON Lines; CMD's stdout goes to stderr\n"	\
	  "then, so stdout holds JSON alone (or use -o)" }
#define BP_OUTPUT_OPTION						\
	{ "output", 'o', required_argument, "FILE",			\
	  "bpfprobe's records go to FILE; CMD keeps stdout" }
#define BP_QUIET_OPTION							\
	{ "quiet", 'q', no_argument, NULL,				\
	  "no session lines on stderr (what was attached,\n"		\
	  "programs that never ran)" }
#define BP_VMLINUX_OPTION(KEY)						\
	{ "vmlinux", (KEY), required_argument, "PATH",			\
	  "a vmlinux with DWARF for kernel probes" }
#define BP_VERBOSE_OPTION						\
	{ "verbose", 'v', no_argument, NULL,				\
	  "show probe points, fetch plans, guards and\n"		\
	  "prologues; -vv adds libbpf's output" }

/* -p for the commands that only resolve (resolve, vars) */
#define BP_VIEW_PID_OPTION						\
	{ "pid", 'p', required_argument, "PID",				\
	  "look exec= (BIN) up as process PID sees it: in its\n"	\
	  "root (a chroot, a container's), its PATH and\n"		\
	  "library paths" }

struct bp_cli_cmd {
	const char *name;	/* "load" */
	const char *operands;	/* "OBJ.o|PROG.c [--] [CMD [ARGS...]]" */
	const char *what;	/* what the command does, a few lines */
	const struct bp_cli_opt *opts;	/* -h/--help is added */
	/* options only before the first operand (what follows is a command's) */
	bool options_first;
};

/*
 * Like getopt_long() over cmd's options (start with optind = 0): returns
 * the next option's key and sets optarg; -1 when the options end. -h and
 * --help print the help on stdout and exit 0. An unknown or ambiguous
 * option, or one missing its argument, is said on stderr, with the option
 * it is closest to, and returns '?'.
 */
int bp_cli__next(const struct bp_cli_cmd *cmd, int argc, char **argv);

/* The help: usage line, what, every option. */
void bp_cli__help(const struct bp_cli_cmd *cmd, FILE *f);

/* "usage: bpfprobe NAME [OPTIONS] OPERANDS" and a pointer to --help, on stderr. */
void bp_cli__usage(const struct bp_cli_cmd *cmd);

/* Of names, the one word is a prefix of or at most two edits from, or NULL. */
const char *bp_cli__closest(const char *word, const char *const *names, size_t n);

/* -p's PID: 0 with *pid set, or -EINVAL after "bpfprobe CMD: bad pid 'ARG'". */
int bp_cli__parse_pid(const char *cmd, const char *arg, pid_t *pid);

/*
 * A binary named without '/' is looked up like exec= does it (PATH, the
 * library paths); a regular file of that name in the current directory is
 * meant first: returns its absolute path in buf then, else name.
 */
const char *bp_cli__local_file(const char *name, char *buf, size_t len);

#endif /* BPFPROBE_CLI_OPTIONS_H */
