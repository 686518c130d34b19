// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Processes' maps at a moment from what the kernel reported (unwind/
 * uw_hist.c): an exec starts them over, a fork copies the parent's, each
 * executable mapping is laid over what it overlaps, records given late
 * are placed by their time, a snapshot base has the records after it
 * laid over it; the exit lets the process be forgotten, and settling
 * keeps what samples to come need. The records
 * themselves as the perf side-band gives them (output/mmap_feed.c), and
 * a module's span from its program headers against /proc's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libelf.h>
#include <linux/perf_event.h>
#include <sys/sysmacros.h>

#include "test.h"
#include "output/mmap_feed.h"
#include "unwind/unwinder.h"
#include "unwind/uw_elf.h"
#include "unwind/uw_hist.h"
#include "unwind/uw_maps.h"

static struct bp_proc_event mmap_ev(pid_t pid, __u64 t, __u64 start, __u64 len, __u64 ino,
				    const char *path)
{
	return (struct bp_proc_event){
		.kind = BP_PROC_MMAP, .pid = pid, .time_ns = t, .start = start, .len = len,
		.pgoff = 0x1000, .ino = ino, .dev_major = 8, .dev_minor = 1, .path = path,
	};
}

static struct bp_proc_event task_ev(enum bp_proc_event_kind kind, pid_t pid, pid_t ppid, __u64 t)
{
	return (struct bp_proc_event){ .kind = kind, .pid = pid, .ppid = ppid, .time_ns = t };
}

static int feed(struct uw_hists *t, struct bp_proc_event ev)
{
	return uw_hists__event(t, &ev);
}

/* The maps of pid at time, as "path@start ..." ("-" when no generation). */
static const char *maps_text(struct uw_hists *t, pid_t pid, __u64 time)
{
	static char buf[512];
	struct uw_hist *h = uw_hists__get(t, pid);
	struct uw_gen *g = h ? uw_hist__gen_at(h, time) : NULL;
	struct uw_maps *m;
	size_t i, len = 0;

	if (!g)
		return "-";
	if (uw_gen__maps_at(g, pid, time, &m))
		return "ENOMEM";
	buf[0] = 0;
	for (i = 0; i < m->n; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s@%llx", i ? " " : "",
				m->v[i].path, (unsigned long long)m->v[i].low);
	uw_maps__free(m);
	return buf;
}

static void test_exec(void)
{
	struct uw_hists t;
	struct uw_gen *g;
	struct uw_maps *m;

	uw_hists__init(&t);
	CHECK_INT(feed(&t, task_ev(BP_PROC_EXEC, 10, 0, 100)), 0);
	CHECK_INT(feed(&t, mmap_ev(10, 110, 0x5000, 0x1000, 7, "/bin/prog")), 0);
	CHECK_INT(feed(&t, mmap_ev(10, 120, 0x7f000, 0x2000, 8, "/lib/ld.so")), 0);
	CHECK_INT(feed(&t, mmap_ev(10, 130, 0x7e000, 0x1000, 0, "[vdso]")), 0);
	CHECK_INT(feed(&t, mmap_ev(10, 200, 0x70000, 0x3000, 9, "/lib/libc.so (deleted)")), 0);
	CHECK_STR(maps_text(&t, 10, 50), "-");
	CHECK_STR(maps_text(&t, 10, 105), "");
	CHECK_STR(maps_text(&t, 10, 120), "/bin/prog@5000 /lib/ld.so@7f000");
	CHECK_STR(maps_text(&t, 10, 199), "/bin/prog@5000 [vdso]@7e000 /lib/ld.so@7f000");
	CHECK_STR(maps_text(&t, 10, 1000),
		  "/bin/prog@5000 /lib/libc.so@70000 [vdso]@7e000 /lib/ld.so@7f000");
	g = uw_hist__gen_at(uw_hists__get(&t, 10), 1000);
	CHECK(g && g->kind == UW_BASE_NONE && uw_gen__recs_at(g, 125) == 2, "exec: no base");
	if (g && !uw_gen__maps_at(g, 10, 1000, &m)) {
		/* the program is the exec's first mapping */
		CHECK(m->exe_ino == 7 && m->exe_dev == makedev(8, 1), "exe %llu",
		      (unsigned long long)m->exe_ino);
		CHECK(m->v[0].exec_only && m->v[0].first_off == 0x1000 && m->v[0].ino == 7 &&
		      m->v[0].dev_major == 8 && m->v[0].dev_minor == 1, "the mapping as reported");
		CHECK(m->v[1].deleted && !m->v[2].exec_only && m->v[2].vdso, "deleted, vdso");
		CHECK(!m->start_time, "no start time known");
		uw_maps__free(m);
	}
	/* bad events */
	CHECK_INT(feed(&t, mmap_ev(0, 1, 1, 1, 1, "/x")), -EINVAL);
	CHECK_INT(feed(&t, mmap_ev(10, 300, 0x1000, 0, 1, "/x")), -EINVAL);
	CHECK_INT(uw_hists__event(&t, NULL), -EINVAL);
	uw_hists__fini(&t);
}

