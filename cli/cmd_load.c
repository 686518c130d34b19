// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpfprobe load: open, load, attach, stream output, clean up. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpfprobe/bpfprobe.h>
#include "cli/commands.h"
#include "cli/compile_c.h"
#include "cli/printk_pipe.h"
#include "cli/workload.h"

struct load_args {
	const char *obj_path;
	char **cmd;
	pid_t pid;
	bool system_wide;
};

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

static int parse_args(int argc, char **argv, struct load_args *a)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
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
		case 'h':
			printf("usage: bpfprobe load [-v] [-a] [-p PID] OBJ.o [--] [CMD [ARGS...]]\n");
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
	return 0;
}

/* Streams output until the workload exits or a signal comes. Returns the exit code. */
static int run_loop(struct bp_printk_pipe *pp, pid_t child)
{
	struct pollfd pfd = { .fd = bp_printk_pipe__fd(pp), .events = POLLIN };
	int status, code = 0;

	for (;;) {
		/* trace_pipe does not wake poll for every event: poll is a pacing
		 * timer here, the non-blocking drain does the work */
		poll(&pfd, 1, 50);
		bp_printk_pipe__drain(pp, stdout);
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
	bp_printk_pipe__drain(pp, stdout);
	return code;
}

int cmd_load(int argc, char **argv)
{
	struct bp_workload w = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct bpfprobe_attach_opts aopts = { .sz = sizeof(aopts), .pid = -1 };
	struct bpfprobe_object *obj = NULL;
	struct bp_printk_pipe *pp = NULL;
	struct load_args a = {};
	char compiled[PATH_MAX];
	int err, code = 1;

	if (parse_args(argc, argv, &a))
		return 2;
	if (bp_is_c_source(a.obj_path)) {
		if (bp_compile_c(a.obj_path, compiled, sizeof(compiled)))
			return 1;
		a.obj_path = compiled;
	}
	install_signals();
	obj = bpfprobe_object__open(a.obj_path, NULL);
	if (!obj)
		return 1;
	err = bpfprobe_object__load(obj);
	if (err)
		goto out;
	pp = bp_printk_pipe__open();
	if (!pp)
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
	err = bpfprobe_object__attach(obj, &aopts);
	if (err)
		goto out;
	if (a.cmd && bp_workload__start(&w, a.cmd[0])) {
		code = 127;	/* like a shell that cannot run the command */
		goto out;
	}
	code = run_loop(pp, w.pid);
	w.pid = -1;
out:
	bp_workload__abort(&w);
	bpfprobe_object__destroy(obj);
	bp_printk_pipe__close(pp);
	return code;
}
