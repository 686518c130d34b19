// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* What followed processes run, looked at while the session runs (exec_watch.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "loader/exec_watch.h"
#include "loader/object.h"
#include "probes/view.h"
#include "util/log.h"
#include "util/opts.h"
#include "util/pidns.h"
#include "util/proc_root.h"

/* A line of /proc/PID/maps is short; a process maps few files */
#define MAPS_LINE	(PATH_MAX + 128)
#define MAPS_FILES_MAX	512
/* the processes whose maps are read again, and how often */
#define RESCAN_PIDS	256
#define RESCAN_NS	250000000ull

/* Room for n elements of elem bytes: the array, moved, or NULL (p kept). */
static void *more(void *p, int n, size_t elem)
{
	return realloc(p, (size_t)n * elem);
}

static bool is_lib_path(const char *path)
{
	const char *base = strrchr(path, '/'), *so;

	base = base ? base + 1 : path;
	so = strstr(base, ".so");
	return so && (!so[3] || so[3] == '.');
}

static int add_key(struct bp_root_key **keys, int *n, dev_t dev, ino_t ino, ino_t mnt_ns)
{
	struct bp_root_key *k;

	k = more(*keys, *n + 1, sizeof(**keys));
	if (!k)
		return -ENOMEM;
	*keys = k;
	k[(*n)++] = (struct bp_root_key){ .dev = dev, .ino = ino, .mnt_ns = mnt_ns };
	return 0;
}

static bool has_key(const struct bp_root_key *keys, int n, dev_t dev, ino_t ino, ino_t mnt_ns)
{
	for (int i = 0; i < n; i++)
		if (keys[i].dev == dev && keys[i].ino == ino && keys[i].mnt_ns == mnt_ns)
			return true;
	return false;
}

