// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfprobe load: open, load, attach, stream output, clean up. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/commands.h"
#include "cli/cflags.h"
#include "cli/compile_c.h"
#include "cli/load_report.h"
#include "cli/options.h"
#include "cli/pid_hold.h"
#include "cli/privileges.h"
#include "cli/session.h"
#include "cli/workload.h"

struct load_args {
	const char *obj_path;
	char **cmd;
	pid_t pid;
	bool system_wide;
	bool json;		/* --json: JSON Lines on stdout */
	bool quiet_meta;	/* --quiet-meta: printk messages alone */
	bool no_map_dump;	/* --no-map-dump */
	size_t perf_pages;	/* --perf-pages N */
	int global_printk_was;	/* the top-level bpf_trace_printk event before our load */
	const char *pin;	/* --pin NAME: pin, leave the probes running, exit */
	bool replace;		/* --replace: an existing NAME is replaced */
	const char *vmlinux;	/* --vmlinux PATH: kernel DWARF */
	bool no_cache;		/* --no-cache: no DWARF index */
	bool no_follow;		/* --no-follow: the process alone, not its tree */
	bool quiet;		/* -q: no session lines on stderr */
	const char *output;	/* -o FILE: bpfprobe's records go there */
	struct bp_cflags cflags;	/* --cflags, -I, -D: PROG.c's compile */
};

enum { OPT_JSON = 256, OPT_QUIET_META, OPT_NO_MAP_DUMP, OPT_PERF_PAGES };
enum { OPT_PIN = 300, OPT_REPLACE };
enum { OPT_VMLINUX = 320, OPT_NO_FOLLOW, OPT_NO_CACHE, OPT_CFLAGS };

static const struct bp_cli_opt load_opts[] = {
	BP_PID_OPTION,
	BP_NO_FOLLOW_OPTION(OPT_NO_FOLLOW),
	BP_ALL_CPUS_OPTION,
	BP_JSON_RECORDS_OPTION(OPT_JSON),
	BP_OUTPUT_OPTION,
	BP_QUIET_OPTION,
	{ "quiet-meta", OPT_QUIET_META, no_argument, NULL,
	  "printk lines without TIME COMM PID CPU, records\n"
	  "without their map's name" },
	{ "no-map-dump", OPT_NO_MAP_DUMP, no_argument, NULL, "do not print the maps at exit" },
	{ "perf-pages", OPT_PERF_PAGES, required_argument, "N",
	  "pages per CPU of each perf buffer, a power of 2\n"
	  "(default 64)" },
	{ "pin", OPT_PIN, required_argument, "NAME",
	  "pin the session as NAME and exit; the probes keep\n"
	  "running until bpfprobe unload NAME (no CMD)" },
	{ "replace", OPT_REPLACE, no_argument, NULL, "with --pin: replace a session named NAME" },
	BP_VMLINUX_OPTION(OPT_VMLINUX),
	BP_NO_CACHE_OPTION(OPT_NO_CACHE),
	BP_CFLAGS_OPTIONS(OPT_CFLAGS),
	BP_VERBOSE_OPTION,
	{}
};

static const struct bp_cli_cmd load_cmd = {
	.name = "load",
	.operands = "OBJ.o|PROG.c [--] [CMD [ARGS...]]",
	.what = "Loads OBJ.o (or compiles PROG.c with clang and loads that), fetches the\n"
		"arguments its SEC() annotations name, attaches, and prints what the\n"
		"programs output (bpf_trace_printk lines, ring and perf buffer records,\n"
		"maps at exit) on stdout. With CMD: starts it held, attaches, lets it\n"
		"run, and exits with its status; its process and every process it\n"
		"starts are traced. Without CMD: runs until SIGINT/SIGTERM.\n"
		"Options go before OBJ.o; what follows it is CMD.",
	.opts = load_opts,
	.options_first = true,
};

