// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "cli/load_report.h"

static void print_cmd(FILE *f, char *const *cmd)
{
	for (int i = 0; cmd[i]; i++) {
		if (i == 8) {
			fprintf(f, " ...");
			break;
		}
		fprintf(f, "%s%s", i ? " " : "", cmd[i]);
	}
}

static size_t kernel_points(const struct bpfprobe_object *obj)
{
	size_t n = 0;

	for (size_t i = 0; i < bpfprobe_object__program_cnt(obj); i++) {
		struct bpfprobe_program_info pi = { .sz = sizeof(pi) };

		if (!bpfprobe_object__program_info(obj, i, &pi) && pi.kernel)
			n += pi.point_cnt;
	}
	return n;
}

void bp_report__attached(const struct bpfprobe_object *obj, const struct bp_load_scope *s)
{
	size_t n = bpfprobe_object__point_cnt(obj), nk = kernel_points(obj);

	fprintf(stderr, "bpfprobe: %zu probe point%s attached", n, n == 1 ? "" : "s");
	if (s->cmd) {
		fprintf(stderr, "; running ");
		print_cmd(stderr, s->cmd);
		if (s->system_wide)
			fprintf(stderr, " (probes fire in every process: -a)");
		else if (!s->follow)
			fprintf(stderr, " (its own process only: --no-follow)");
	} else if (s->pid > 0) {
		fprintf(stderr, "; tracing process %d%s until Ctrl-C", (int)s->pid,
			s->follow ? " and the processes it starts" : "");
	} else {
		fprintf(stderr, "; tracing every process until Ctrl-C");
	}
	fprintf(stderr, "\n");
	if (nk && !s->system_wide)
		fprintf(stderr, "bpfprobe: %zu of them %s kernel probe%s, which fire%s in every process\n",
			nk, nk == 1 ? "is a" : "are", nk == 1 ? "" : "s", nk == 1 ? "s" : "");
}

/* A point's file for messages: both paths when the traced process calls
 * it otherwise (exec= looked up in its root, -p) than we do. */
static const char *binary_text(const struct bpfprobe_point_info *pt, char *buf, size_t len)
{
	if (!pt->seen_as)
		return pt->binary;
	snprintf(buf, len, "%s as process %d sees it (%s on the host)", pt->seen_as,
		 (int)pt->seen_by, pt->binary);
	return buf;
}

/* Whether /proc/PID/maps has a mapping of the file st describes. */
static int maps_file(pid_t pid, const struct stat *st)
{
	char path[64], line[4096];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned int maj, min;
		unsigned long long ino;

		/* start-end perms offset MAJ:MIN inode path */
		if (sscanf(line, "%*s %*s %*s %x:%x %llu", &maj, &min, &ino) == 3 &&
		    ino == (unsigned long long)st->st_ino && maj == major(st->st_dev) &&
		    min == minor(st->st_dev))
			found = 1;
	}
	fclose(f);
	return found;
}

void bp_report__check_maps(const struct bpfprobe_object *obj, pid_t pid)
{
	const char *done[64];
	int ndone = 0;

	for (size_t i = 0; i < bpfprobe_object__point_cnt(obj); i++) {
		struct bpfprobe_point_info pt = { .sz = sizeof(pt) };
		struct bpfprobe_program_info pi = { .sz = sizeof(pi) };
		char both[2 * PATH_MAX + 64];
		struct stat st;
		bool seen = false;
		int r;

		if (bpfprobe_object__point_info(obj, i, &pt) || !pt.binary)
			continue;
		for (size_t k = 0; k < bpfprobe_object__program_cnt(obj); k++)
			if (!bpfprobe_object__program_info(obj, k, &pi) &&
			    !strcmp(pi.name, pt.program))
				break;
		if (pi.kernel)
			continue;
		for (int k = 0; k < ndone; k++)
			seen |= !strcmp(done[k], pt.binary);
		if (seen || ndone == 64)
			continue;
		done[ndone++] = pt.binary;
		if (stat(pt.binary, &st))
			continue;
		r = maps_file(pid, &st);
		if (r == 0)
			fprintf(stderr, "bpfprobe: warning: process %d does not map %s (program '%s'): its probes there fire only when it, or a process it starts, loads that file\n",
				(int)pid, binary_text(&pt, both, sizeof(both)), pt.program);
	}
}

struct execs {
	char names[512];
	size_t len;
	const char *want;	/* a binary's name, cut like a comm */
	bool found;
};

static int add_exec(const char *comm, void *ctx)
{
	struct execs *e = ctx;

	if (!strcmp(comm, e->want))
		e->found = true;
	if (e->len < sizeof(e->names) - 20)
		e->len += snprintf(e->names + e->len, sizeof(e->names) - e->len, "%s%s",
				   e->len ? ", " : "", comm);
	return 0;
}

static bool is_library(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return strstr(base, ".so") && (strstr(base, ".so.") || !strcmp(strstr(base, ".so"), ".so"));
}

/* The first probe point of program name. */
static bool first_point(const struct bpfprobe_object *obj, const char *name,
			struct bpfprobe_point_info *pt)
{
	for (size_t i = 0; i < bpfprobe_object__point_cnt(obj); i++) {
		pt->sz = sizeof(*pt);
		if (!bpfprobe_object__point_info(obj, i, pt) && !strcmp(pt->program, name))
			return true;
	}
	return false;
}

/* "process 1234 ran /srv/root/usr/bin/lua5.4, a copy of /usr/bin/lua5.4
 * (same build ID); uprobes are per file: name that path in exec=" */