static void test_overlap(void)
{
	struct uw_hists t;

	uw_hists__init(&t);
	feed(&t, task_ev(BP_PROC_EXEC, 11, 0, 100));
	feed(&t, mmap_ev(11, 110, 0x5000, 0x1000, 7, "/bin/prog"));
	feed(&t, mmap_ev(11, 120, 0x8000, 0x4000, 8, "/lib/a.so"));
	feed(&t, mmap_ev(11, 130, 0xa000, 0x1000, 9, "/lib/b.so"));
	/* b.so over a.so's end: a.so was unmapped */
	CHECK_STR(maps_text(&t, 11, 130), "/bin/prog@5000 /lib/b.so@a000");
	CHECK_STR(maps_text(&t, 11, 125), "/bin/prog@5000 /lib/a.so@8000");
	/* JIT code over b.so, the uprobes' page: no module, b.so gone */
	feed(&t, mmap_ev(11, 140, 0xa800, 0x100, 0, "//anon"));
	feed(&t, mmap_ev(11, 150, 0x100000, 0x1000, 0, "[uprobes]"));
	CHECK_STR(maps_text(&t, 11, 200), "/bin/prog@5000");
	uw_hists__fini(&t);
}

static void test_late_record(void)
{
	struct uw_hists t;
	unsigned long long id;
	struct uw_gen *g;

	uw_hists__init(&t);
	feed(&t, task_ev(BP_PROC_EXEC, 12, 0, 100));
	feed(&t, mmap_ev(12, 150, 0x9000, 0x1000, 8, "/lib/late.so"));
	g = uw_hist__gen_at(uw_hists__get(&t, 12), 150);
	id = g ? g->id : 0;
	/* another CPU's record, read after: placed by its time */
	feed(&t, mmap_ev(12, 110, 0x5000, 0x1000, 7, "/bin/prog"));
	g = uw_hist__gen_at(uw_hists__get(&t, 12), 150);
	CHECK(g && g->id != id && g->nrecs == 2 && g->recs[0].time_ns == 110, "placed by time");
	CHECK_STR(maps_text(&t, 12, 120), "/bin/prog@5000");
	CHECK_STR(maps_text(&t, 12, 150), "/bin/prog@5000 /lib/late.so@9000");
	/* appended in order: the same id (maps of earlier times unchanged) */
	id = g ? g->id : 0;
	feed(&t, mmap_ev(12, 160, 0xb000, 0x1000, 9, "/lib/c.so"));
	CHECK(g && g->id == id, "appending keeps the id");
	uw_hists__fini(&t);
}

