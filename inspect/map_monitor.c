// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `bpfprobe monitor --map MAP`: the points map=MAP;update and map=MAP;delete
 * resolve to (probes/map/), attached as map tracing attaches them (fentry,
 * else kprobes: loader/map_trace.c), each running a program of our own
 * (map_monitor_prog.c) that copies the key, the value and the flags into a
 * ring buffer, read here and handed on as events. `list` sees the session
 * through the metadata bound to each program, like any bpfprobe program.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "loader/attach_probe.h"
#include "inspect/inspect.h"
#include "inspect/map_monitor_prog.h"
#include "loader/map_trace.h"
#include "loader/metadata.h"
#include "probes/maps.h"
#include "probes/report.h"
#include "probes/resolve.h"
#include "prologue/arch.h"
#include "util/log.h"

#define RINGBUF_SIZE	(1u << 20)
#define LOG_SIZE	(1u << 20)

struct mon_func {
	int prog_fd, perf_fd, link_fd;
	uint32_t value_size;	/* bytes copied */
	int nvalues;		/* of them whole */
	bool cut;
};

struct bp_map_monitor {
	struct bp_map_monitor_info info;
	struct bpf_map_info map;
	char type[32];
	struct btf *btf;
	struct bp_point *points;
	int npoints;
	struct mon_func *funcs;
	const char **fnames;
	int rb_fd;
	struct ring_buffer *rb;
	int ncpus;
	void (*cb)(const struct bp_map_event *ev, void *ctx);
	void *ctx;
	int nevents;
};

/* --- resolving ------------------------------------------------------------- */

/* The points of map=MAP;OP ARGS..., appended to m->points. */
static int add_points(struct bp_map_monitor *m, struct bp_resolver *r, const char *map,
		      const char *op_args)
{
	char text[4200], msg[512];
	struct bp_point *pts = NULL, *all;
	struct bp_spec spec;
	int n = 0, err;

	snprintf(text, sizeof(text), "map=%s;%s", map, op_args);
	err = bp_spec__parse(text, &spec, msg, sizeof(msg));
	if (err) {
		bp_err("monitor --map %s: %s\n", map, msg);
		bp_spec__free(&spec);
		return err;
	}
	err = bp_resolver__resolve(r, &spec, &pts, &n);
	bp_spec__free(&spec);
	if (err)
		return err;
	all = realloc(m->points, (m->npoints + n) * sizeof(*all));
	if (!all) {
		bp_points__free(pts, n);
		return -ENOMEM;
	}
	/* the points move whole: what they own goes with them */
	memcpy(all + m->npoints, pts, n * sizeof(*pts));
	free(pts);
	m->points = all;
	m->npoints += n;
	return 0;
}

static int read_map(struct bp_map_monitor *m, const char *map)
{
	struct bp_map_target t;
	struct bp_diag d = {};
	int err;

	err = bp_map_target__find(map, &t, &d);
	bp_report__diag(NULL, &d, map);
	if (err)
		return err;
	m->map = t.info;
	bp_map_target__close(&t);
	if (m->map.btf_id) {
		m->btf = btf__load_from_kernel_by_id(m->map.btf_id);
		if (!m->btf)
			bp_err("monitor --map %s: the map's BTF (id %u) cannot be read (%s): keys and values print as bytes\n",
			       map, m->map.btf_id, strerror(errno));
	}
	m->info.id = m->map.id;
	m->info.name = m->map.name;
	m->info.type = bp_map_type__name(m->map.type, m->type, sizeof(m->type));
	m->info.btf = m->btf;
	m->info.key_type = m->btf ? m->map.btf_key_type_id : 0;
	m->info.value_type = m->btf ? m->map.btf_value_type_id : 0;
	return 0;
}

static int resolve(struct bp_map_monitor *m, const char *map)
{
	struct bp_resolver *r = bp_resolver__new();
	int err;

	if (!r)
		return -ENOMEM;
	err = add_points(m, r, map, "update key value flags");
	if (!err)
		err = add_points(m, r, map, "delete key");
	bp_resolver__free(r);
	if (!err)
		err = read_map(m, map);
	return err;
}

/* --- programs --------------------------------------------------------------- */

/* Where a plan's argument is in ctx: an fentry slot or a pt_regs register. */
static int ctx_off(const struct bp_fetch *f)
{
	return f->base == BP_BASE_CTX ? 8 * f->reg : bp_arch__pt_regs_off(f->reg);
}

static void describe(struct bp_map_monitor *m, const struct bp_point *pt, struct mon_func *f,
		     struct bp_mrec_prog *p)
{
	size_t stride = (m->map.value_size + 7) / 8 * 8;

