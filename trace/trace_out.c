// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The lines of `bpfprobe trace` (trace_out.h), formatted by hand into one
 * buffer: a hit is a few hundred bytes and there may be a million of them
 * a second, so no stdio per value.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <bpfprobe/bpfprobe.h>
#include "trace/trace_gen.h"
#include "trace/trace_hist_out.h"
#include "trace/trace_out.h"
#include "trace/trace_stacks.h"
#include "util/utf8.h"

struct bp_trace_out {
	const struct bp_trace *t;
	struct bpfprobe_object *obj;
	struct ring_buffer *rb;
	int fd;
	bool json;
	int err;		/* the first failed write */
	uint64_t unwritten;	/* lines not written since (that one's included) */
	const char **labels;	/* per probe point index */
	size_t nlabels;
	size_t *max_line;	/* per program: the longest line it can make */
	int64_t mono_to_real;	/* CLOCK_REALTIME - CLOCK_MONOTONIC, ns */
	int64_t sec;		/* the second time_text holds */
	char time_text[32];
	char *buf;		/* lines not yet written */
	size_t len, cap;
	struct bp_trace_stacks *stacks;	/* --stack, --folded */
};

/* A hit's stacks formatted before its line is (their room with it). */
struct hit_stacks {
	char *text[BP_TRACE_MAX_ARGS];	/* per member: NULL unless a stack */
	size_t len[BP_TRACE_MAX_ARGS];
	size_t total;
};

static int64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void write_out(struct bp_trace_out *o)
{
	size_t done = 0;

	while (done < o->len && !o->err) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			o->err = n < 0 ? -errno : -EIO;
		else
			done += n;
	}
	/* a line cut short counts as not written */
	for (size_t i = done; o->err && i < o->len; i++)
		o->unwritten += o->buf[i] == '\n';
	o->len = 0;
}

/* --- appending, into room made beforehand --------------------------------- */

static char *at(struct bp_trace_out *o)
{
	return o->buf + o->len;
}

static void put_bytes(struct bp_trace_out *o, const char *s, size_t n)
{
	memcpy(at(o), s, n);
	o->len += n;
}

static void put_str(struct bp_trace_out *o, const char *s)
{
	put_bytes(o, s, strlen(s));
}

static void put_char(struct bp_trace_out *o, char c)
{
	o->buf[o->len++] = c;
}

static void put_u64(struct bp_trace_out *o, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		put_char(o, tmp[--n]);
}

static void put_s64(struct bp_trace_out *o, int64_t v)
{
	if (v < 0) {
		put_char(o, '-');
		put_u64(o, -(uint64_t)v);
	} else {
		put_u64(o, (uint64_t)v);
	}
}

static void put_hex(struct bp_trace_out *o, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	put_str(o, "0x");
	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		put_char(o, tmp[--n]);
}

static void put_xnn(struct bp_trace_out *o, const char *pre, unsigned char c)
{
	static const char digits[] = "0123456789abcdef";

	put_str(o, pre);
	put_char(o, digits[c >> 4]);
	put_char(o, digits[c & 15]);
}

/* Text: quoted as output/text_out.c quotes strings (util/utf8.h). */
static void put_text_escaped(struct bp_trace_out *o, const char *p, size_t len)
{
	o->len += bp_utf8__escape(at(o), p, len, BP_ESC_QUOTED);
}

/* A name (a point's, an argument's) in text: control characters escaped. */
static void put_text_name(struct bp_trace_out *o, const char *s)
{
	o->len += bp_utf8__escape(at(o), s, strlen(s), 0);
}

/* Text made elsewhere (stacks' frames, histograms: their names), needing
 * room for BP_ESC_MAX * len: escaped unless JSON. */
static void put_made_text(struct bp_trace_out *o, const char *s, size_t len)
{
	if (o->json)
		put_bytes(o, s, len);
	else
		o->len += bp_utf8__escape(at(o), s, len, 0);
}