/* --pin leaves probes running and exits: no command to run, no output. */
static int check_pin_args(const struct load_args *a)
{
	if (a->replace && !a->pin) {
		fprintf(stderr, "bpfprobe load: --replace needs --pin NAME\n");
		return -EINVAL;
	}
	if (!a->pin)
		return 0;
	if (a->cmd) {
		fprintf(stderr, "bpfprobe load: --pin and a command exclude each other (pinned probes outlive bpfprobe)\n");
		return -EINVAL;
	}
	switch (bpfprobe_pin__exists(a->pin)) {
	case 0:
		return 0;
	case 1:
		if (a->replace)
			return 0;
		fprintf(stderr, "bpfprobe load: pin name '%s' exists (%s/%s): unload it first or use --replace\n",
			a->pin, bpfprobe_pin__root(), a->pin);
		return -EEXIST;
	default:
		fprintf(stderr, "bpfprobe load: bad pin name '%s': use up to 64 letters, digits, '_' or '-', starting with a letter or digit\n",
			a->pin);
		return -EINVAL;
	}
}

/* Attaches, pins as a->pin and returns the exit code; the probes stay. */
static int load_pinned(struct bpfprobe_object *obj, const struct load_args *a,
		       const struct bpfprobe_attach_opts *aopts, const struct bp_pid_hold *held)
{
	struct bpfprobe_pin_opts popts = { .sz = sizeof(popts), .replace = a->replace };
	int code = 1;

	if (bp_pid_hold__check(held, "load", "nothing attached"))
		return 1;
	if (bpfprobe_object__attach(obj, aopts) && !bp_session_signal)
		return 1;
	if (bp_session__interrupted(&code))
		return code;
	/* the process that held the pid during the attach was the one given */
	if (bp_pid_hold__check(held, "load", "nothing pinned"))
		return 1;
	if (bpfprobe_object__pin(obj, a->pin, &popts))
		return 1;
	printf("pinned %s: %zu probe point(s) keep running; bpfprobe unload %s removes them\n",
	       a->pin, bpfprobe_object__point_cnt(obj), a->pin);
	return 0;
}

static int parse_option(int c, struct load_args *a)
{
	char *end;

	switch (c) {
	case 'p':
		return bp_cli__parse_pid("load", optarg, &a->pid);
	case 'a':
		a->system_wide = true;
		return 0;
	case 'v':
		bp_cli_verbose++;
		return 0;
	case OPT_JSON:
		a->json = true;
		return 0;
	case OPT_QUIET_META:
		a->quiet_meta = true;
		return 0;
	case OPT_NO_MAP_DUMP:
		a->no_map_dump = true;
		return 0;
	case OPT_PERF_PAGES: {
		unsigned long n = strtoul(optarg, &end, 10);

		if (*end || !n || (n & (n - 1)) || n > (1UL << 20)) {
			fprintf(stderr, "bpfprobe load: --perf-pages '%s': want a power of 2 from 1 to 1048576\n",
				optarg);
			return -EINVAL;
		}
		a->perf_pages = n;
		return 0;
	}
	case OPT_PIN:
		a->pin = optarg;
		return 0;
	case OPT_REPLACE:
		a->replace = true;
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
		return bp_cflags__option(&a->cflags, c, OPT_CFLAGS, optarg) ? -EINVAL : 0;
	}
}

static int parse_args(int argc, char **argv, struct load_args *a)
{
	int c;

	a->pid = -1;
	optind = 0;
	while ((c = bp_cli__next(&load_cmd, argc, argv)) != -1)
		if (parse_option(c, a))
			return -EINVAL;
	if (optind >= argc) {
		fprintf(stderr, "bpfprobe load: missing the BPF object\n");
		bp_cli__usage(&load_cmd);
		return -EINVAL;
	}
	a->obj_path = argv[optind++];
	if (optind < argc && !strcmp(argv[optind], "--")) {
		optind++;
	} else if (optind < argc && argv[optind][0] == '-') {
		/* `load prog.c -p 1`: what follows the object is the command */
		fprintf(stderr, "bpfprobe load: option '%s' after the object '%s': options go before the object (bpfprobe load [OPTIONS] %s [--] [CMD...]); a command starting with '-' goes after '--'\n",
			argv[optind], a->obj_path, a->obj_path);
		return -EINVAL;
	}
	if (optind < argc)
		a->cmd = &argv[optind];
	if (a->cmd && a->pid > 0) {
		fprintf(stderr, "bpfprobe load: -p and a command exclude each other\n");
		return -EINVAL;
	}
	if (a->cflags.n && !bp_is_c_source(a->obj_path)) {
		fprintf(stderr, "bpfprobe load: --cflags, -I and -D are for a C source (PROG.c), not '%s'\n",
			a->obj_path);
		return -EINVAL;
	}
	return check_pin_args(a);
}

