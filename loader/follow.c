// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Following a process tree: the set, its programs, the instances' marks (follow.h). */
#include <errno.h>
#include <signal.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "loader/attach_probe.h"
#include "loader/follow.h"
#include "prologue/follow_progs.h"
#include "prologue/insn.h"
#include "util/log.h"
#include "util/tracefs.h"

#define EXECS_MAX		256
/* exec events waiting for the loader: 8 bytes and a header each */
#define EVENTS_SIZE		(256 * 1024)
#define SET_BYTES		BP_PID_BITMAP_BYTES
/* the control blocks: one memory line per instance, its ran flag first */
#define CTL_BLOCK		64
#define CTL_RAN			0
#define CTL_SIZE(n)		(CTL_BLOCK * ((n) > 0 ? (n) : 1))
#define PROG_LICENSE		"Dual BSD/GPL"

static const struct {
	const char *event;	/* tracefs SYSTEM/NAME */
	const char *name;	/* the program's */
} tps[BP_FOLLOW_PROGS] = {
	{ "sched/sched_process_fork", "bpfprobe_fork" },
	{ "sched/sched_process_free", "bpfprobe_free" },
	{ "sched/sched_process_exec", "bpfprobe_exec" },
};

void bp_follow__init(struct bp_follow *f)
{
	memset(f, 0, sizeof(*f));
	f->set_fd = f->seed_fd = f->ctl_fd = f->hits_fd = f->stats_fd = f->execs_fd = -1;
	f->watch_fd = f->events_fd = -1;
	for (int i = 0; i < BP_FOLLOW_PROGS; i++)
		f->prog_fd[i] = f->perf_fd[i] = f->link_fd[i] = -1;
}

static int create_map(enum bpf_map_type type, const char *name, __u32 key, __u32 value,
		      __u32 max, __u32 flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
	int fd = bpf_map_create(type, name, key, value, max, &opts);

	if (fd < 0) {
		fd = -errno;
		bp_err("cannot create map %s: %s\n", name, strerror(errno));
	}
	return fd;
}

int bp_follow__create_maps(struct bp_follow *f, int ninsts)
{
	int ncpus = libbpf_num_possible_cpus();

	if (ncpus < 0)
		return ncpus;
	f->ninsts = ninsts;
	/* a bit per possible pid, in one value: the guard reads its byte in
	 * place, no map call; mmap'ed to set and clear bits atomically
	 * alongside the programs */
	f->set_fd = create_map(BPF_MAP_TYPE_ARRAY, "bpfprobe_follow", 4, SET_BYTES, 1,
			       BPF_F_MMAPABLE);
	if (f->set_fd < 0)
		return f->set_fd;
	f->bits = mmap(NULL, SET_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, f->set_fd, 0);
	if (f->bits == MAP_FAILED) {
		f->bits = NULL;
		bp_err("cannot map the followed set: %s\n", strerror(errno));
		return -errno;
	}
	/* small and not mmap'ed: kmalloc'ed, where the guard's load of it
	 * misses no TLB entry */
	f->seed_fd = create_map(BPF_MAP_TYPE_ARRAY, "bpfprobe_seed", 4, 8, 1, 0);
	if (f->seed_fd < 0)
		return f->seed_fd;
	f->ctl_fd = create_map(BPF_MAP_TYPE_ARRAY, "bpfprobe_ctl", 4, CTL_SIZE(ninsts), 1,
			       BPF_F_MMAPABLE);
	if (f->ctl_fd < 0)
		return f->ctl_fd;
	f->ctl = mmap(NULL, CTL_SIZE(ninsts), PROT_READ | PROT_WRITE, MAP_SHARED, f->ctl_fd, 0);
	if (f->ctl == MAP_FAILED) {
		f->ctl = NULL;
		bp_err("cannot map the instances' control blocks: %s\n", strerror(errno));
		return -errno;
	}
	f->hits_fd = create_map(BPF_MAP_TYPE_PERCPU_ARRAY, "bpfprobe_hits", 4, 8,
				ninsts > 0 ? ninsts : 1, 0);
	if (f->hits_fd < 0)
		return f->hits_fd;
	f->stats_fd = create_map(BPF_MAP_TYPE_PERCPU_ARRAY, "bpfprobe_fstats", 4, 8,
				 BP_FOLLOW_STAT_CNT, 0);
	if (f->stats_fd < 0)
		return f->stats_fd;
	f->execs_fd = create_map(BPF_MAP_TYPE_HASH, "bpfprobe_execs", 16, 8, EXECS_MAX,
				 BPF_F_NO_PREALLOC);
	return f->execs_fd < 0 ? f->execs_fd : 0;
}