/* JSON: as util/json.c escapes strings (6 bytes per byte at most). */
static void put_json_string(struct bp_trace_out *o, const char *p, size_t len)
{
	put_char(o, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = p[i];
		size_t n;

		switch (c) {
		case '"': put_str(o, "\\\""); continue;
		case '\\': put_str(o, "\\\\"); continue;
		case '\b': put_str(o, "\\b"); continue;
		case '\f': put_str(o, "\\f"); continue;
		case '\n': put_str(o, "\\n"); continue;
		case '\r': put_str(o, "\\r"); continue;
		case '\t': put_str(o, "\\t"); continue;
		}
		if (c < 0x20 || c == 0x7f) {
			put_xnn(o, "\\u00", c);
		} else if (c < 0x80) {
			put_char(o, (char)c);
		} else if ((n = bp_utf8__seq_len((const unsigned char *)p + i, len - i))) {
			put_bytes(o, p + i, n);
			i += n - 1;
		} else {
			put_str(o, "\\ufffd");
		}
	}
	put_char(o, '"');
}

static void put_time(struct bp_trace_out *o, uint64_t mono)
{
	int64_t ns = (int64_t)mono + o->mono_to_real, sec = ns / 1000000000;
	unsigned int us = (unsigned int)(ns % 1000000000 / 1000);
	char frac[8];

	if (sec != o->sec) {
		time_t tt = (time_t)sec;
		struct tm tm;

		if (o->json)
			gmtime_r(&tt, &tm);
		else
			localtime_r(&tt, &tm);
		strftime(o->time_text, sizeof(o->time_text),
			 o->json ? "%Y-%m-%dT%H:%M:%S" : "%H:%M:%S", &tm);
		o->sec = sec;
	}
	put_str(o, o->time_text);
	frac[0] = '.';
	for (int i = 6; i >= 1; i--, us /= 10)
		frac[i] = (char)('0' + us % 10);
	put_bytes(o, frac, 7);
	if (o->json)
		put_char(o, 'Z');
}

/* --- one hit ---------------------------------------------------------------- */

static uint64_t read_uint(const unsigned char *p, unsigned int size)
{
	uint64_t v = 0;

	memcpy(&v, p, size);	/* little-endian, as the BPF side wrote it */
	return v;
}

static int64_t read_sint(const unsigned char *p, unsigned int size)
{
	uint64_t v = read_uint(p, size);
	unsigned int shift = 64 - 8 * size;

	return size >= 8 ? (int64_t)v : (int64_t)(v << shift) >> shift;
}

static void put_value(struct bp_trace_out *o, const struct bp_trace_member *m,
		      const unsigned char *rec)
{
	const unsigned char *p = rec + m->off;

	switch (m->kind) {
	case BP_TRACE_SINT:
		put_s64(o, read_sint(p, m->size));
		break;
	case BP_TRACE_UINT:
		put_u64(o, read_uint(p, m->size));
		break;
	case BP_TRACE_PTR:
	case BP_TRACE_HEX:
		if (o->json)
			put_char(o, '"');
		put_hex(o, read_uint(p, m->size));
		if (o->json)
			put_char(o, '"');
		break;
	default:
		if (o->json) {
			put_json_string(o, (const char *)p, strnlen((const char *)p, m->size));
		} else {
			put_char(o, '"');
			put_text_escaped(o, (const char *)p, strnlen((const char *)p, m->size));
			put_char(o, '"');
		}
	}
}

static void format_hit(struct bp_trace_out *o, const struct bp_trace_prog *p,
		       const struct bp_trace_hdr *h, const unsigned char *rec,
		       const struct hit_stacks *hs)
{
	const char *label = h->point < o->nlabels ? o->labels[h->point] : "?";
	size_t comm_len = strnlen(h->comm, sizeof(h->comm));
	uint64_t err = p->err_off >= 0 ? read_uint(rec + p->err_off, 8) : 0;

	if (o->json) {
		put_str(o, "{\"time\":\"");
		put_time(o, h->time_ns);
		put_str(o, "\",\"time_ns\":");
		put_u64(o, h->time_ns);
		put_str(o, ",\"comm\":");
		put_json_string(o, h->comm, comm_len);
		put_str(o, ",\"pid\":");
		put_u64(o, h->pid);
		put_str(o, ",\"tid\":");
		put_u64(o, h->tid);
		put_str(o, ",\"point\":");
		put_json_string(o, label, strlen(label));
		put_str(o, ",\"args\":{");
	} else {
		put_time(o, h->time_ns);
		put_char(o, ' ');
		put_text_escaped(o, h->comm, comm_len);
		put_char(o, ' ');
		put_u64(o, h->pid);
		put_char(o, ' ');
		put_text_name(o, label);
	}
	for (int k = 0; k < p->nmembers; k++) {
		const struct bp_trace_member *m = &p->members[k];
		bool fault = err & (1ull << m->arg);

		if (o->json) {
			if (k)
				put_char(o, ',');
			put_json_string(o, m->name, strlen(m->name));
			put_char(o, ':');
			if (fault)
				put_str(o, "null");
			else if (hs->text[k])
				put_bytes(o, hs->text[k], hs->len[k]);
			else
				put_value(o, m, rec);
		} else if (m->kind == BP_TRACE_STACK) {
			/* under the line */
			continue;
		} else {
			put_char(o, ' ');
			put_text_name(o, m->name);
			put_char(o, '=');
			if (fault)
				put_str(o, "(fault)");
			else
				put_value(o, m, rec);
		}
	}
	put_str(o, o->json ? "}}\n" : "\n");
	for (int k = 0; !o->json && k < p->nmembers; k++) {
		if (p->members[k].kind != BP_TRACE_STACK)
			continue;
		if (hs->text[k]) {
			put_made_text(o, hs->text[k], hs->len[k]);
		} else {
			put_str(o, "    [no ");
			put_str(o, p->members[k].name);
			put_str(o, ": the fetch failed]\n");
		}
	}
}

