// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpfprobe trace SPEC... [-- CMD]: the arguments of probe points, printed
 * per hit, with no C: the programs are generated (trace/trace.h), written
 * as a BPF object into memory (a memfd: nothing on disk), and loaded,
 * attached and followed like load's.
 */
#define _GNU_SOURCE		/* memfd_create */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/commands.h"
#include "cli/load_report.h"
#include "cli/options.h"
#include "cli/pid_hold.h"
#include "cli/privileges.h"
#include "cli/session.h"
#include "cli/workload.h"
#include "trace/trace.h"
#include "trace/trace_out.h"

struct trace_args {
	const char **specs;
	int nspecs;
	char **cmd;
	pid_t pid;
	bool system_wide;
	bool json;
	bool count;
	const char *hist;
	bool ustack, kstack;
	bool folded;
	unsigned int strlen;
	const char *vmlinux;
	bool no_cache;
	bool no_follow;
	bool quiet;
	const char *output;
};

enum { OPT_JSON = 256, OPT_HIST, OPT_STACK, OPT_FOLDED, OPT_STRLEN, OPT_VMLINUX, OPT_NO_FOLLOW, OPT_NO_CACHE };

static const struct bp_cli_opt trace_opts[] = {
	BP_PID_OPTION,
	BP_NO_FOLLOW_OPTION(OPT_NO_FOLLOW),
	BP_ALL_CPUS_OPTION,
	{ "count", 'c', no_argument, NULL,
	  "count the hits of each probe point (in BPF) and\n"
	  "print the counts at exit, not a line per hit" },
	{ "stack", OPT_STACK, optional_argument, "WHICH",
	  "each hit's stack under its line: user (the\n"
	  "default), kernel or both; unwound through the\n"
	  "binaries' CFI, inlined calls as frames of their own" },
	{ "folded", OPT_FOLDED, no_argument, NULL,
	  "count the hits' stacks (--stack's, user by default)\n"
	  "and print them at exit folded, \"frame;...;frame N\",\n"
	  "for flamegraph.pl, speedscope and inferno" },
	{ "hist", OPT_HIST, required_argument, "NAME",
	  "a power-of-two histogram of argument NAME per\n"
	  "probe point (in BPF), printed at exit with bars,\n"
	  "not a line per hit" },
	{ "strlen", OPT_STRLEN, required_argument, "N",
	  "bytes kept of a NAME:string value, its NUL\n"
	  "included (default 64, at most 448)" },
	BP_JSON_RECORDS_OPTION(OPT_JSON),
	BP_OUTPUT_OPTION,
	BP_QUIET_OPTION,
	BP_VMLINUX_OPTION(OPT_VMLINUX),
	BP_NO_CACHE_OPTION(OPT_NO_CACHE),
	BP_VERBOSE_OPTION,
	{}
};

static const struct bp_cli_cmd trace_cmd = {
	.name = "trace",
	.operands = "SPEC... [-- CMD [ARGS...]]",
	.what = "Prints the arguments each SPEC names at every hit, with no C and no\n"
		"compiler: a SPEC is a SEC() text (exec=BIN;FUNC ARG...; see load), an\n"
		"ARG is typed by DWARF, and NAME:string (NAME:ustring) reads the string\n"
		"NAME points to. bpfprobe generates the programs, loads them and prints\n"
		"TIME COMM PID POINT name=value ... per hit. With CMD (after --):\n"
		"starts it held, attaches, and exits with its status; its process and\n"
		"every process it starts are traced. Without CMD nor -p: every\n"
		"process, until SIGINT/SIGTERM.",
	.opts = trace_opts,
};

static int parse_option(int c, struct trace_args *a)
{
	char *end;

	switch (c) {
	case 'p':
		return bp_cli__parse_pid("trace", optarg, &a->pid);
	case 'a':
		a->system_wide = true;
		return 0;
	case 'c':
		a->count = true;
		return 0;
	case OPT_HIST:
		a->hist = optarg;
		return 0;
	case OPT_STACK:
		if (!optarg || !strcmp(optarg, "user")) {
			a->ustack = true;
		} else if (!strcmp(optarg, "kernel")) {
			a->kstack = true;
		} else if (!strcmp(optarg, "both")) {
			a->ustack = a->kstack = true;
		} else {
			fprintf(stderr, "bpfprobe trace: --stack=%s: want user, kernel or both\n",
				optarg);
			return -EINVAL;
		}
		return 0;
	case OPT_FOLDED:
		a->folded = true;
		return 0;
	case OPT_STRLEN: {
		unsigned long n = strtoul(optarg, &end, 10);

		if (*end || n < 2 || n > BP_TRACE_MAX_STRLEN) {
			fprintf(stderr, "bpfprobe trace: --strlen '%s': want a number from 2 to %d\n",
				optarg, BP_TRACE_MAX_STRLEN);
			return -EINVAL;
		}
		a->strlen = (unsigned int)n;
		return 0;
	}
	case 'v':
		bp_cli_verbose++;
		return 0;
	case OPT_JSON:
		a->json = true;
		return 0;
	case OPT_NO_CACHE:
		a->no_cache = true;
		return 0;
	case OPT_VMLINUX:
		a->vmlinux = optarg;
		return 0;
	case OPT_NO_FOLLOW:
		a->no_follow = true;
		return 0;
	case 'q':
		a->quiet = true;
		return 0;
	case 'o':
		a->output = optarg;
		return 0;
	default:
		return -EINVAL;
	}
}