void bp_follow__guards(const struct bp_follow *f, int i, bool uprobe, bool follow,
		       struct bp_guards *gs)
{
	memset(gs, 0, sizeof(*gs));
	gs->refused_fd = -1;
	gs->mark_ran = true;
	gs->ran_fd = f->ctl_fd;
	gs->ran_off = CTL_BLOCK * i + CTL_RAN;
	if (!uprobe || !follow)
		return;
	gs->n = 1;
	gs->v[0] = (struct bp_guard){ .kind = BP_GUARD_TGID_IN_BITMAP, .set_fd = f->set_fd,
				      .set_bytes = BP_PID_BITMAP_BYTES, .seed = true,
				      .seed_fd = f->seed_fd };
	gs->refused_fd = f->hits_fd;
	gs->count_base = i;
}

typedef int (*gen_fn)(const struct bp_follow_cfg *, struct bpf_insn *, size_t);

static int load_prog(const char *name, gen_fn gen, const struct bp_follow_cfg *cfg)
{
	struct bpf_insn insns[BP_FOLLOW_MAX_INSNS];
	char log[4096] = "";
	int n = gen(cfg, insns, BP_FOLLOW_MAX_INSNS), fd;

	if (n < 0) {
		bp_err("cannot generate %s: %s\n", name, strerror(-n));
		return n;
	}
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, name, PROG_LICENSE, insns, n, &opts);
	if (fd >= 0)
		return fd;
	fd = -errno;
	opts.log_buf = log;
	opts.log_size = sizeof(log);
	opts.log_level = 1;
	bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, name, PROG_LICENSE, insns, n, &opts);
	bp_err("cannot load %s, which follows the processes' forks: %s\n%s", name,
	       strerror(-fd), log);
	return fd;
}

static int open_tracepoint(const char *root, const char *event)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_TRACEPOINT };
	int id = bp_tracefs__event_id(root, event), fd;

	if (id < 0) {
		bp_err("cannot read the id of tracepoint %s (%s/events/%s/id): %s\n", event, root,
		       event, strerror(-id));
		return id;
	}
	attr.config = id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	/* a tracepoint's programs run in every task; the event is opened on one CPU */
	fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		bp_err("cannot open tracepoint %s: %s\n", event, strerror(-fd));
	}
	return fd;
}

static int field_offset(const char *root, const char *event, const char *field)
{
	int off = bp_tracefs__field_offset(root, event, field);

	if (off < 0)
		bp_err("cannot find field %s in %s/events/%s/format: %s\n", field, root, event,
		       strerror(-off));
	return off;
}

static int events_sample(void *ctx, void *data, size_t size)
{
	struct bp_follow *f = ctx;
	struct bp_exec_event ev;

	if (size < sizeof(ev))
		return 0;
	memcpy(&ev, data, sizeof(ev));
	if (f->on_event)
		return f->on_event(&ev, f->on_event_ctx);
	/* nobody looks: a held process goes on */
	if (ev.held)
		kill((pid_t)ev.pid, SIGCONT);
	return 0;
}

