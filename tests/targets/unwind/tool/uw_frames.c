// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The unwinder on a sample file (tests/targets/unwind/capture), for
 * tests/e2e/unwind.sh to compare with gdb:
 *   uw_frames [--note-wait] [--sample-only] [--live-stack] [--repeat N] SAMPLE
 *   uw_frames --at FILE SAMPLE
 * prints the stack as the text form (lines "TEXT ..."), the folded form
 * ("FOLDED ..."), and one line per frame in the form the gdb script
 * (frames.py) prints:
 *   FRAME <n> <func> <inline|-> <file base name>:<line> <module, real path>
 *   STOP <reason>			(when unwinding stopped early)
 * With --note-wait, it first notes the sample's process, prints "noted",
 * and waits for the process to exit before unwinding (its modules then
 * come from the snapshot, its stack from the sample alone). With --repeat,
 * it unwinds the sample N more times and prints "REPEAT <N> <us per stack>".
 * With --at, for each line "LABEL ADDR" (hex) of FILE it prints the frames
 * of a frame 0 at ADDR (the sample's process's address, in a copy of the
 * sample), as tests/targets/unwind/gdb/uw_gdb_at.py prints gdb's:
 *   AT <label> <func>|<inline|->|<file base name>:<line> ...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "unwind/unwinder.h"

static void *read_file(const char *path, size_t *len)
{
	size_t cap = 1 << 16;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "rb");

	if (!buf || !f) {
		free(buf);
		if (f)
			fclose(f);
		return NULL;
	}
	*len = fread(buf, 1, cap, f);
	fclose(f);
	return buf;
}

static int wait_exit(pid_t pid)
{
	int fd = syscall(SYS_pidfd_open, pid, 0);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (fd < 0)
		return errno == ESRCH ? 0 : -errno;
	if (poll(&pfd, 1, 60000) != 1) {
		close(fd);
		return -ETIMEDOUT;
	}
	close(fd);
	return 0;
}

static const char *base(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p ? p : "?";
}

/* --at: frame 0's frames at each address of the file */
static int frames_at(struct bp_unwinder *u, struct bp_stack_sample *s, size_t len, const char *path)
{
	char label[128];
	unsigned long long addr;
	struct bp_frames f;
	FILE *in = fopen(path, "r");
	int i;

	if (!in)
		return 1;
	while (fscanf(in, "%127s %llx", label, &addr) == 2) {
		s->regs[0] = addr;
		if (bp_unwinder__user(u, s, len, &f))
			return 1;
		printf("AT %s", label);
		/* frame 0's: its inlined calls, up to its function */
		for (i = 0; i < f.n; i++) {
			const struct bp_frame *fr = &f.frames[i];

			printf(" %s|%s|%s:%d", fr->func ? fr->func : "??", fr->is_inline ? "inline" : "-",
			       fr->file ? base(fr->file) : "?", fr->line);
			if (!fr->is_inline)
				break;
		}
		printf("\n");
		bp_frames__free(&f);
	}
	fclose(in);
	return 0;
}

int main(int argc, char **argv)
{
	struct bp_unwinder_opts opts = { .sz = sizeof(opts) };
	const char *at = NULL;
	bool note_wait = false;
	long repeat = 0;
	struct bp_stack_sample *s;
	struct bp_unwinder *u;
	struct bp_frames f;
	char real[PATH_MAX], *folded;
	size_t len;
	int i, err;

	for (i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--note-wait"))
			note_wait = true;
		else if (!strcmp(argv[i], "--sample-only"))
			opts.sample_only = true;
		else if (!strcmp(argv[i], "--live-stack"))
			opts.live_stack = true;
		else if (!strcmp(argv[i], "--at") && i + 1 < argc - 1)
			at = argv[++i];
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc - 1)
			repeat = atol(argv[++i]);
	}
	if (argc < 2) {
		fprintf(stderr, "usage: %s [--note-wait] [--sample-only] [--live-stack] [--repeat N] SAMPLE\n", argv[0]);
		return 2;
	}
	s = read_file(argv[argc - 1], &len);
	if (!s || len < sizeof(*s)) {
		fprintf(stderr, "%s: cannot read a sample\n", argv[argc - 1]);
		return 1;
	}
	u = bp_unwinder__new(&opts);
	if (!u)
		return 1;
	if (note_wait) {
		err = bp_unwinder__note_pid(u, s->pid);
		if (err) {
			fprintf(stderr, "note_pid %u: %s\n", s->pid, strerror(-err));
			return 1;
		}
		printf("noted\n");
		fflush(stdout);
		err = wait_exit(s->pid);
		if (err) {
			fprintf(stderr, "waiting for %u: %s\n", s->pid, strerror(-err));
			return 1;
		}
	}
	if (at)
		return frames_at(u, s, len, at);
	err = bp_unwinder__user(u, s, len, &f);
	if (err) {
		fprintf(stderr, "unwind: %s\n", strerror(-err));
		return 1;
	}
	bp_frames__fprint(&f, stdout, "TEXT ");
	folded = bp_frames__folded(&f);
	printf("FOLDED %s\n", folded ? folded : "?");
	free(folded);
	for (i = 0; i < f.n; i++) {
		const struct bp_frame *fr = &f.frames[i];
		const char *mod = fr->module;

		if (mod && realpath(mod, real))
			mod = real;
		printf("FRAME %d %s %s %s:%d %s\n", i, fr->func ? fr->func : "??",
		       fr->is_inline ? "inline" : "-", fr->file ? base(fr->file) : "?", fr->line,
		       mod ? mod : "?");
	}
	if (f.stop != BP_UNWIND_END)
		printf("STOP %s\n", f.reason);
	bp_frames__free(&f);
	if (repeat > 0) {
		struct timespec a, b;
		long k;

		clock_gettime(CLOCK_MONOTONIC, &a);
		for (k = 0; k < repeat; k++) {
			if (bp_unwinder__user(u, s, len, &f))
				return 1;
			bp_frames__free(&f);
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		printf("REPEAT %ld %.2f\n", repeat,
		       ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / repeat);
	}
	bp_unwinder__free(u);
	free(s);
	return 0;
}