/* The stacks of a hit, formatted; false when out of memory. */
static bool format_stacks(struct bp_trace_out *o, const struct bp_trace_prog *p,
			  const unsigned char *rec, struct hit_stacks *hs)
{
	uint64_t err = p->err_off >= 0 ? read_uint(rec + p->err_off, 8) : 0;

	memset(hs, 0, sizeof(*hs));
	for (int k = 0; o->stacks && k < p->nmembers; k++) {
		const struct bp_trace_member *m = &p->members[k];

		if (m->kind != BP_TRACE_STACK || (err & (1ull << m->arg)))
			continue;
		if (bp_trace_stacks__format(o->stacks, read_uint(rec + m->off, 8), o->json,
					    "    ", &hs->text[k], &hs->len[k]))
			return false;
		hs->total += hs->len[k];
	}
	return true;
}

static void free_stacks(struct hit_stacks *hs)
{
	for (int k = 0; k < BP_TRACE_MAX_ARGS; k++)
		free(hs->text[k]);
}

/* --folded: the hit's stacks counted, nothing printed. */
static void count_stacks(struct bp_trace_out *o, const struct bp_trace_prog *p,
			 const unsigned char *rec)
{
	uint64_t err = p->err_off >= 0 ? read_uint(rec + p->err_off, 8) : 0;
	__u64 user = 0, kernel = 0;
	bool has_user = false, has_kernel = false;

	for (int k = 0; k < p->nmembers; k++) {
		const struct bp_trace_member *m = &p->members[k];
		uint64_t id;

		if (m->kind != BP_TRACE_STACK)
			continue;
		id = err & (1ull << m->arg) ? 0 : read_uint(rec + m->off, 8);
		if (!strcmp(m->name, "kstack")) {
			kernel = id;
			has_kernel = true;
		} else {
			user = id;
			has_user = true;
		}
	}
	if (bp_trace_stacks__count(o->stacks, user, has_user, kernel, has_kernel) && !o->err)
		o->err = -ENOMEM;
}

/* Room for a line of p's: a whole one, and at most PIPE_BUF a write. */
static int make_room(struct bp_trace_out *o, size_t line)
{
	if (o->len && o->len + line > PIPE_BUF)
		write_out(o);
	if (o->len + line > o->cap) {
		size_t cap = o->len + line + PIPE_BUF;
		char *b = realloc(o->buf, cap);

		if (!b)
			return -ENOMEM;
		o->buf = b;
		o->cap = cap;
	}
	return 0;
}

static int on_hit(void *ctx, void *data, size_t size)
{
	struct bp_trace_out *o = ctx;
	const struct bp_trace_hdr *h = data;
	const struct bp_trace_prog *p;
	const unsigned char *rec;
	struct hit_stacks hs;

	if (size < sizeof(*h) || h->prog >= (uint32_t)o->t->nprogs)
		return 0;
	p = &o->t->progs[h->prog];
	if (size < sizeof(*h) + p->rec_size)
		return 0;
	rec = (const unsigned char *)data + sizeof(*h);
	if (o->t->folded) {
		count_stacks(o, p, rec);
		return 0;
	}
	if (!format_stacks(o, p, rec, &hs) ||
	    make_room(o, o->max_line[h->prog] + BP_ESC_MAX * hs.total)) {
		free_stacks(&hs);
		return 0;
	}
	format_hit(o, p, h, rec, &hs);
	free_stacks(&hs);
	return 0;
}