/* Only a failed write ends the session: a read that failed is tried again. */
static int poll_output(void *out, int timeout_ms)
{
	int n = bpfprobe_output__poll(out, timeout_ms);
	int err = bpfprobe_output__write_error(out);

	return err ? err : n < 0 ? 0 : n;
}

/*
 * Streams output until the workload exits or a signal comes, then prints
 * the maps. Returns the exit code; *failed when the records could not all
 * be written (said).
 */
static int run_loop(struct bpfprobe_object *obj, struct bpfprobe_output *out,
		    const struct load_args *a, pid_t child, FILE *records, bool *failed)
{
	/* stdout is a stream of std_streams.c's: its descriptor is 1 */
	struct bp_session_loop l = {
		.poll = poll_output, .ctx = out, .child = child, .obj = obj,
		.wait_fd = bpfprobe_output__fd(out),
		.out_fd = records == stdout ? STDOUT_FILENO : fileno(records),
	};
	int code = bp_session__run(&l), err;
	uint64_t lost;

	if (!l.write_err) {
		bpfprobe_output__drain(out);
		if (!a->no_map_dump && !bpfprobe_output__write_error(out))
			bpfprobe_output__dump_maps(out);
	}
	/* the session's (a reader gone before a write told) or the output's */
	err = l.write_err ? l.write_err : bpfprobe_output__write_error(out);
	*failed = err != 0;
	if (err)
		return bp_session__write_failed("load", a->output ? a->output : "stdout", err,
						bpfprobe_output__unwritten(out),
						a->no_map_dump ? NULL : "the maps at exit",
						l.child_stopped);
	lost = bpfprobe_output__lost(out);
	if (lost && !a->json)
		fprintf(stderr, "bpfprobe: %llu records were lost in all\n", (unsigned long long)lost);
	return code;
}

static struct bpfprobe_output *open_output(struct bpfprobe_object *obj, const struct load_args *a,
					   FILE *file)
{
	struct bpfprobe_output_opts oopts = {
		.sz = sizeof(oopts), .json = a->json, .quiet_meta = a->quiet_meta,
		.perf_pages = a->perf_pages, .file = file,
		.global_printk_off = a->global_printk_was == 0,
	};

	return bpfprobe_output__new(obj, &oopts);
}

/* Whom the probes trace (session.h). */
static pid_t scope_of(const struct load_args *a, const struct bp_workload *w,
		      struct bp_load_scope *s)
{
	struct bp_session_args sa = {
		.cmd = a->cmd, .pid = a->pid, .system_wide = a->system_wide,
		.no_follow = a->no_follow, .quiet = a->quiet,
	};

	return bp_session__scope(&sa, w, s);
}