static void test_fork(void)
{
	struct uw_hists t;
	struct uw_gen *g;

	uw_hists__init(&t);
	feed(&t, task_ev(BP_PROC_EXEC, 20, 0, 100));
	feed(&t, mmap_ev(20, 110, 0x5000, 0x1000, 7, "/bin/sh"));
	feed(&t, mmap_ev(20, 120, 0x7f000, 0x1000, 8, "/lib/libc.so"));
	feed(&t, task_ev(BP_PROC_FORK, 21, 20, 300));
	/* the parent's after the fork are not the child's */
	feed(&t, mmap_ev(20, 310, 0x9000, 0x1000, 9, "/lib/dl.so"));
	feed(&t, mmap_ev(21, 320, 0xa000, 0x1000, 10, "/lib/child.so"));
	feed(&t, task_ev(BP_PROC_EXEC, 21, 0, 400));
	feed(&t, mmap_ev(21, 410, 0x6000, 0x1000, 11, "/bin/target"));
	CHECK_STR(maps_text(&t, 21, 299), "-");
	CHECK_STR(maps_text(&t, 21, 350), "/bin/sh@5000 /lib/child.so@a000 /lib/libc.so@7f000");
	CHECK_STR(maps_text(&t, 21, 500), "/bin/target@6000");
	CHECK_STR(maps_text(&t, 20, 500), "/bin/sh@5000 /lib/dl.so@9000 /lib/libc.so@7f000");
	g = uw_hist__gen_at(uw_hists__get(&t, 21), 350);
	CHECK(g && g->kind == UW_BASE_MAPS && g->forked && g->parent == 20 && !g->self_snapshot &&
	      g->end_ns == 400, "the fork's generation");
	/* a parent nothing was reported of: the child's base is unknown */
	feed(&t, task_ev(BP_PROC_FORK, 31, 30, 600));
	g = uw_hist__gen_at(uw_hists__get(&t, 31), 700);
	CHECK(g && g->kind == UW_BASE_UNKNOWN && g->parent == 30 &&
	      uw_hist__is_current(uw_hists__get(&t, 31), g), "unknown parent");
	CHECK(!uw_hists__get(&t, 30), "the parent is not made up");
	uw_hists__fini(&t);
}

static void gone(pid_t pid, void *ctx)
{
	*(pid_t *)ctx = pid;
}

static void test_exit(void)
{
	struct uw_hists t;
	struct uw_hist *h;
	pid_t pid = 0;

	uw_hists__init(&t);
	feed(&t, task_ev(BP_PROC_EXEC, 40, 0, 100));
	feed(&t, mmap_ev(40, 110, 0x5000, 0x1000, 7, "/bin/prog"));
	feed(&t, task_ev(BP_PROC_EXIT, 40, 1, 200));
	/* a process never seen: nothing */
	feed(&t, task_ev(BP_PROC_EXIT, 41, 1, 200));
	CHECK(!uw_hists__get(&t, 41), "an unknown exit is no process");
	h = uw_hists__get(&t, 40);
	CHECK(h && h->exited && !uw_hist__is_current(h, uw_hist__gen_at(h, 150)), "exited");
	/* its samples, until it is forgotten */
	CHECK_STR(maps_text(&t, 40, 150), "/bin/prog@5000");
	CHECK_STR(maps_text(&t, 40, 250), "-");
	CHECK_INT(uw_hists__forget_exited(&t, gone, &pid), 1);
	CHECK(pid == 40 && !uw_hists__get(&t, 40) && !t.n, "forgotten");
	/* exited, then the pid reused before a sweep: kept */
	feed(&t, task_ev(BP_PROC_EXEC, 42, 0, 100));
	feed(&t, task_ev(BP_PROC_EXIT, 42, 1, 200));
	feed(&t, task_ev(BP_PROC_FORK, 42, 1, 300));
	CHECK_INT(uw_hists__forget_exited(&t, NULL, NULL), 0);
	h = uw_hists__get(&t, 42);
	CHECK(h && h->ngens == 2 && uw_hist__gen_at(h, 150) == &h->gens[0] &&
	      !uw_hist__gen_at(h, 250) && uw_hist__gen_at(h, 350) == &h->gens[1], "reused");
	uw_hists__forget(&t, 42);
	CHECK(!t.n, "forgotten");
	uw_hists__fini(&t);
}