/* --- the session ------------------------------------------------------------- */

/* The longest line program i can make: each byte escaped at its longest. */
static size_t max_line(const struct bp_trace_out *o, int i)
{
	const struct bp_trace_prog *p = &o->t->progs[i];
	size_t n = 256 + 6 * 16, label = 0;

	for (size_t k = 0; k < o->nlabels; k++)
		if (o->labels[k] && strlen(o->labels[k]) > label)
			label = strlen(o->labels[k]);
	n += 6 * label;
	for (int k = 0; k < p->nmembers; k++)
		n += 6 * strlen(p->members[k].name) + 16 +
		     (p->members[k].kind == BP_TRACE_STR ? 6 * p->members[k].size : 24);
	return n;
}

/* The program index of a generated program's name, or -1. */
static int prog_index(const struct bp_trace *t, const char *name)
{
	for (int i = 0; name && i < t->nprogs; i++)
		if (!strcmp(t->progs[i].name, name))
			return i;
	return -1;
}

/* Each loaded point's name: the one given to the point resolved alike. */
static int name_points(struct bp_trace_out *o)
{
	o->nlabels = bpfprobe_object__point_cnt(o->obj);
	o->labels = calloc(o->nlabels ? o->nlabels : 1, sizeof(*o->labels));
	if (!o->labels)
		return -ENOMEM;
	for (size_t i = 0; i < o->nlabels; i++) {
		struct bpfprobe_point_info info = { .sz = sizeof(info) };
		int k;

		if (bpfprobe_object__point_info(o->obj, i, &info))
			continue;
		o->labels[i] = info.func;
		k = prog_index(o->t, info.program);
		for (int j = 0; k >= 0 && j < o->t->progs[k].npoints; j++) {
			const struct bp_trace_point *pt = &o->t->progs[k].points[j];

			if (pt->offset == info.offset && pt->is_return == info.is_return &&
			    !strcmp(pt->binary, info.binary ? info.binary : "")) {
				o->labels[i] = pt->label;
				break;
			}
		}
		if (!o->labels[i])
			o->labels[i] = "?";
	}
	return 0;
}

static bool has_stacks(const struct bp_trace *t)
{
	for (int i = 0; i < t->nprogs; i++)
		for (int k = 0; k < t->progs[i].nmembers; k++)
			if (t->progs[i].members[k].kind == BP_TRACE_STACK)
				return true;
	return false;
}

int bp_trace_out__new(const struct bp_trace *t, struct bpfprobe_object *obj,
		      const struct bp_trace_out_opts *opts, struct bp_trace_out **out)
{
	struct bp_trace_out *o = calloc(1, sizeof(*o));
	struct bpf_map *map;
	int err;

	*out = o;
	if (!o)
		return -ENOMEM;
	o->t = t;
	o->obj = obj;
	o->fd = opts->fd;
	o->json = opts->json;
	o->sec = -1;
	o->mono_to_real = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
	o->max_line = calloc(t->nprogs ? t->nprogs : 1, sizeof(*o->max_line));
	err = o->max_line ? name_points(o) : -ENOMEM;
	if (err)
		return err;
	for (int i = 0; i < t->nprogs; i++)
		o->max_line[i] = max_line(o, i);
	if (t->count || t->hist)
		return 0;
	if (has_stacks(t)) {
		err = bp_trace_stacks__new(obj, &o->stacks);
		if (err)
			return err;
	}
	map = bpf_object__find_map_by_name(bpfprobe_object__bpf_object(obj), BP_TRACE_MAP_EVENTS);
	o->rb = map ? ring_buffer__new(bpf_map__fd(map), on_hit, o, NULL) : NULL;
	if (!o->rb) {
		err = map ? -errno : -ENOENT;
		fprintf(stderr, "bpfprobe trace: cannot read the ring buffer %s: %s\n",
			BP_TRACE_MAP_EVENTS, strerror(-err));
		return err;
	}
	return 0;
}

int bp_trace_out__fd(const struct bp_trace_out *o)
{
	return o->rb ? ring_buffer__epoll_fd(o->rb) : -1;
}