static void print_copy(const struct bpfprobe_copy_info *c)
{
	fprintf(stderr, "process %d %s %s, a copy of %s (same build ID); uprobes are per file: name that path in exec=\n",
		(int)c->pid, c->ran ? "ran" : "mapped", c->path, c->of);
}

/* A copy of binary that a traced process ran or mapped and that was not
 * attached: *c. */
static bool unattached_copy(const struct bpfprobe_object *obj, const char *binary,
			    struct bpfprobe_copy_info *c)
{
	for (size_t i = 0; i < bpfprobe_object__copy_cnt(obj); i++) {
		c->sz = sizeof(*c);
		if (!bpfprobe_object__copy_info(obj, i, c) && !c->attached &&
		    (c->ran || c->mapped) && !strcmp(c->of, binary))
			return true;
	}
	return false;
}

static void why_never(const struct bpfprobe_object *obj, const struct bp_load_scope *s,
		      const struct bpfprobe_program_info *pi,
		      const struct bpfprobe_program_stats *st)
{
	struct bpfprobe_copy_info copy = {};
	struct bpfprobe_point_info pt = {};
	char comm[16], both[2 * PATH_MAX + 64];
	const char *base, *bin;
	struct execs e = {};

	fprintf(stderr, "bpfprobe: program '%s' never ran: ", pi->name);
	/* the likeliest reason: a copy ran instead */
	if (!pi->kernel && first_point(obj, pi->name, &pt) &&
	    unattached_copy(obj, pt.binary, &copy)) {
		print_copy(&copy);
		return;
	}
	if (st->refused) {
		fprintf(stderr, "its %" PRIu64 " hit%s came from processes it does not trace (use -a to trace every process)\n",
			st->refused, st->refused == 1 ? "" : "s");
		return;
	}
	if (!first_point(obj, pi->name, &pt)) {
		fprintf(stderr, "it has no probe point\n");
		return;
	}
	if (pi->kernel) {
		fprintf(stderr, "kernel function %s was never called\n", pt.func);
		return;
	}
	bin = binary_text(&pt, both, sizeof(both));
	base = strrchr(pt.seen_as ? pt.seen_as : pt.binary, '/');
	base = base ? base + 1 : pt.binary;
	if (is_library(pt.binary)) {
		fprintf(stderr, "%s in %s was never called%s (or the library was never loaded)\n",
			pt.func, bin, s->system_wide ? "" : " by the traced processes");
		return;
	}
	snprintf(comm, sizeof(comm), "%s", base);
	e.want = comm;
	if (s->follow && s->cmd)
		bpfprobe_object__for_each_followed_exec(obj, add_exec, &e);
	if (s->follow && s->cmd && !e.found)
		fprintf(stderr, "its binary %s was never run by the traced processes, which ran: %s\n",
			bin, e.len ? e.names : "(nothing bpfprobe saw)");
	else
		fprintf(stderr, "%s in %s was never called%s\n", pt.func, bin,
			s->system_wide ? "" : " by the traced processes");
}

/* Whether some program on binary never ran: its line says the copy. */
static bool said_by_never_ran(const struct bpfprobe_object *obj, const char *binary)
{
	for (size_t i = 0; i < bpfprobe_object__program_cnt(obj); i++) {
		struct bpfprobe_program_info pi = { .sz = sizeof(pi) };
		struct bpfprobe_program_stats st = { .sz = sizeof(st) };
		struct bpfprobe_point_info pt = {};

		if (!bpfprobe_object__program_info(obj, i, &pi) && !pi.kernel &&
		    !bpfprobe_object__program_stats(obj, i, &st) && !st.ran &&
		    first_point(obj, pi.name, &pt) && !strcmp(pt.binary, binary))
			return true;
	}
	return false;
}

void bp_report__never_ran(const struct bpfprobe_object *obj, const struct bp_load_scope *s)
{
	struct bpfprobe_follow_stats fs = { .sz = sizeof(fs) };

	for (size_t i = 0; i < bpfprobe_object__program_cnt(obj); i++) {
		struct bpfprobe_program_info pi = { .sz = sizeof(pi) };
		struct bpfprobe_program_stats st = { .sz = sizeof(st) };

		if (bpfprobe_object__program_info(obj, i, &pi) ||
		    bpfprobe_object__program_stats(obj, i, &st) || st.ran)
			continue;
		why_never(obj, s, &pi, &st);
	}
	/* copies not attached whose binary's programs ran anyway */
	for (size_t i = 0; i < bpfprobe_object__copy_cnt(obj); i++) {
		struct bpfprobe_copy_info c = { .sz = sizeof(c) };
		bool first = true;

		if (bpfprobe_object__copy_info(obj, i, &c) || c.attached || !(c.ran || c.mapped) ||
		    said_by_never_ran(obj, c.of))
			continue;
		/* one line per binary: its first copy */
		for (size_t k = 0; k < i && first; k++) {
			struct bpfprobe_copy_info o = { .sz = sizeof(o) };

			first = bpfprobe_object__copy_info(obj, k, &o) || o.attached ||
				!(o.ran || o.mapped) || strcmp(o.of, c.of);
		}
		if (!first)
			continue;
		fprintf(stderr, "bpfprobe: ");
		print_copy(&c);
	}
	if (s->follow && !bpfprobe_object__follow_stats(obj, &fs) && fs.missed)
		fprintf(stderr, "bpfprobe: %" PRIu64 " processes or threads created by traced processes were not followed: the set of followed processes was full\n",
			fs.missed);
}