/* The watch's maps: its mode word and the events' ring buffer. */
static int create_watch(struct bp_follow *f, struct bp_follow_cfg *cfg)
{
	f->watch_fd = create_map(BPF_MAP_TYPE_ARRAY, "bpfprobe_watch", 4, 4, 1, BPF_F_MMAPABLE);
	if (f->watch_fd < 0)
		return f->watch_fd;
	f->watch = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, f->watch_fd, 0);
	if (f->watch == MAP_FAILED) {
		f->watch = NULL;
		bp_err("cannot map the exec watch's mode: %s\n", strerror(errno));
		return -errno;
	}
	f->events_fd = create_map(BPF_MAP_TYPE_RINGBUF, "bpfprobe_execev", 0, 0, EVENTS_SIZE, 0);
	if (f->events_fd < 0)
		return f->events_fd;
	f->events = ring_buffer__new(f->events_fd, events_sample, f, NULL);
	if (!f->events) {
		bp_err("cannot read the exec events' ring buffer: %s\n", strerror(errno));
		return -errno;
	}
	cfg->watch = true;
	cfg->watch_fd = f->watch_fd;
	cfg->events_fd = f->events_fd;
	/* without them, no process is held for entering another root */
	bp_task_btf__offsets(&cfg->task);
	return 0;
}