/* Options and SPECs in any order up to "--"; after it, the command. */
static int parse_args(int argc, char **argv, struct trace_args *a)
{
	int c, end = argc;

	a->pid = -1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			end = i;
			break;
		}
	}
	optind = 0;
	while ((c = bp_cli__next(&trace_cmd, end, argv)) != -1)
		if (parse_option(c, a))
			return -EINVAL;
	a->specs = (const char **)&argv[optind];
	a->nspecs = end - optind;
	if (end + 1 < argc)
		a->cmd = &argv[end + 1];
	if (!a->nspecs) {
		fprintf(stderr, "bpfprobe trace: no SPEC given: say what to trace, e.g. 'exec=/bin/bash;readline'\n");
		bp_cli__usage(&trace_cmd);
		return -EINVAL;
	}
	if (end < argc && !a->cmd) {
		fprintf(stderr, "bpfprobe trace: '--' is followed by no command\n");
		return -EINVAL;
	}
	if (a->cmd && a->pid > 0) {
		fprintf(stderr, "bpfprobe trace: -p and a command exclude each other\n");
		return -EINVAL;
	}
	if (a->folded && !a->ustack && !a->kstack)
		a->ustack = true;
	if ((a->count || a->hist) && (a->ustack || a->kstack || a->folded)) {
		fprintf(stderr, "bpfprobe trace: %s counts in BPF, with no stacks: leave out %s\n",
			a->hist ? "--hist" : "--count", a->folded ? "--folded" : "--stack");
		return -EINVAL;
	}
	if (a->count && a->hist) {
		fprintf(stderr, "bpfprobe trace: --hist counts the hits too: leave out --count\n");
		return -EINVAL;
	}
	return 0;
}