static int add_exec_name(struct bp_watched_bin *b, const char *exec)
{
	const char **e;

	for (int i = 0; i < b->nexecs; i++)
		if (!strcmp(b->execs[i], exec))
			return 0;
	e = more(b->execs, b->nexecs + 1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	b->execs = e;
	e[b->nexecs++] = exec;
	return 0;
}

static int find_bin(const struct bp_exec_watch *w, const char *path)
{
	for (int i = 0; i < w->nbins; i++)
		if (!strcmp(w->bins[i].path, path))
			return i;
	return -1;
}

/* The binary of user point pt, added on first sight. */
static int watch_bin(struct bp_exec_watch *w, const struct bp_program *p, const struct bp_point *pt)
{
	struct bp_watched_bin *b;
	int i = find_bin(w, pt->binary), fd;

	if (i < 0) {
		b = more(w->bins, w->nbins + 1, sizeof(*b));
		if (!b)
			return -ENOMEM;
		w->bins = b;
		i = w->nbins++;
		b = &w->bins[i];
		memset(b, 0, sizeof(*b));
		b->path = strdup(pt->binary);
		if (!b->path)
			return -ENOMEM;
		b->lib = is_lib_path(pt->binary);
		fd = open(pt->binary, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (!fstat(fd, &b->st))
				b->build_id_len = bp_build_id__of_fd(fd, b->build_id,
								     sizeof(b->build_id));
			close(fd);
		}
	}
	b = &w->bins[i];
	b->copies |= p->spec.copies;
	return add_exec_name(b, p->spec.exec);
}

/* The root the points were resolved in: the view's process's, or ours. */
static int add_resolved_root(struct bpfprobe_object *obj)
{
	struct bp_exec_watch *w = &obj->watch;
	struct bp_proc_root r;
	int err;

	if (bp_proc_root__open(&r, obj->view_pid > 0 ? obj->view_pid : getpid(), NULL, 0))
		return 0;	/* gone: the attach says so */
	err = add_key(&w->roots, &w->nroots, r.st.st_dev, r.st.st_ino, r.mnt_ns);
	bp_proc_root__close(&r);
	return err;
}

int bp_exec_watch__setup(struct bpfprobe_object *obj)
{
	struct bp_exec_watch *w = &obj->watch;
	bool copies = false;
	int err = 0;

	for (int i = 0; i < obj->naps && !err; i++) {
		const struct bp_attach_point *ap = &obj->aps[i];

		if (!ap->point->kernel && ap->point->binary && ap->owner->spec.exec)
			err = watch_bin(w, ap->owner, ap->point);
	}
	if (!err)
		err = add_resolved_root(obj);
	if (err) {
		bp_err("out of memory watching the followed processes' execs\n");
		return err;
	}
	if (!w->nbins)
		return 0;
	for (int i = 0; i < w->nbins; i++)
		w->rescan |= w->bins[i].lib;
	/* events name processes by the kernel's pids, /proc by ours */
	if (!bp_pidns__is_initial()) {
		bp_info("inside a PID namespace: the followed processes' execs are not looked at (no copies, no other roots)\n");
		return 0;
	}
	for (int i = 0; i < w->nbins; i++)
		copies |= w->bins[i].copies;
	w->on = true;
	w->mode = BP_WATCH_EVENTS | BP_WATCH_HOLD_ROOT | (copies ? BP_WATCH_HOLD_ALL : 0);
	return (int)w->mode;
}

/* --- copies ---------------------------------------------------------------- */

static int find_copy(const struct bp_exec_watch *w, const struct stat *st)
{
	for (int i = 0; i < w->ncopies; i++)
		if (bp_same_inode(&w->copies[i].st, st))
			return i;
	return -1;
}

static int bin_of_file(const struct bp_exec_watch *w, const struct stat *st)
{
	for (int i = 0; i < w->nbins; i++)
		if (bp_same_inode(&w->bins[i].st, st))
			return i;
	return -1;
}

static int bin_by_build_id(const struct bp_exec_watch *w, int fd)
{
	uint8_t id[BP_BUILD_ID_MAX];
	size_t len = bp_build_id__of_fd(fd, id, sizeof(id));

	for (int i = 0; len && i < w->nbins; i++)
		if (w->bins[i].build_id_len == len && !memcmp(w->bins[i].build_id, id, len))
			return i;
	return -1;
}

static const char *how_seen(const struct bp_copy *c)
{
	return c->ran ? "ran" : c->mapped ? "mapped" : "sees";
}

/* A new copy of bin b, at host (seen_as in the process's root), seen in
 * pid; attached when b says copies=yes or exec= names it there. */
static struct bp_copy *add_copy(struct bpfprobe_object *obj, int b, pid_t pid,
				const struct stat *st, char *host, char *seen_as, bool attach)
{
	struct bp_exec_watch *w = &obj->watch;
	struct bp_copy *c;

	c = more(w->copies, w->ncopies + 1, sizeof(*c));
	if (!c) {
		free(host);
		free(seen_as);
		return NULL;
	}
	w->copies = c;
	c = &w->copies[w->ncopies++];
	memset(c, 0, sizeof(*c));
	c->path = host;
	c->seen_as = seen_as && strcmp(seen_as, host) ? seen_as : NULL;
	if (!c->seen_as)
		free(seen_as);
	c->bin = b;
	c->pid = pid;
	c->st = *st;
	if (attach && !bp_copy__attach(obj, c))
		c->attached = true;
	return c;
}

static void say_copy(const struct bp_exec_watch *w, const struct bp_copy *c, const char *why)
{
	bp_info("process %d %s %s%s%s%s, a copy of %s (same build ID)%s%s\n", (int)c->pid,
		how_seen(c), c->path, c->seen_as ? " (" : "", c->seen_as ? c->seen_as : "",
		c->seen_as ? " in its root)" : "", w->bins[c->bin].path,
		c->attached ? ": attached there too, " : "", c->attached ? why : "");
}

/*
 * A file process pid runs or maps (open at fd): a copy of a watched
 * binary, or nothing to us. r is the process's root (NULL: gone).
 */
static void look_at_file(struct bpfprobe_object *obj, pid_t pid, int fd,
			 const struct bp_proc_root *r, bool ran)
{
	struct bp_exec_watch *w = &obj->watch;
	char *inside = NULL, *host = NULL;
	struct bp_copy *c;
	struct stat st;
	int b, i;

	if (fstat(fd, &st) || bin_of_file(w, &st) >= 0 ||
	    has_key(w->others, w->nothers, st.st_dev, st.st_ino, 0))
		return;
	i = find_copy(w, &st);
	if (i >= 0) {
		w->copies[i].ran |= ran;
		w->copies[i].mapped |= !ran;
		return;
	}
	b = bin_by_build_id(w, fd);
	if (b < 0) {
		add_key(&w->others, &w->nothers, st.st_dev, st.st_ino, 0);
		return;
	}
	if (!r || bp_proc_root__paths(r, fd, &inside, &host)) {
		bp_info("process %d %s a copy of %s (same build ID), which no path of bpfprobe's reaches\n",
			(int)pid, ran ? "ran" : "mapped", w->bins[b].path);
		add_key(&w->others, &w->nothers, st.st_dev, st.st_ino, 0);
		return;
	}
	c = add_copy(obj, b, pid, &st, host, inside, w->bins[b].copies);
	if (!c)
		return;
	c->ran = ran;
	c->mapped = !ran;
	say_copy(w, c, "copies=yes");
}

/* The files process pid maps executable (each once). */
static void look_at_maps(struct bpfprobe_object *obj, pid_t pid, const struct bp_proc_root *r)
{
	char path[64], line[MAPS_LINE], file[96];
	struct bp_root_key seen[MAPS_FILES_MAX];
	int nseen = 0, fd;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && nseen < MAPS_FILES_MAX) {
		unsigned long long start, end, ino;
		char perms[8];
		bool dup = false;

		/* start-end perms offset MAJ:MIN inode path */
		if (sscanf(line, "%llx-%llx %7s %*s %*s %llu", &start, &end, perms, &ino) != 4 ||
		    !ino || !strchr(perms, 'x'))
			continue;
		for (int i = 0; i < nseen && !dup; i++)
			dup = seen[i].ino == ino;
		if (dup)
			continue;
		seen[nseen++].ino = ino;
		/* the mapped file itself, whatever its path says */
		snprintf(file, sizeof(file), "/proc/%d/map_files/%llx-%llx", (int)pid, start, end);
		fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		look_at_file(obj, pid, fd, r, false);
		close(fd);
	}
	fclose(f);
}