int cmd_load(int argc, char **argv)
{
	struct bp_workload w = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct bpfprobe_attach_opts aopts = { .sz = sizeof(aopts), .pid = -1 };
	struct bpfprobe_object *obj = NULL;
	struct bpfprobe_output *out = NULL;
	struct bpfprobe_open_opts oopts = { .sz = sizeof(oopts) };
	struct bp_load_scope scope = {};
	struct bp_pid_hold held = { .pid = -1, .pidfd = -1 };
	struct load_args a = {};
	char compiled[PATH_MAX];
	FILE *records = NULL;
	bool failed = false;
	pid_t global;
	int err, code = 1;

	if (parse_args(argc, argv, &a)) {
		bp_cflags__free(&a.cflags);
		return 2;
	}
	/* first: without privileges nothing else can work, and nothing else
	 * is said (tracefs, say, is often unreadable to the same user) */
	if (bp_cli__check_privileges("load")) {
		bp_cflags__free(&a.cflags);
		return 1;
	}
	/* -o first: a bad path fails before any slow step */
	records = a.pin ? stdout : bp_session__open_records("load", a.output);
	if (!records)
		return 1;
	/* -p: that process, from now on, whatever its pid becomes */
	if (bp_pid_hold__open(&held, "load", a.pid))
		goto out;
	if (bp_is_c_source(a.obj_path)) {
		if (bp_compile_c(a.obj_path, bp_cflags__list(&a.cflags), a.no_cache, compiled,
				 sizeof(compiled)))
			goto out;
		oopts.source = a.obj_path;
		a.obj_path = compiled;
	}
	bp_session__install_signals();
	oopts.vmlinux = a.vmlinux;
	oopts.no_cache = a.no_cache;
	/* -p: exec= as that process sees it (its root, a container's) */
	oopts.view_pid = a.pid > 0 ? a.pid : 0;
	/* the instances' form, as scope_of() will most likely decide (attach
	 * loads them again when it does not) */
	oopts.follow = !a.system_wide && !a.no_follow && (a.cmd || a.pid > 0);
	obj = bpfprobe_object__open(a.obj_path, &oopts);
	if (!obj)
		goto out;
	/* right before our load turns it on: open_output() turns it back off
	 * (pinned probes keep it: the global trace_pipe is where they print) */
	a.global_printk_was = a.pin ? 1 : bpfprobe_output__global_printk();
	err = bpfprobe_object__load(obj);
	/* a signal first: the load stopped for it (-EINTR) */
	if (bp_session__interrupted(&code) || err)
		goto out;
	if (a.pin) {
		global = scope_of(&a, &w, &scope);
		aopts.pid = a.pid;
		aopts.follow = scope.follow;
		aopts.global_pid = global;
		code = load_pinned(obj, &a, &aopts, &held);
		goto out;
	}
	/* before attaching: no early record is lost */
	out = open_output(obj, &a, records);
	if (!out)
		goto out;
	if (a.cmd) {
		/* --json without -o: the workload's stdout goes to stderr, so
		 * our stdout holds JSON Lines alone */
		w.stdout_to_stderr = a.json && !a.output;
		err = bp_workload__prepare(&w, a.cmd);
		if (err) {
			fprintf(stderr, "bpfprobe: cannot start '%s': %s\n", a.cmd[0], strerror(-err));
			goto out;
		}
	}
	global = scope_of(&a, &w, &scope);
	aopts.pid = scope.system_wide ? -1 : scope.pid;
	aopts.follow = scope.follow;
	aopts.global_pid = global;
	/* the run loop looks at what the followed processes exec */
	aopts.watch_execs = scope.follow;
	/* printk lines of the traced processes only (see docs/output.md) */
	if (global > 0 && bpfprobe_output__scope_pid(out, global))
		goto out;
	if (bp_session__interrupted(&code) ||
	    bp_pid_hold__check(&held, "load", "nothing attached"))
		goto out;
	err = bpfprobe_object__attach(obj, &aopts);
	if (bp_session__interrupted(&code) || err)
		goto out;
	/* the process that held the pid during the attach was the one given */
	if (bp_pid_hold__check(&held, "load", "detached, nothing traced"))
		goto out;
	if (!a.quiet)
		bp_report__attached(obj, &scope);
	if (!a.quiet && !a.cmd && a.pid > 0)
		bp_report__check_maps(obj, a.pid);
	if (bp_session__interrupted(&code))
		goto out;
	if (a.cmd && bp_workload__start(&w, a.cmd[0])) {
		code = 127;	/* like a shell that cannot run the command */
		goto out;
	}
	code = run_loop(obj, out, &a, w.pid, records, &failed);
	w.pid = -1;
	if (!a.quiet && !failed)
		bp_report__never_ran(obj, &scope);
out:
	bp_pid_hold__close(&held);
	bp_workload__abort(&w);
	/* before the object: perf buffers clear their slots in its maps */
	bpfprobe_output__free(out);
	bpfprobe_object__destroy(obj);
	if (records && records != stdout)
		fclose(records);
	bp_cflags__free(&a.cflags);
	return code;
}
