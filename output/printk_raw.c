// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <traceevent/kbuffer.h>
#include "output/comm.h"
#include "output/printk_event.h"
#include "output/printk_raw.h"
#include "util/dirlock.h"
#include "util/log.h"
#include "util/pidns.h"
#include "util/tracefs.h"

#define INSTANCE_PREFIX "bpfprobe."
#define EVENT_DIR "events/bpf_trace/bpf_trace_printk"
/* per CPU and drain: bounds memory; a drain goes round again when hit */
#define PAGES_PER_ROUND 64

struct cpu_buf {
	int cpu;
	int fd;
	struct kbuffer *kb;
	char *pages;
	int npages;
	int cur;
	void *ev;		/* current event, NULL when this CPU is done */
	unsigned long long ts;
};

struct bp_printk_raw {
	char dir[PATH_MAX];
	int lock_fd;		/* holds the instance's lock while we live */
	size_t page_size;
	struct cpu_buf *cpus;
	int ncpus;
	struct bp_printk_decoder *dec;
	struct bp_comm_cache *comms;
};

/*
 * Instances left by a bpfprobe that was killed. Ours are named
 * bpfprobe.PID.RANDOM and locked by their owner (util/dirlock.h): an
 * unlocked one has no owner, whatever PID namespace it came from. Older
 * bpfprobes named theirs bpfprobe.PID, with no lock: those go only when no
 * process has that pid here.
 */
static void remove_stale_instances(const char *root)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/instances", root);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *rest;
		char *end;
		long pid;
		int fd;

		if (strncmp(de->d_name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)))
			continue;
		rest = de->d_name + strlen(INSTANCE_PREFIX);
		snprintf(path, sizeof(path), "%s/instances/%s", root, de->d_name);
		pid = strtol(rest, &end, 10);
		if (!*end) {
			if (pid > 0 && kill(pid, 0) < 0 && errno == ESRCH)
				rmdir(path);
			continue;
		}
		fd = bp_dirlock__try(path);
		if (fd < 0)
			continue;	/* its owner lives */
		if (rmdir(path))
			bp_debug("cannot remove the stale tracefs instance %s: %s\n", path,
				 strerror(errno));
		close(fd);
	}
	closedir(d);
}

/* A new instance of a name no one has (never one that exists: it would be
 * another session's), locked. Returns 0 or -errno. */
static int create_instance(struct bp_printk_raw *pr, const char *root)
{
	int fd = -EEXIST;

	for (int tries = 0; tries < 32 && (fd == -EEXIST || fd == -EAGAIN); tries++) {
		unsigned long long r;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			return -errno;
		snprintf(pr->dir, sizeof(pr->dir), "%s/instances/" INSTANCE_PREFIX "%d.%016llx", root,
			 (int)getpid(), r);
		fd = bp_dirlock__create(pr->dir, 0700);
	}
	if (fd < 0) {
		bp_err("cannot create the tracefs instance %s: %s\n", pr->dir, strerror(-fd));
		return fd;
	}
	pr->lock_fd = fd;
	return 0;
}

/* Reads a small tracefs file into buf (NUL-terminated). Returns its length or -errno. */
static ssize_t read_file(const char *dir, const char *rel, char *buf, size_t size)
{
	char path[PATH_MAX];
	ssize_t n, len = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < (ssize_t)size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return len;
}

static struct bp_printk_decoder *open_decoder(const char *dir)
{
	char buf[8192];
	ssize_t n = read_file(dir, EVENT_DIR "/format", buf, sizeof(buf));

	if (n < 0) {
		bp_err("cannot read %s/" EVENT_DIR "/format: %s (kernel without CONFIG_BPF_EVENTS?)\n",
		       dir, strerror(-n));
		return NULL;
	}
	return bp_printk_decoder__new(buf, n);
}

/* The ring buffer's sub-buffer size: what one read of trace_pipe_raw returns. */
static size_t subbuf_size(const char *dir)
{
	char buf[32];

	if (read_file(dir, "buffer_subbuf_size_kb", buf, sizeof(buf)) > 0 && atoi(buf) > 0)
		return (size_t)atoi(buf) * 1024;
	return getpagesize();
}