/* --- the process's root ---------------------------------------------------- */

static bool said_other_build(struct bp_exec_watch *w, const struct stat *st)
{
	if (has_key(w->other_builds, w->nother_builds, st->st_dev, st->st_ino, 0))
		return true;
	add_key(&w->other_builds, &w->nother_builds, st->st_dev, st->st_ino, 0);
	return false;
}

/* name (an exec= text, or a library's name) of bin b as the process of
 * view v sees it: a copy there is attached. */
static void look_up_in_root(struct bpfprobe_object *obj, const struct bp_view *v, int b,
			    const char *name, bool only_copies)
{
	struct bp_exec_watch *w = &obj->watch;
	char *seen_as = NULL, *host = NULL, why[PATH_MAX + 256];
	struct bp_copy *c;
	struct stat st;
	int fd, same;

	if (bp_view__find(v, name, &seen_as, &host, why, sizeof(why))) {
		bp_info("exec=%s: %s\n", name, why);
		return;
	}
	fd = open(host, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || bin_of_file(w, &st) >= 0 || find_copy(w, &st) >= 0) {
		if (fd >= 0)
			close(fd);
		free(seen_as);
		free(host);
		return;
	}
	same = bin_by_build_id(w, fd) == b;
	close(fd);
	if (!same) {
		if (!only_copies && !said_other_build(w, &st))
			bp_err("warning: process %d sees exec=%s as %s (%s on the host), another build than %s: not probed there (bpfprobe load -p %d resolves exec= as it sees it)\n",
			       (int)bp_view__pid(v), name, seen_as ? seen_as : host, host,
			       w->bins[b].path, (int)bp_view__pid(v));
		free(seen_as);
		free(host);
		return;
	}
	c = add_copy(obj, b, bp_view__pid(v), &st, host, seen_as, true);
	if (!c)
		return;
	c->in_root = true;
	say_copy(w, c, only_copies ? "copies=yes" : "exec= names it in the process's root");
}

/* A root not seen before: every watched binary's exec= as it sees it. */
static void look_at_root(struct bpfprobe_object *obj, pid_t pid)
{
	struct bp_exec_watch *w = &obj->watch;
	struct bp_view *v;
	dev_t dev;
	ino_t ino, mnt_ns;
	char why[PATH_MAX + 256];

	if (bp_view__open(pid, &v, why, sizeof(why)))
		return;	/* it is gone already */
	bp_view__key(v, &dev, &ino, &mnt_ns);
	if (!has_key(w->roots, w->nroots, dev, ino, mnt_ns) &&
	    !add_key(&w->roots, &w->nroots, dev, ino, mnt_ns)) {
		bp_info("process %d runs in another root: exec= looked up as it sees it\n",
			(int)pid);
		for (int b = 0; b < w->nbins; b++) {
			const char *base = strrchr(w->bins[b].path, '/');

			for (int k = 0; k < w->bins[b].nexecs; k++)
				look_up_in_root(obj, v, b, w->bins[b].execs[k], false);
			/* where its dynamic loader will find the library */
			if (w->bins[b].copies && w->bins[b].lib && base)
				look_up_in_root(obj, v, b, base + 1, true);
		}
	}
	bp_view__free(v);
}

