// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfprobe load: open, load, attach, stream output, clean up. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/commands.h"
#include "cli/compile_c.h"
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
};

enum { OPT_JSON = 256, OPT_QUIET_META, OPT_NO_MAP_DUMP, OPT_PERF_PAGES };
enum { OPT_PIN = 300, OPT_REPLACE };
enum { OPT_VMLINUX = 320 };

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

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
		       const struct bpfprobe_attach_opts *aopts)
{
	struct bpfprobe_pin_opts popts = { .sz = sizeof(popts), .replace = a->replace };

	if (bpfprobe_object__attach(obj, aopts))
		return 1;
	if (bpfprobe_object__pin(obj, a->pin, &popts))
		return 1;
	printf("pinned %s: %zu probe point(s) keep running; bpfprobe unload %s removes them\n",
	       a->pin, bpfprobe_object__point_cnt(obj), a->pin);
	return 0;
}

static int parse_args(int argc, char **argv, struct load_args *a)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "quiet-meta", no_argument, NULL, OPT_QUIET_META },
		{ "no-map-dump", no_argument, NULL, OPT_NO_MAP_DUMP },
		{ "perf-pages", required_argument, NULL, OPT_PERF_PAGES },
		{ "pin", required_argument, NULL, OPT_PIN },
		{ "replace", no_argument, NULL, OPT_REPLACE },
		{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
		{}
	};
	int c;

	a->pid = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:avh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': {
			char *end;

			a->pid = strtol(optarg, &end, 10);
			if (*end || a->pid <= 0) {
				fprintf(stderr, "bpfprobe load: bad pid '%s'\n", optarg);
				return -EINVAL;
			}
			break;
		}
		case 'a':
			a->system_wide = true;
			break;
		case 'v':
			bp_cli_verbose++;
			break;
		case OPT_JSON:
			a->json = true;
			break;
		case OPT_QUIET_META:
			a->quiet_meta = true;
			break;
		case OPT_NO_MAP_DUMP:
			a->no_map_dump = true;
			break;
		case OPT_PERF_PAGES: {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (*end || !n || (n & (n - 1)) || n > (1UL << 20)) {
				fprintf(stderr, "bpfprobe load: --perf-pages '%s': want a power of 2 from 1 to 1048576\n",
					optarg);
				return -EINVAL;
			}
			a->perf_pages = n;
			break;
		}
		case OPT_PIN:
			a->pin = optarg;
			break;
		case OPT_REPLACE:
			a->replace = true;
			break;
		case OPT_VMLINUX:
			a->vmlinux = optarg;
			break;
		case 'h':
			printf("usage: bpfprobe load [-v] [-a] [-p PID] [--json] [--quiet-meta] [--no-map-dump] [--perf-pages N] [--pin NAME [--replace]] [--vmlinux PATH] OBJ.o|PROG.c [--] [CMD [ARGS...]]\n");
			exit(0);
		default:
			return -EINVAL;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "bpfprobe load: missing the BPF object (usage: bpfprobe load [-v] [-a] [-p PID] OBJ.o [--] [CMD...])\n");
		return -EINVAL;
	}
	a->obj_path = argv[optind++];
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	if (optind < argc)
		a->cmd = &argv[optind];
	if (a->cmd && a->pid > 0) {
		fprintf(stderr, "bpfprobe load: -p and a command exclude each other\n");
		return -EINVAL;
	}
	return check_pin_args(a);
}

/* Streams output until the workload exits or a signal comes. Returns the exit code. */
static int run_loop(struct bpfprobe_output *out, pid_t child)
{
	int status, code = 0;

	for (;;) {
		/* bounded: the workload and signals are checked in between */
		bpfprobe_output__poll(out, 50);
		if (got_signal) {
			if (child <= 0)
				break;
			kill(child, got_signal);
			got_signal = 0;
		}
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			code = bp_workload__exit_code(status);
			break;
		}
	}
	bpfprobe_output__drain(out);
	return code;
}

static struct bpfprobe_output *open_output(struct bpfprobe_object *obj, const struct load_args *a)
{
	struct bpfprobe_output_opts oopts = {
		.sz = sizeof(oopts), .json = a->json, .quiet_meta = a->quiet_meta,
		.perf_pages = a->perf_pages,
		.global_printk_off = a->global_printk_was == 0,
	};

	return bpfprobe_output__new(obj, &oopts);
}

static void finish_output(struct bpfprobe_output *out, const struct load_args *a)
{
	uint64_t lost;

	if (!a->no_map_dump)
		bpfprobe_output__dump_maps(out);
	lost = bpfprobe_output__lost(out);
	if (lost && !a->json)
		fprintf(stderr, "bpfprobe: %llu records were lost in all\n", (unsigned long long)lost);
}

int cmd_load(int argc, char **argv)
{
	struct bp_workload w = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct bpfprobe_attach_opts aopts = { .sz = sizeof(aopts), .pid = -1 };
	struct bpfprobe_object *obj = NULL;
	struct bpfprobe_output *out = NULL;
	struct bpfprobe_open_opts oopts = { .sz = sizeof(oopts) };
	struct load_args a = {};
	char compiled[PATH_MAX];
	int err, code = 1;

	if (parse_args(argc, argv, &a))
		return 2;
	if (bp_is_c_source(a.obj_path)) {
		if (bp_compile_c(a.obj_path, NULL, compiled, sizeof(compiled)))
			return 1;
		a.obj_path = compiled;
	}
	install_signals();
	oopts.vmlinux = a.vmlinux;
	obj = bpfprobe_object__open(a.obj_path, &oopts);
	if (!obj)
		return 1;
	/* right before our load turns it on: open_output() turns it back off
	 * (pinned probes keep it: the global trace_pipe is where they print) */
	a.global_printk_was = a.pin ? 1 : bpfprobe_output__global_printk();
	err = bpfprobe_object__load(obj);
	if (err)
		goto out;
	if (a.pin) {
		aopts.pid = a.pid;
		code = load_pinned(obj, &a, &aopts);
		goto out;
	}
	/* before attaching: no early record is lost */
	out = open_output(obj, &a);
	if (!out)
		goto out;
	aopts.pid = a.pid;
	if (a.cmd) {
		err = bp_workload__prepare(&w, a.cmd);
		if (err) {
			fprintf(stderr, "bpfprobe: cannot start '%s': %s\n", a.cmd[0], strerror(-err));
			goto out;
		}
		aopts.pid = a.system_wide ? -1 : w.pid;
	}
	/* printk lines of the traced process only (see README "Output") */
	if (aopts.pid > 0 && bpfprobe_output__scope_pid(out, aopts.pid))
		goto out;
	err = bpfprobe_object__attach(obj, &aopts);
	if (err)
		goto out;
	if (a.cmd && bp_workload__start(&w, a.cmd[0])) {
		code = 127;	/* like a shell that cannot run the command */
		goto out;
	}
	code = run_loop(out, w.pid);
	w.pid = -1;
	finish_output(out, &a);
out:
	bp_workload__abort(&w);
	/* before the object: perf buffers clear their slots in its maps */
	bpfprobe_output__free(out);
	bpfprobe_object__destroy(obj);
	return code;
}