/* A process older than the reports: a snapshot under them. */
static void test_snapshot_base(void)
{
	struct uw_map map = {
		.low = 0x5000, .high = 0x8000, .first_start = 0x5000, .first_end = 0x6000,
		.ino = 7, .dev_major = 8, .dev_minor = 1,
	};
	struct uw_maps *snap = calloc(1, sizeof(*snap));
	struct uw_hists t;
	struct uw_gen *g;
	struct uw_maps *m;

	uw_hists__init(&t);
	feed(&t, mmap_ev(50, 100, 0x9000, 0x1000, 8, "/lib/before.so"));
	feed(&t, mmap_ev(50, 300, 0xa000, 0x1000, 9, "/lib/after.so"));
	g = uw_hist__gen_at(uw_hists__get(&t, 50), 150);
	CHECK(g && g->kind == UW_BASE_UNKNOWN && !g->start_ns && !g->forked, "from the start");
	CHECK_STR(maps_text(&t, 50, 400), "/lib/before.so@9000 /lib/after.so@a000");
	if (!g || !snap)
		goto out;
	snap->start_time = 77;
	snap->taken_ns = 200;
	map.path = strdup("/bin/old");
	uw_maps__insert(snap, &map);
	/* taken at 200: before.so is in it (or was unmapped since) */
	uw_gen__set_base(&t, g, snap, 200, true);
	CHECK_STR(maps_text(&t, 50, 250), "/bin/old@5000");
	CHECK_STR(maps_text(&t, 50, 400), "/bin/old@5000 /lib/after.so@a000");
	if (!uw_gen__maps_at(g, 50, 400, &m)) {
		CHECK(m->start_time == 77 && m->taken_ns == 200 && !m->v[0].exec_only &&
		      m->v[0].high == 0x8000, "the snapshot's");
		uw_maps__free(m);
	}
	/* adopted: a pid nothing was reported of */
	g = uw_hists__adopt(&t, 51);
	CHECK(g && g->kind == UW_BASE_UNKNOWN && !uw_hists__get(&t, 51)->reported &&
	      uw_hist__gen_at(uw_hists__get(&t, 51), 12345) == g, "adopted");
out:
	uw_hists__fini(&t);
}

/* Settling: ended generations dropped, many records folded into the
 * base, the maps of times after it unchanged. */
static void test_settle(void)
{
	char want[512], path[32];
	struct uw_hists t;
	struct uw_hist *h;
	struct uw_gen *g;
	unsigned long long id;
	struct uw_maps *a, *b;
	int i;

	uw_hists__init(&t);
	feed(&t, task_ev(BP_PROC_EXEC, 60, 0, 100));
	feed(&t, mmap_ev(60, 110, 0x5000, 0x1000, 7, "/bin/sh"));
	feed(&t, task_ev(BP_PROC_FORK, 61, 60, 200));
	feed(&t, task_ev(BP_PROC_EXEC, 61, 0, 300));
	feed(&t, mmap_ev(61, 310, 0x6000, 0x1000, 8, "/bin/jit"));
	/* a JIT compiler's code, over and over, and a library among it */
	for (i = 0; i < 2 * UW_FOLD_RECS; i++) {
		if (i == 10) {
			snprintf(path, sizeof(path), "/lib/lib%d.so", i);
			feed(&t, mmap_ev(61, 400 + i, 0x100000, 0x1000, 9, path));
		} else {
			feed(&t, mmap_ev(61, 400 + i, 0x200000 + i * 0x1000, 0x1000, 0, "//anon"));
		}
	}
	/* a predating process's, with no base yet; a forked one's of an
	 * unknown parent */
	feed(&t, task_ev(BP_PROC_FORK, 63, 70, 390));
	for (i = 0; i < 2 * UW_FOLD_RECS; i++) {
		feed(&t, mmap_ev(62, 400 + i, 0x300000 + i * 0x1000, 0x1000, 0, "//anon"));
		feed(&t, mmap_ev(63, 400 + i, 0x300000 + i * 0x1000, 0x1000, 0, "//anon"));
	}
	feed(&t, mmap_ev(62, 395, 0x7000, 0x1000, 10, "/lib/old.so"));
	snprintf(want, sizeof(want), "%s", maps_text(&t, 61, 1000));
	g = uw_hist__gen_at(uw_hists__get(&t, 61), 1000);
	id = g ? g->id : 0;
	CHECK_INT(uw_hists__settle(&t, 450), 0);
	h = uw_hists__get(&t, 61);
	g = h ? uw_hist__gen_at(h, 1000) : NULL;
	CHECK(h && h->ngens == 1 && !uw_hist__gen_at(h, 250), "the fork's generation dropped");
	CHECK(g && g->id != id && g->kind == UW_BASE_MAPS && g->nrecs == 2 * UW_FOLD_RECS - 50 &&
	      g->base_ns == 449, "folded: %zu left", g ? g->nrecs : 0);
	CHECK_STR(maps_text(&t, 61, 1000), want);
	CHECK_STR(maps_text(&t, 61, 1000), "/bin/jit@6000 /lib/lib10.so@100000");
	if (g && !uw_gen__maps_at(g, 61, 1000, &a)) {
		CHECK(a->exe_ino == 8, "the program still known");
		uw_maps__free(a);
	}
	/* the predating one's records folded for want of a base */
	g = uw_hist__gen_at(uw_hists__get(&t, 62), 1000);
	CHECK(g && g->kind == UW_BASE_UNKNOWN && g->base && g->nrecs < 2 * UW_FOLD_RECS + 1,
	      "folded without a base");
	CHECK_STR(maps_text(&t, 62, 1000), "/lib/old.so@7000");
	/* the forked one of an unknown parent: kept whole */
	g = uw_hist__gen_at(uw_hists__get(&t, 63), 1000);
	CHECK(g && !g->base && g->nrecs > UW_FOLD_RECS, "a forked child's, kept");
	/* the same modules, another generation's */
	if (!uw_gen__maps_at(uw_hist__gen_at(uw_hists__get(&t, 61), 1000), 61, 1000, &a) &&
	    !uw_gen__maps_at(uw_hist__gen_at(uw_hists__get(&t, 61), 1000), 61, 420, &b)) {
		CHECK(uw_maps__same(a, b), "the same modules");
		uw_maps__cut(b, 0x100000, 0x100001);
		CHECK(!uw_maps__same(a, b), "one fewer");
		uw_maps__free(a);
		uw_maps__free(b);
	}
	uw_hists__fini(&t);
}