int bp_trace_out__poll(struct bp_trace_out *o, int timeout_ms)
{
	int n;

	if (!o->rb) {
		if (timeout_ms > 0)
			usleep(timeout_ms * 1000);
		return 0;
	}
	n = ring_buffer__poll(o->rb, timeout_ms);
	/* the samples before the hits that name them */
	if (o->stacks)
		bp_trace_stacks__consume(o->stacks);
	if (n >= 0) {
		int m = ring_buffer__consume(o->rb);

		n = m < 0 ? m : n + m;
	}
	write_out(o);
	return o->err ? o->err : n;
}

int bp_trace_out__write_error(const struct bp_trace_out *o)
{
	return o->err;
}

uint64_t bp_trace_out__unwritten(const struct bp_trace_out *o)
{
	return o->unwritten;
}

/* The sum over CPUs of per-CPU __u64 entry key of map, or 0. */
static uint64_t percpu_sum(struct bpf_map *map, __u32 key)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t *v, sum = 0;

	if (ncpu <= 0)
		return 0;
	v = calloc(ncpu, sizeof(*v));
	if (v && !bpf_map_lookup_elem(bpf_map__fd(map), &key, v))
		for (int i = 0; i < ncpu; i++)
			sum += v[i];
	free(v);
	return sum;
}

static int print_counts(struct bp_trace_out *o)
{
	struct bpf_map *map = bpf_object__find_map_by_name(bpfprobe_object__bpf_object(o->obj),
							    BP_TRACE_MAP_COUNTS);
	size_t width = 0;

	if (!map)
		return -ENOENT;
	for (size_t i = 0; i < o->nlabels; i++)
		if (strlen(o->labels[i]) > width)
			width = strlen(o->labels[i]);
	for (size_t i = 0; i < o->nlabels; i++) {
		uint64_t n = percpu_sum(map, (__u32)i);
		const char *l = o->labels[i];

		if (make_room(o, 6 * strlen(l) + 64))
			return -ENOMEM;
		if (o->json) {
			put_str(o, "{\"point\":");
			put_json_string(o, l, strlen(l));
			put_str(o, ",\"count\":");
			put_u64(o, n);
			put_str(o, "}\n");
		} else {
			put_text_name(o, l);
			for (size_t k = strlen(l); k <= width; k++)
				put_char(o, ' ');
			put_u64(o, n);
			put_char(o, '\n');
		}
	}
	write_out(o);
	return 0;
}

/* Writes text (len bytes, made with err), then frees it. */
static int put_made(struct bp_trace_out *o, int err, char *text, size_t len)
{
	if (!err)
		err = make_room(o, BP_ESC_MAX * len);
	if (!err) {
		put_made_text(o, text, len);
		write_out(o);
	}
	free(text);
	return err;
}

static int print_folded(struct bp_trace_out *o)
{
	size_t len = 0;
	char *text = NULL;
	int err = bp_trace_stacks__folded(o->stacks, &text, &len);

	return put_made(o, err, text, len);
}

static int print_hists(struct bp_trace_out *o)
{
	struct bpf_map *map = bpf_object__find_map_by_name(bpfprobe_object__bpf_object(o->obj),
							    BP_TRACE_MAP_HIST);
	size_t len = 0;
	char *text = NULL;
	int err;

	if (!map)
		return -ENOENT;
	err = bp_trace_hist__format(o->t, map, (const char *const *)o->labels, o->nlabels,
				    o->json, &text, &len);
	return put_made(o, err, text, len);
}

int bp_trace_out__finish(struct bp_trace_out *o)
{
	struct bpf_map *lost;
	uint64_t n;

	if (o->rb) {
		if (o->stacks)
			bp_trace_stacks__consume(o->stacks);
		ring_buffer__consume(o->rb);
		write_out(o);
	}
	if (o->t->folded && o->stacks)
		print_folded(o);
	if (o->t->hist)
		print_hists(o);
	else if (o->t->count)
		print_counts(o);
	lost = bpf_object__find_map_by_name(bpfprobe_object__bpf_object(o->obj),
					    BP_TRACE_MAP_LOST);
	n = lost ? percpu_sum(lost, 0) : 0;
	if (n)
		fprintf(stderr, "bpfprobe trace: %llu hits were lost: the ring buffer was full\n",
			(unsigned long long)n);
	return o->err;
}

void bp_trace_out__free(struct bp_trace_out *o)
{
	if (!o)
		return;
	ring_buffer__free(o->rb);
	bp_trace_stacks__free(o->stacks);
	free(o->labels);
	free(o->max_line);
	free(o->buf);
	free(o);
}