static int attach_progs(struct bp_follow *f, unsigned int watch)
{
	static const gen_fn gens[BP_FOLLOW_PROGS] = {
		bp_follow__gen_fork, bp_follow__gen_free, bp_follow__gen_exec,
	};
	struct bp_follow_cfg cfg = {
		.set_fd = f->set_fd, .set_bytes = BP_PID_BITMAP_BYTES, .seed_fd = f->seed_fd,
		.stats_fd = f->stats_fd, .execs_fd = f->execs_fd,
	};
	const char *root = bp_tracefs__root();
	int err;

	if (!root)
		return -ENOENT;
	if (watch) {
		err = create_watch(f, &cfg);
		if (err)
			return err;
	}
	cfg.child_pid_off = field_offset(root, tps[0].event, "child_pid");
	cfg.free_pid_off = field_offset(root, tps[1].event, "pid");
	if (cfg.child_pid_off < 0 || cfg.free_pid_off < 0)
		return -ENOENT;
	for (int i = 0; i < BP_FOLLOW_PROGS; i++) {
		f->prog_fd[i] = load_prog(tps[i].name, gens[i], &cfg);
		if (f->prog_fd[i] < 0)
			return f->prog_fd[i];
		f->perf_fd[i] = open_tracepoint(root, tps[i].event);
		if (f->perf_fd[i] < 0)
			return f->perf_fd[i];
		err = bp_perf_event__run_prog(f->perf_fd[i], f->prog_fd[i], 0, &f->link_fd[i]);
		if (err) {
			bp_err("cannot attach %s to tracepoint %s: %s\n", tps[i].name,
			       tps[i].event, strerror(-err));
			return err;
		}
	}
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int set_seed(const struct bp_follow *f, pid_t pid)
{
	uint64_t v = (uint32_t)pid;
	__u32 key = 0;

	return bpf_map_update_elem(f->seed_fd, &key, &v, BPF_ANY) ? -errno : 0;
}

int bp_follow__start(struct bp_follow *f, pid_t pid, unsigned int watch)
{
	int err;

	if (!f->bits || pid <= 0)
		return -EINVAL;
	if ((uint64_t)pid >= 8ull * BP_PID_BITMAP_BYTES) {
		bp_err("cannot follow process %d: past the kernel's pid limit\n", (int)pid);
		return -EINVAL;
	}
	/* the programs first: no child created from here on is missed */
	err = attach_progs(f, watch);
	if (err) {
		bp_follow__stop(f);
		return err;
	}
	bp_follow__set_watch(f, watch);
	__atomic_fetch_or(&f->bits[pid / 64], 1ull << (pid % 64), __ATOMIC_SEQ_CST);
	/* and the seed, which the guard lets through before reading a bit */
	err = set_seed(f, pid);
	if (err) {
		bp_err("cannot set the followed process: %s\n", strerror(-err));
		bp_follow__stop(f);
		return err;
	}
	f->seed = pid;
	bp_info("following process %d and the processes it creates\n", (int)pid);
	return 0;
}

void bp_follow__set_watch(struct bp_follow *f, unsigned int watch)
{
	if (f->watch)
		__atomic_store_n(f->watch, watch, __ATOMIC_SEQ_CST);
}

int bp_follow__events_fd(const struct bp_follow *f)
{
	return f->events ? ring_buffer__epoll_fd(f->events) : -1;
}

int bp_follow__read_events(struct bp_follow *f,
			   int (*cb)(const struct bp_exec_event *ev, void *ctx), void *ctx)
{
	int n;

	if (!f->events)
		return 0;
	f->on_event = cb;
	f->on_event_ctx = ctx;
	n = ring_buffer__consume(f->events);
	f->on_event = NULL;
	f->on_event_ctx = NULL;
	return n;
}

bool bp_follow__is_followed(const struct bp_follow *f, pid_t pid)
{
	if (!f->bits || pid <= 0 || (uint64_t)pid >= 8ull * BP_PID_BITMAP_BYTES)
		return false;
	return __atomic_load_n(&f->bits[pid / 64], __ATOMIC_RELAXED) >> (pid % 64) & 1;
}

void bp_follow__stop(struct bp_follow *f)
{
	/* nothing is held from now on; what was, goes on */
	bp_follow__set_watch(f, 0);
	for (int i = 0; i < BP_FOLLOW_PROGS; i++) {
		close_fd(&f->link_fd[i]);
		close_fd(&f->perf_fd[i]);
		close_fd(&f->prog_fd[i]);
	}
	if (f->events)
		ring_buffer__consume(f->events);
	/* nothing adds to the set any more */
	if (f->bits && !f->pinned) {
		memset(f->bits, 0, SET_BYTES);
		if (f->seed_fd >= 0)
			set_seed(f, 0);
	}
	f->seed = 0;
}

void bp_follow__close(struct bp_follow *f)
{
	bp_follow__stop(f);
	if (f->bits)
		munmap(f->bits, SET_BYTES);
	f->bits = NULL;
	close_fd(&f->set_fd);
	close_fd(&f->seed_fd);
	if (f->ctl)
		munmap(f->ctl, CTL_SIZE(f->ninsts));
	f->ctl = NULL;
	close_fd(&f->ctl_fd);
	close_fd(&f->hits_fd);
	close_fd(&f->stats_fd);
	close_fd(&f->execs_fd);
	ring_buffer__free(f->events);
	f->events = NULL;
	if (f->watch)
		munmap(f->watch, 4096);
	f->watch = NULL;
	close_fd(&f->watch_fd);
	close_fd(&f->events_fd);
}

static int percpu_sum(int fd, __u32 key, uint64_t *sum)
{
	int ncpus = libbpf_num_possible_cpus();
	uint64_t *vals;
	int err = 0;

	*sum = 0;
	if (fd < 0 || ncpus <= 0)
		return -EINVAL;
	vals = calloc(ncpus, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	if (bpf_map_lookup_elem(fd, &key, vals))
		err = -errno;
	for (int c = 0; !err && c < ncpus; c++)
		*sum += vals[c];
	free(vals);
	return err;
}

int bp_follow__hits(const struct bp_follow *f, int i, bool *ran, uint64_t *refused)
{
	int err;

	if (i < 0 || i >= f->ninsts || !f->ctl)
		return -ENOENT;
	err = percpu_sum(f->hits_fd, i, refused);
	*ran = __atomic_load_n(f->ctl + CTL_BLOCK * i + CTL_RAN, __ATOMIC_RELAXED);
	return err;
}

uint64_t bp_follow__stat(const struct bp_follow *f, int stat)
{
	uint64_t v;

	return percpu_sum(f->stats_fd, stat, &v) ? 0 : v;
}

int bp_follow__for_each_exec(const struct bp_follow *f,
			     int (*cb)(const char *comm, void *ctx), void *ctx)
{
	char key[17] = "", next[17] = "";
	const void *prev = NULL;
	int ret = 0;

	while (!ret && f->execs_fd >= 0 && !bpf_map_get_next_key(f->execs_fd, prev, next)) {
		memcpy(key, next, 16);
		prev = key;
		ret = cb(key, ctx);
	}
	return ret;
}