/* perf's records, built as the kernel writes them (with sample_id: pid,
 * tid, time). */
static size_t put_header(unsigned char *buf, __u32 type, __u16 misc, size_t body)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = 8 + body + 16 };

	memcpy(buf, &h, sizeof(h));
	return h.size;
}

static void put_sample_id(unsigned char *buf, size_t size, __u32 pid, __u64 time)
{
	memcpy(buf + size - 16, &pid, 4);
	memcpy(buf + size - 12, &pid, 4);
	memcpy(buf + size - 8, &time, 8);
}

static void test_parse(void)
{
	unsigned char buf[256] = { 0 };
	struct bp_proc_event ev;
	__u32 u[4] = { 0 };
	__u64 q[8] = { 0 }, lost = 0;
	size_t size;

	/* MMAP2: pid, tid; addr, len, pgoff; maj, min; ino, gen; prot, flags; name */
	size = put_header(buf, PERF_RECORD_MMAP2, 0, 64 + 16);
	u[0] = u[1] = 1234;
	memcpy(buf + 8, u, 8);
	q[0] = 0x7f0000;
	q[1] = 0x3000;
	q[2] = 0x26000;
	memcpy(buf + 16, q, 24);
	u[0] = 254;
	u[1] = 3;
	memcpy(buf + 40, u, 8);
	q[0] = 332835;
	memcpy(buf + 48, q, 8);
	strcpy((char *)buf + 72, "/lib/libc.so.6");
	put_sample_id(buf, size, 1234, 999);
	CHECK_INT(bp_mmap_feed__parse(buf, size, &ev, &lost), 1);
	CHECK(ev.kind == BP_PROC_MMAP && ev.pid == 1234 && ev.start == 0x7f0000 &&
	      ev.len == 0x3000 && ev.pgoff == 0x26000 && ev.dev_major == 254 && ev.dev_minor == 3 && ev.ino == 332835 &&
	      ev.time_ns == 999 && ev.path && !strcmp(ev.path, "/lib/libc.so.6"), "mmap2");
	/* a name without its NUL, a record shorter than it says */
	memset(buf + 72, 'x', 16);
	CHECK_INT(bp_mmap_feed__parse(buf, size, &ev, &lost), -EINVAL);
	CHECK_INT(bp_mmap_feed__parse(buf, size - 8, &ev, &lost), -EINVAL);

	/* COMM: an exec's, a rename */
	memset(buf, 0, sizeof(buf));
	size = put_header(buf, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, 16);
	u[0] = u[1] = 55;
	memcpy(buf + 8, u, 8);
	strcpy((char *)buf + 16, "prog");
	put_sample_id(buf, size, 55, 1000);
	CHECK_INT(bp_mmap_feed__parse(buf, size, &ev, &lost), 1);
	CHECK(ev.kind == BP_PROC_EXEC && ev.pid == 55 && ev.time_ns == 1000, "exec");
	put_header(buf, PERF_RECORD_COMM, 0, 16);
	CHECK_INT(bp_mmap_feed__parse(buf, size, &ev, &lost), 0);

	/* FORK, EXIT: pid, ppid, tid, ptid; time */
	memset(buf, 0, sizeof(buf));
	size = put_header(buf, PERF_RECORD_FORK, 0, 24);
	u[0] = 60;
	u[1] = 59;
	u[2] = 60;
	u[3] = 59;
	memcpy(buf + 8, u, 16);
	put_sample_id(buf, size, 60, 1100);
	CHECK_INT(bp_mmap_feed__parse(buf, size, &ev, &lost), 1);
	CHECK(ev.kind == BP_PROC_FORK && ev.pid == 60 && ev.ppid == 59 && ev.time_ns == 1100,
	      "fork");
	put_header(buf, PERF_RECORD_EXIT, 0, 24);
	CHECK_INT(bp_mmap_feed__parse(buf, size, &ev, &lost), 1);
	CHECK(ev.kind == BP_PROC_EXIT && ev.pid == 60, "exit");
	/* a thread's */
	u[2] = 61;
	memcpy(buf + 8, u, 16);
	CHECK_INT(bp_mmap_feed__parse(buf, size, &ev, &lost), 0);
	put_header(buf, PERF_RECORD_FORK, 0, 24);
	CHECK_INT(bp_mmap_feed__parse(buf, size, &ev, &lost), 0);

	/* LOST: id, count */
	memset(buf, 0, sizeof(buf));
	size = put_header(buf, PERF_RECORD_LOST, 0, 16);
	q[0] = 1;
	q[1] = 42;
	memcpy(buf + 8, q, 16);
	CHECK_INT(bp_mmap_feed__parse(buf, size, &ev, &lost), 0);
	CHECK_INT(lost, 42);
	CHECK_INT(bp_mmap_feed__parse(buf, 8, &ev, &lost), -EINVAL);
}