	p->key_off = ctx_off(&pt->plan.args[0]);
	p->key_size = m->map.key_size;
	p->value_off = pt->map.update ? ctx_off(&pt->plan.args[1]) : -1;
	p->flags_off = pt->map.update ? ctx_off(&pt->plan.args[2]) : -1;
	f->nvalues = pt->map.update ? 1 : 0;
	f->value_size = pt->map.update ? m->map.value_size : 0;
	if (pt->map.update && pt->map.value_percpu) {
		/* as many whole CPUs' values as fit */
		f->nvalues = m->ncpus;
		if (stride * m->ncpus > BP_MREC_MAX_VALUE) {
			f->nvalues = BP_MREC_MAX_VALUE / stride;
			f->cut = true;
		}
		f->value_size = stride * f->nvalues;
	} else if (f->value_size > BP_MREC_MAX_VALUE) {
		f->value_size = BP_MREC_MAX_VALUE;
		f->cut = true;
	}
	p->value_size = f->value_size;
}

static int load_prog(const struct bp_point *pt, const struct bpf_insn *insns, int n)
{
	char *log = NULL;
	int fd, err;

	for (;;) {
		LIBBPF_OPTS(bpf_prog_load_opts, opts,
			.expected_attach_type = pt->map.fentry ? BPF_TRACE_FENTRY : 0,
			.attach_btf_id = pt->map.fentry ? pt->map.btf_id : 0,
			.log_buf = log,
			.log_size = log ? LOG_SIZE : 0,
			.log_level = log ? 1 : 0,
		);
		fd = bpf_prog_load(pt->map.fentry ? BPF_PROG_TYPE_TRACING : BPF_PROG_TYPE_KPROBE,
				   "bpfprobe_mon", "GPL", insns, n, &opts);
		if (fd >= 0 || log)
			break;
		err = -errno;
		log = calloc(1, LOG_SIZE);
		if (!log)
			break;
	}
	if (fd < 0) {
		err = -errno;
		bp_err("monitor: loading the program for %s failed: %s%s%s\n", pt->func,
		       strerror(-err), log && *log ? "; verifier log:\n" : "", log ? log : "");
		fd = err;
	}
	free(log);
	return fd;
}

static int attach(const struct bp_point *pt, struct mon_func *f)
{
	struct bp_kprobe_target t = {
		.func = pt->kaddr ? NULL : pt->func,
		.addr = pt->kaddr,
	};

	if (pt->map.fentry)
		return bp_fentry__attach(f->prog_fd, pt->func, &f->link_fd);
	return bp_kprobe__attach(f->prog_fd, &t, &f->perf_fd, &f->link_fd);
}

/* What `bpfprobe list` says of the monitor's programs. */
static void bind_meta(struct bp_map_monitor *m, const char *map, int prog_fd)
{
	char text[4200], pid[24];
	struct bp_meta meta = {};
	int err;

	snprintf(text, sizeof(text), "monitor --map %s", map);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	err = bp_meta__add(&meta, "object", "(bpfprobe monitor)");
	if (!err)
		err = bp_meta__add(&meta, "program", "map_monitor");
	if (!err)
		err = bp_meta__add(&meta, "sec", text);
	if (!err)
		err = bp_meta__add(&meta, "loader_pid", pid);
	if (!err)
		err = bp_meta__add(&meta, "pid", "-1");
	if (!err)
		err = bp_meta__add_map_trace(&meta, m->points, m->npoints, "update and delete");
	if (!err)
		err = bp_meta__bind(prog_fd, &meta);
	if (err)
		bp_debug("monitor: no metadata for bpfprobe list: %s\n", strerror(-err));
	bp_meta__free(&meta);
}

static int start(struct bp_map_monitor *m, const char *map)
{
	struct bpf_insn insns[BP_MREC_MAX_INSNS];
	int err = 0;

	m->rb_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "bpfprobe_mon", 0, 0, RINGBUF_SIZE, NULL);
	if (m->rb_fd < 0) {
		err = -errno;
		bp_err("monitor --map %s: cannot create a ring buffer: %s\n", map, strerror(-err));
		return err;
	}
	for (int i = 0; i < m->npoints && !err; i++) {
		const struct bp_point *pt = &m->points[i];
		struct mon_func *f = &m->funcs[i];
		struct bp_guards gs;
		struct bp_mrec_prog p = { .rb_fd = m->rb_fd, .func = i, .guards = &gs };
		int n;

		bp_map_point__guards(pt, &gs);
		describe(m, pt, f, &p);
		n = bp_mrec__gen(&p, insns, BP_MREC_MAX_INSNS);
		if (n < 0) {
			bp_err("monitor: cannot generate the program for %s: %s\n", pt->func,
			       strerror(-n));
			return n;
		}
		f->prog_fd = load_prog(pt, insns, n);
		if (f->prog_fd < 0)
			return f->prog_fd;
		bind_meta(m, map, f->prog_fd);
		err = attach(pt, f);
	}
	return err;
}

/* --- events ----------------------------------------------------------------- */