/* The generated object, in memory: its path is /proc/self/fd/N. */
static int write_object(const struct bp_trace *t, char *path, size_t len)
{
	int fd = memfd_create("bpfprobe-trace", MFD_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "bpfprobe trace: cannot make the BPF object: memfd_create: %s\n",
			strerror(errno));
		return -errno;
	}
	if (bp_trace__write_object(t, fd)) {
		close(fd);
		return -EINVAL;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* Only a failed write ends the session (-EINTR: a signal, seen next). */
static int poll_out(void *out, int timeout_ms)
{
	int n = bp_trace_out__poll(out, timeout_ms);

	return bp_trace_out__write_error(out) ? n : n < 0 ? 0 : n;
}

/* Runs the session: returns the exit code. */
static int run_session(const struct trace_args *a, struct bpfprobe_object *obj,
		       struct bp_trace_out *out, int fd, pid_t child, bool *failed)
{
	struct bp_session_loop l = {
		.poll = poll_out, .ctx = out, .child = child, .out_fd = fd, .obj = obj,
		.wait_fd = bp_trace_out__fd(out),
	};
	int code = bp_session__run(&l), err;

	if (!l.write_err)
		bp_trace_out__finish(out);
	/* the session's (a reader gone before a write told) or the writer's */
	err = l.write_err ? l.write_err : bp_trace_out__write_error(out);
	*failed = err != 0;
	if (!err)
		return code;
	return bp_session__write_failed("trace", a->output ? a->output : "stdout", err,
					bp_trace_out__unwritten(out),
					a->count ? "the counts" : NULL, l.child_stopped);
}

/* Loads, attaches, runs; returns the exit code. */
static int run(const struct trace_args *a, struct bp_trace *t, FILE *records,
	       const struct bp_pid_hold *held)
{
	struct bpfprobe_open_opts oopts = {
		.sz = sizeof(oopts), .vmlinux = a->vmlinux, .no_cache = a->no_cache,
		.source = "bpfprobe trace", .view_pid = a->pid > 0 ? a->pid : 0,
	};
	/* stdout is a stream of std_streams.c's: its descriptor is 1 */
	struct bp_trace_out_opts topts = {
		.sz = sizeof(topts), .json = a->json,
		.fd = records == stdout ? STDOUT_FILENO : fileno(records),
	};
	struct bpfprobe_attach_opts aopts = { .sz = sizeof(aopts), .pid = -1 };
	struct bp_session_args sa = {
		.cmd = a->cmd, .pid = a->pid, .system_wide = a->system_wide,
		.no_follow = a->no_follow, .quiet = a->quiet,
	};
	struct bp_workload w = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct bpfprobe_object *obj = NULL;
	struct bp_trace_out *out = NULL;
	struct bp_load_scope scope = {};
	char path[64];
	bool failed;
	int fd, err, code = 1;
	pid_t global;

	fd = write_object(t, path, sizeof(path));
	if (fd < 0)
		return 1;
	obj = bpfprobe_object__open(path, &oopts);
	if (!obj)
		goto out;
	err = bpfprobe_object__load(obj);
	/* a signal first: the load stopped for it (-EINTR) */
	if (bp_session__interrupted(&code) || err)
		goto out;
	if (bpfprobe_object__point_cnt(obj) != t->npoints)
		fprintf(stderr, "bpfprobe trace: %zu probe points loaded, %u resolved first: some may print as '?'\n",
			bpfprobe_object__point_cnt(obj), t->npoints);
	/* before attaching: no early hit is lost */
	if (bp_trace_out__new(t, obj, &topts, &out))
		goto out;
	if (a->cmd) {
		/* --json without -o: the workload's stdout goes to stderr, so
		 * our stdout holds JSON Lines alone */
		w.stdout_to_stderr = a->json && !a->output;
		code = bp_workload__prepare(&w, a->cmd);
		if (code) {
			fprintf(stderr, "bpfprobe: cannot start '%s': %s\n", a->cmd[0],
				strerror(-code));
			code = 1;
			goto out;
		}
		code = 1;
	}
	global = bp_session__scope(&sa, &w, &scope);
	aopts.pid = scope.system_wide ? -1 : scope.pid;
	aopts.follow = scope.follow;
	aopts.global_pid = global;
	/* the run loop looks at what the followed processes exec */
	aopts.watch_execs = scope.follow;
	if (bp_session__interrupted(&code) ||
	    bp_pid_hold__check(held, "trace", "nothing attached"))
		goto out;
	err = bpfprobe_object__attach(obj, &aopts);
	if (bp_session__interrupted(&code) || err)
		goto out;
	/* the process that held the pid during the attach was the one given */
	if (bp_pid_hold__check(held, "trace", "detached, nothing traced"))
		goto out;
	if (!a->quiet)
		bp_report__attached(obj, &scope);
	if (!a->quiet && !a->cmd && a->pid > 0)
		bp_report__check_maps(obj, a->pid);
	if (bp_session__interrupted(&code))
		goto out;
	if (a->cmd && bp_workload__start(&w, a->cmd[0])) {
		code = 127;	/* like a shell that cannot run the command */
		goto out;
	}
	code = run_session(a, obj, out, topts.fd, w.pid, &failed);
	w.pid = -1;
	if (!a->quiet && !failed)
		bp_report__never_ran(obj, &scope);
out:
	bp_workload__abort(&w);
	bp_trace_out__free(out);
	bpfprobe_object__destroy(obj);
	close(fd);
	return code;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_args a = {};
	struct bp_trace_opts topts = { .sz = sizeof(topts) };
	struct bp_pid_hold held;
	struct bp_trace *t = NULL;
	FILE *records;
	int code = 1;

	if (parse_args(argc, argv, &a))
		return 2;
	if (bp_cli__check_privileges("trace"))
		return 1;
	/* -o first: a bad path fails before any slow step */
	records = bp_session__open_records("trace", a.output);
	if (!records)
		return 1;
	/* -p: that process, from now on, whatever its pid becomes */
	if (bp_pid_hold__open(&held, "trace", a.pid)) {
		if (records != stdout)
			fclose(records);
		return 1;
	}
	topts.count = a.count;
	topts.hist = a.hist;
	topts.ustack = a.ustack;
	topts.kstack = a.kstack;
	topts.folded = a.folded;
	topts.strlen = a.strlen;
	topts.vmlinux = a.vmlinux;
	topts.no_cache = a.no_cache;
	topts.view_pid = a.pid > 0 ? a.pid : 0;
	/* resolving the specs stops at a signal too */
	bp_session__install_signals();
	if (bp_trace__new(a.specs, a.nspecs, &topts, &t)) {
		bp_session__interrupted(&code);
	} else {
		for (int i = 0; bp_cli_verbose && i < t->nprogs; i++)
			bp_trace__print_record(t, i, stderr);
		code = run(&a, t, records, &held);
	}
	bp_trace__free(t);
	bp_pid_hold__close(&held);
	if (records != stdout)
		fclose(records);
	return code;
}