static int open_cpus(struct bp_printk_raw *pr)
{
	char path[PATH_MAX + 64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/per_cpu", pr->dir);
	d = opendir(path);
	if (!d) {
		bp_err("cannot list %s: %s\n", path, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d))) {
		struct cpu_buf *cb, *tmp;
		int cpu;

		if (sscanf(de->d_name, "cpu%d", &cpu) != 1)
			continue;
		tmp = realloc(pr->cpus, (pr->ncpus + 1) * sizeof(*tmp));
		if (!tmp)
			break;
		pr->cpus = tmp;
		cb = &pr->cpus[pr->ncpus];
		memset(cb, 0, sizeof(*cb));
		cb->cpu = cpu;
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", pr->dir, cpu);
		cb->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (cb->fd < 0)
			continue;	/* an offline CPU */
		cb->kb = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
		cb->pages = malloc(PAGES_PER_ROUND * pr->page_size);
		pr->ncpus++;
		if (!cb->kb || !cb->pages)
			break;
	}
	closedir(d);
	for (int i = 0; i < pr->ncpus; i++)
		if (!pr->cpus[i].kb || !pr->cpus[i].pages)
			return -ENOMEM;
	if (!pr->ncpus) {
		bp_err("no readable per-CPU buffer in %s/per_cpu\n", pr->dir);
		return -ENOENT;
	}
	return 0;
}

/* Settings that make the instance fit a live reader; failures only cost accuracy. */
static void tune_instance(const char *dir)
{
	int err;

	/* timestamps comparable with bpf_ktime_get_ns() and CLOCK_MONOTONIC */
	err = bp_tracefs__write(dir, "trace_clock", "mono");
	if (err)
		bp_debug("%s/trace_clock: cannot select mono: %s\n", dir, strerror(-err));
	/* wake readers on every event, not when the buffer is half full */
	err = bp_tracefs__write(dir, "buffer_percent", "0");
	if (err)
		bp_debug("%s/buffer_percent: %s\n", dir, strerror(-err));
}

struct bp_printk_raw *bp_printk_raw__open(void)
{
	const char *root = bp_tracefs__root();
	struct bp_printk_raw *pr;
	int err;

	if (!root)
		return NULL;
	remove_stale_instances(root);
	pr = calloc(1, sizeof(*pr));
	if (!pr)
		return NULL;
	pr->lock_fd = -1;
	if (create_instance(pr, root)) {
		free(pr);
		return NULL;
	}
	tune_instance(pr->dir);
	pr->page_size = subbuf_size(pr->dir);
	pr->dec = open_decoder(pr->dir);
	pr->comms = bp_comm_cache__new(root);
	if (!pr->dec || !pr->comms || open_cpus(pr))
		goto fail;
	err = bp_tracefs__write(pr->dir, EVENT_DIR "/enable", "1");
	if (err) {
		bp_err("cannot enable bpf_trace_printk in %s: %s\n", pr->dir, strerror(-err));
		goto fail;
	}
	return pr;
fail:
	bp_printk_raw__close(pr);
	return NULL;
}

/* "tid tid ..." of every thread of pid, or just pid when /proc says
 * nothing or numbers processes differently (another PID namespace: pid is
 * the kernel's, /proc's are the namespace's) */
static char *thread_list(pid_t pid)
{
	char path[64], *list = NULL;
	size_t len = 0;
	struct dirent *de;
	FILE *f;
	DIR *d;

	f = open_memstream(&list, &len);
	if (!f)
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = bp_pidns__is_initial() ? opendir(path) : NULL;
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			fprintf(f, "%s ", de->d_name);
	if (d)
		closedir(d);
	if (!ftell(f))
		fprintf(f, "%d", pid);
	fclose(f);
	return list;
}

int bp_printk_raw__scope_pid(struct bp_printk_raw *pr, pid_t pid)
{
	char *tids;
	int err;

	/* threads and children created later join the list */
	err = bp_tracefs__write(pr->dir, "options/event-fork", "1");
	if (err) {
		bp_err("%s/options/event-fork: %s\n", pr->dir, strerror(-err));
		return err;
	}
	tids = thread_list(pid);
	if (!tids)
		return -ENOMEM;
	err = bp_tracefs__write(pr->dir, "set_event_pid", tids);
	if (err)
		bp_err("cannot limit %s to pid %d (set_event_pid '%s'): %s\n", pr->dir, pid, tids,
		       strerror(-err));
	free(tids);
	/* what other processes printed since the event was enabled goes:
	 * truncating the instance's trace file empties its buffers */
	if (!err)
		err = bp_tracefs__write(pr->dir, "trace", "");
	return err;
}

int bp_printk_raw__add_to_epoll(struct bp_printk_raw *pr, int epfd)
{
	for (int i = 0; i < pr->ncpus; i++) {
		struct epoll_event ev = { .events = EPOLLIN };

		if (pr->cpus[i].fd < 0)
			continue;
		if (epoll_ctl(epfd, EPOLL_CTL_ADD, pr->cpus[i].fd, &ev))
			return -errno;
	}
	return 0;
}