static int on_record(void *ctx, void *data, size_t size)
{
	struct bp_map_monitor *m = ctx;
	const unsigned char *r = data;
	struct bp_map_event ev = {};
	const struct bp_point *pt;
	const struct mon_func *f;
	uint32_t func;
	uint64_t pid_tgid;

	if (size < BP_MREC_KEY)
		return 0;
	memcpy(&func, r + BP_MREC_FUNC, 4);
	if (func >= (uint32_t)m->npoints)
		return 0;
	pt = &m->points[func];
	f = &m->funcs[func];
	if (size < BP_MREC_VALUE(m->map.key_size) + f->value_size)
		return 0;
	memcpy(&ev.ts_ns, r + BP_MREC_TS, 8);
	memcpy(&pid_tgid, r + BP_MREC_PID, 8);
	ev.pid = pid_tgid >> 32;
	ev.tid = (uint32_t)pid_tgid;
	memcpy(ev.comm, r + BP_MREC_COMM, 16);
	ev.comm[15] = '\0';
	memcpy(&ev.cpu, r + BP_MREC_CPU, 4);
	ev.read_failed = *(const int32_t *)(r + BP_MREC_ERR) != 0;
	ev.update = pt->map.update;
	memcpy(&ev.flags, r + BP_MREC_FLAGS, 8);
	ev.func = pt->func;
	ev.via = pt->map.via;
	ev.key = r + BP_MREC_KEY;
	ev.key_size = m->map.key_size;
	if (pt->map.update) {
		ev.value = r + BP_MREC_VALUE(m->map.key_size);
		ev.value_size = m->map.value_size;
		ev.nvalues = f->nvalues;
		ev.value_stride = (m->map.value_size + 7) / 8 * 8;
		ev.value_cut = f->cut;
		ev.percpu = pt->map.value_percpu;
	}
	m->nevents++;
	m->cb(&ev, m->ctx);
	return 0;
}

int bp_map_monitor__poll(struct bp_map_monitor *m, int timeout_ms,
			 void (*cb)(const struct bp_map_event *ev, void *ctx), void *ctx)
{
	int err;

	m->cb = cb;
	m->ctx = ctx;
	m->nevents = 0;
	err = ring_buffer__poll(m->rb, timeout_ms);
	return err < 0 ? err : m->nevents;
}

const struct bp_map_monitor_info *bp_map_monitor__info(const struct bp_map_monitor *m)
{
	return &m->info;
}

/* --- the whole -------------------------------------------------------------- */

int bp_map_monitor__open(const char *map, struct bp_map_monitor **out)
{
	struct bp_map_monitor *m = calloc(1, sizeof(*m));
	char what[4200];
	int err;

	if (!m)
		return -ENOMEM;
	m->rb_fd = -1;
	m->ncpus = libbpf_num_possible_cpus();
	if (m->ncpus < 1)
		m->ncpus = 1;
	snprintf(what, sizeof(what), "monitor --map %s", map);
	err = resolve(m, map);
	if (!err)
		err = bp_map_trace__choose(what, m->points, m->npoints);
	if (!err) {
		m->funcs = calloc(m->npoints, sizeof(*m->funcs));
		m->fnames = calloc(m->npoints, sizeof(*m->fnames));
		if (!m->funcs || !m->fnames)
			err = -ENOMEM;
	}
	for (int i = 0; m->funcs && i < m->npoints; i++)
		m->funcs[i].prog_fd = m->funcs[i].perf_fd = m->funcs[i].link_fd = -1;
	for (int i = 0; m->fnames && i < m->npoints; i++)
		m->fnames[i] = m->points[i].func;
	if (!err)
		err = start(m, map);
	if (!err) {
		m->rb = ring_buffer__new(m->rb_fd, on_record, m, NULL);
		if (!m->rb) {
			err = -errno;
			bp_err("%s: cannot read the ring buffer: %s\n", what, strerror(-err));
		}
	}
	if (err) {
		bp_map_monitor__free(m);
		return err;
	}
	m->info.fentry = m->npoints && m->points[0].map.fentry;
	m->info.nfuncs = m->npoints;
	m->info.funcs = m->fnames;
	*out = m;
	return 0;
}

void bp_map_monitor__free(struct bp_map_monitor *m)
{
	if (!m)
		return;
	for (int i = 0; m->funcs && i < m->npoints; i++) {
		struct mon_func *f = &m->funcs[i];

		if (f->link_fd >= 0)
			close(f->link_fd);
		if (f->perf_fd >= 0)
			close(f->perf_fd);
		if (f->prog_fd >= 0)
			close(f->prog_fd);
	}
	ring_buffer__free(m->rb);
	if (m->rb_fd >= 0)
		close(m->rb_fd);
	btf__free(m->btf);
	bp_points__free(m->points, m->npoints);
	free(m->funcs);
	free(m->fnames);
	free(m);
}