/* The span of this program's module from its headers and its executable
 * mapping equals /proc's, from its first mapping. */
static void test_span(void)
{
	char line[512], path[4096], self[4096];
	unsigned long long lo, hi, off, first = 0, last = 0, x_lo = 0, x_off = 0;
	__u64 low, high;
	ssize_t n;
	FILE *f;
	Elf *elf;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = 0;
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f)) {
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &lo, &hi, perms, &off,
			   path) != 5 || strcmp(path, self))
			continue;
		if (!first)
			first = lo;
		last = hi;
		if (perms[2] == 'x') {
			x_lo = lo;
			x_off = off;
		}
	}
	if (f)
		fclose(f);
	CHECK(first && x_lo, "this program's mappings");
	if (!x_lo || uw_elf__open(self, NULL, &elf))
		return;
	CHECK_INT(uw_elf__module_span(elf, x_lo, x_off, &low, &high), 0);
	CHECK(low == first && high >= last, "span %llx-%llx, /proc %llx-%llx",
	      (unsigned long long)low, (unsigned long long)high, first, last);
	CHECK_INT(uw_elf__module_span(elf, x_lo, 1ULL << 40, &low, &high), -ENOEXEC);
	elf_end(elf);
}

int main(void)
{
	RUN(test_exec);
	RUN(test_overlap);
	RUN(test_late_record);
	RUN(test_fork);
	RUN(test_exit);
	RUN(test_snapshot_base);
	RUN(test_settle);
	RUN(test_parse);
	RUN(test_span);
	return TEST_EXIT();
}