/* Reads up to PAGES_PER_ROUND sub-buffers. Returns true when it hit the cap. */
static bool fill(struct bp_printk_raw *pr, struct cpu_buf *cb)
{
	cb->npages = cb->cur = 0;
	cb->ev = NULL;
	if (cb->fd < 0)
		return false;
	while (cb->npages < PAGES_PER_ROUND) {
		char *page = cb->pages + cb->npages * pr->page_size;
		ssize_t n = read(cb->fd, page, pr->page_size);

		if (n <= 0)
			break;
		if ((size_t)n < pr->page_size)
			memset(page + n, 0, pr->page_size - n);
		cb->npages++;
	}
	return cb->npages == PAGES_PER_ROUND;
}

/* Makes page i (or a later one with events) current. */
static void load_page(struct bp_printk_raw *pr, struct cpu_buf *cb, int i,
		      bp_printk_lost_fn lost, void *ctx)
{
	for (cb->ev = NULL; i < cb->npages && !cb->ev; i++) {
		int missed;

		if (kbuffer_load_subbuffer(cb->kb, cb->pages + i * pr->page_size))
			continue;
		missed = kbuffer_missed_events(cb->kb);
		if (missed && lost)
			lost(ctx, cb->cpu, missed);
		cb->cur = i;
		cb->ev = kbuffer_read_event(cb->kb, &cb->ts);
	}
}

static struct cpu_buf *earliest(struct bp_printk_raw *pr)
{
	struct cpu_buf *best = NULL;

	for (int i = 0; i < pr->ncpus; i++)
		if (pr->cpus[i].ev && (!best || pr->cpus[i].ts < best->ts))
			best = &pr->cpus[i];
	return best;
}

static int merge_round(struct bp_printk_raw *pr, bp_printk_msg_fn msg, bp_printk_lost_fn lost,
		       void *ctx)
{
	struct cpu_buf *cb;
	int n = 0;

	for (int i = 0; i < pr->ncpus; i++)
		load_page(pr, &pr->cpus[i], 0, lost, ctx);
	while ((cb = earliest(pr))) {
		struct bp_printk_msg m = { .ts_ns = cb->ts, .cpu = cb->cpu };

		if (bp_printk_decoder__decode(pr->dec, cb->ev, kbuffer_event_size(cb->kb),
					      &m.pid, &m.msg, &m.len) == 1) {
			m.comm = bp_comm_cache__get(pr->comms, m.pid);
			msg(ctx, &m);
			n++;
		}
		cb->ev = kbuffer_next_event(cb->kb, &cb->ts);
		if (!cb->ev)
			load_page(pr, cb, cb->cur + 1, lost, ctx);
	}
	return n;
}

int bp_printk_raw__drain(struct bp_printk_raw *pr, bp_printk_msg_fn msg,
			 bp_printk_lost_fn lost, void *ctx)
{
	int n = 0;

	bp_comm_cache__next_round(pr->comms);
	/* a few rounds at most: a busy producer must not keep us here */
	for (int round = 0; round < 16; round++) {
		bool more = false;

		for (int i = 0; i < pr->ncpus; i++)
			more |= fill(pr, &pr->cpus[i]);
		n += merge_round(pr, msg, lost, ctx);
		if (!more)
			break;
	}
	return n;
}

int bp_printk_raw__global_enabled(void)
{
	const char *root = bp_tracefs__root();
	char buf[8];
	ssize_t n;

	if (!root)
		return -ENOENT;
	n = read_file(root, EVENT_DIR "/enable", buf, sizeof(buf));
	if (n < 0)
		return n;
	return buf[0] == '1';
}

int bp_printk_raw__global_disable(void)
{
	const char *root = bp_tracefs__root();

	return root ? bp_tracefs__write(root, EVENT_DIR "/enable", "0") : -ENOENT;
}

void bp_printk_raw__close(struct bp_printk_raw *pr)
{
	if (!pr)
		return;
	bp_tracefs__write(pr->dir, EVENT_DIR "/enable", "0");
	for (int i = 0; i < pr->ncpus; i++) {
		if (pr->cpus[i].fd >= 0)
			close(pr->cpus[i].fd);
		if (pr->cpus[i].kb)
			kbuffer_free(pr->cpus[i].kb);
		free(pr->cpus[i].pages);
	}
	free(pr->cpus);
	if (rmdir(pr->dir) && errno != ENOENT)
		bp_debug("cannot remove %s: %s\n", pr->dir, strerror(errno));
	if (pr->lock_fd >= 0)
		close(pr->lock_fd);
	bp_printk_decoder__free(pr->dec);
	bp_comm_cache__free(pr->comms);
	free(pr);
}