/* Process pid, whose maps are read again later (a library). */
static void remember(struct bp_exec_watch *w, pid_t pid)
{
	pid_t *p;

	for (int i = 0; i < w->npids; i++)
		if (w->pids[i] == pid)
			return;
	if (w->npids == RESCAN_PIDS) {
		/* the oldest goes */
		memmove(w->pids, w->pids + 1, (RESCAN_PIDS - 1) * sizeof(*w->pids));
		w->npids--;
	}
	p = more(w->pids, w->npids + 1, sizeof(*p));
	if (!p)
		return;
	w->pids = p;
	p[w->npids++] = pid;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* The maps of the processes looked at, again, while they stay followed. */
static void rescan(struct bpfprobe_object *obj)
{
	struct bp_exec_watch *w = &obj->watch;
	uint64_t now = now_ns();
	struct bp_proc_root r;
	int i = 0;

	if (!w->rescan || now - w->last_scan_ns < RESCAN_NS)
		return;
	w->last_scan_ns = now;
	while (i < w->npids) {
		pid_t pid = w->pids[i];

		/* gone, or its pid is another process's now */
		if (!bp_follow__is_followed(&obj->follow, pid) ||
		    bp_proc_root__open(&r, pid, NULL, 0)) {
			w->pids[i] = w->pids[--w->npids];
			continue;
		}
		look_at_maps(obj, pid, &r);
		bp_proc_root__close(&r);
		i++;
	}
}

void bp_exec_watch__look(struct bpfprobe_object *obj, pid_t pid)
{
	struct bp_proc_root r;
	bool have_root;
	char exe[64];
	int fd;

	if (!obj->watch.on)
		return;
	if (obj->watch.rescan)
		remember(&obj->watch, pid);
	look_at_root(obj, pid);
	have_root = !bp_proc_root__open(&r, pid, NULL, 0);
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	fd = open(exe, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		look_at_file(obj, pid, fd, have_root ? &r : NULL, true);
		close(fd);
	}
	look_at_maps(obj, pid, have_root ? &r : NULL);
	if (have_root)
		bp_proc_root__close(&r);
}

static int on_exec(const struct bp_exec_event *ev, void *ctx)
{
	struct bpfprobe_object *obj = ctx;

	bp_exec_watch__look(obj, (pid_t)ev->pid);
	if (ev->held && kill((pid_t)ev->pid, SIGCONT) && errno != ESRCH)
		bp_err("cannot let process %u go on after its exec: %s\n", ev->pid, strerror(errno));
	return 0;
}

int bp_exec_watch__handle(struct bpfprobe_object *obj)
{
	int n;

	if (!obj->watch.on)
		return 0;
	n = bp_follow__read_events(&obj->follow, on_exec, obj);
	/* a held process first: then what the others mapped since */
	rescan(obj);
	return n;
}

void bp_exec_watch__detach(struct bpfprobe_object *obj)
{
	for (int i = 0; i < obj->watch.ncopies; i++)
		bp_copy__detach(&obj->watch.copies[i]);
}

void bp_exec_watch__free(struct bp_exec_watch *w)
{
	for (int i = 0; i < w->nbins; i++) {
		free(w->bins[i].path);
		free(w->bins[i].execs);
	}
	for (int i = 0; i < w->ncopies; i++) {
		bp_copy__detach(&w->copies[i]);
		free(w->copies[i].path);
		free(w->copies[i].seen_as);
		free(w->copies[i].aps);
		free(w->copies[i].of);
	}
	free(w->bins);
	free(w->copies);
	free(w->roots);
	free(w->pids);
	free(w->others);
	free(w->other_builds);
	memset(w, 0, sizeof(*w));
}

/* --- the public API -------------------------------------------------------- */

int bpfprobe_object__exec_fd(const struct bpfprobe_object *obj)
{
	if (!obj)
		return bp_api_err(-EINVAL);
	if (!obj->watch.on)
		return bp_api_err(-ENOENT);
	return bp_follow__events_fd(&obj->follow);
}

int bpfprobe_object__handle_execs(struct bpfprobe_object *obj)
{
	if (!obj)
		return bp_api_err(-EINVAL);
	return bp_api_err(bp_exec_watch__handle(obj));
}
