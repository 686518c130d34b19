// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Printing a listing. The table: one row per attach point (the first row
 * of a program carries its columns, the next ones only PID and ATTACH),
 * then indented lines for bpfprobe's metadata and pins. The JSON form is
 * documented in docs/commands.md ("bpfprobe list --json") and only grows.
 */
#define _GNU_SOURCE		/* vasprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/libbpf.h>
#include "cli/list_output.h"
#include "util/json.h"

enum col { C_ID, C_TAG, C_NAME, C_TYPE, C_PID, C_OWNERS, C_MAPS, C_LOADED,
	   C_RUNS, C_AVG, C_ATTACH, NCOLS };

static const char *const headers[NCOLS] = {
	"ID", "TAG", "NAME", "TYPE", "PID", "OWNERS", "MAPS", "LOADED",
	"RUNS", "AVG_NS", "ATTACH",
};

struct row {
	char *cell[NCOLS];
	char *detail;		/* printed under the row, may be NULL */
};

struct table {
	struct row *rows;
	int n;
};

/* A growing string; on allocation failure it stays what it was. */
struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *s = realloc(b->s, cap);

		if (!s)
			return;
		b->s = s;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, n + 1, fmt, ap);
	va_end(ap);
	b->len += n;
}

static char *sb_take(struct sbuf *b)
{
	char *s = b->s ? b->s : strdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

static char *fmt_str(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *fmt_str(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

static char *pid_str(const struct bp_attach *a)
{
	if (!a->pid_known)
		return strdup("?");
	if (a->pid < 0)
		return strdup("all");
	return fmt_str("%d", a->pid);
}

static char *attach_str(const struct bp_attach *a)
{
	char buf[4096 + 256];

	bp_attach__format(a, buf, sizeof(buf));
	return strdup(buf);
}

static void time_str(uint64_t boot_ns, bool utc, char *buf, size_t len)
{
	uint64_t ns = bp_sys__boot_to_realtime(boot_ns);
	time_t t = ns / 1000000000ull;
	struct tm tm;

	if (utc) {
		gmtime_r(&t, &tm);
		strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(buf + strlen(buf), len - strlen(buf), ".%03uZ",
			 (unsigned)(ns / 1000000 % 1000));
	} else {
		localtime_r(&t, &tm);
		strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	}
}

static char *maps_str(const struct bp_sys_prog *p)
{
	struct sbuf b = {};

	for (int i = 0; i < p->nmaps; i++)
		sb_printf(&b, "%s%u:%s", i ? "," : "", p->maps[i].id,
			  *p->maps[i].name ? p->maps[i].name : "?");
	return p->nmaps ? sb_take(&b) : strdup("-");
}

static char *owners_str(const struct bp_listed_prog *p)
{
	struct sbuf b = {};

	for (int i = 0; i < p->nowners; i++)
		sb_printf(&b, "%s%d/%s", i ? "," : "", p->owners[i].pid, p->owners[i].comm);
	if (!p->nowners)
		return strdup(p->npins ? "(pinned)" : "-");
	return sb_take(&b);
}

/* bpfprobe's metadata and pins, under the program's rows */
static char *detail_str(const struct bp_listed_prog *p)
{
	const struct bp_meta *m = &p->prog.meta;
	struct sbuf b = {};
	const char *v;

	if (m->n) {
		sb_printf(&b, "    bpfprobe: object %s", bp_meta__get(m, "object", 0) ?: "?");
		if ((v = bp_meta__get(m, "source", 0)))
			sb_printf(&b, " (compiled from %s)", v);
		if ((v = bp_meta__get(m, "program", 0)))
			sb_printf(&b, ", program %s", v);
		if ((v = bp_meta__get(m, "pin", 0)))
			sb_printf(&b, ", pinned as %s", v);
		if ((v = bp_meta__get(m, "sec", 0)))
			sb_printf(&b, "\n    SEC(\"%s\")", v);
		for (int i = 0; (v = bp_meta__get(m, "arg", i)); i++)
			sb_printf(&b, "%s%s", i ? ", " : "\n    args: ", v);
		if ((v = bp_meta__get(m, "seen_as", 0)))
			sb_printf(&b, "\n    exec: %s as process %s sees it, %s on the host", v,
				  bp_meta__get(m, "seen_by", 0) ?: "?",
				  bp_meta__get(m, "binary", 0) ?: "?");
		for (int i = 0; (v = bp_meta__get(m, "copy", i)); i++)
			sb_printf(&b, "%s%s", i ? ", " : "\n    copies attached too: ", v);
		if ((v = bp_meta__get(m, "map_id", 0)))
			sb_printf(&b, "\n    traced map: id %s '%s' (%s), every %s, at", v,
				  bp_meta__get(m, "map_name", 0) ?: "?",
				  bp_meta__get(m, "map_type", 0) ?: "?",
				  bp_meta__get(m, "map_op", 0) ?: "?");
		for (int i = 0; (v = bp_meta__get(m, "map_func", i)); i++)
			sb_printf(&b, "%s%s", i ? ", " : " ", v);
		sb_printf(&b, "\n");
	}
	for (int i = 0; i < p->npins; i++)
		sb_printf(&b, "    pinned: %s\n", p->pins[i]);
	return b.s;
}

static struct row *new_row(struct table *t)
{
	struct row *n = realloc(t->rows, (t->n + 1) * sizeof(*n));

	if (!n)
		return NULL;
	t->rows = n;
	memset(&n[t->n], 0, sizeof(*n));
	return &n[t->n++];
}

static void prog_rows(struct table *t, const struct bp_listed_prog *p, bool stats)
{
	char tag[17], loaded[64], tbuf[32];
	struct row *r = new_row(t);

	if (!r)
		return;
	bp_tag__format(p->prog.tag, tag);
	time_str(p->prog.load_time, false, loaded, sizeof(loaded));
	r->cell[C_ID] = fmt_str("%u", p->prog.id);
	r->cell[C_TAG] = fmt_str("%s%s", tag, p->same_tag ? "*" : "");
	r->cell[C_NAME] = strdup(*p->prog.name ? p->prog.name : "-");
	r->cell[C_TYPE] = strdup(bp_prog_type__str(p->prog.type, tbuf, sizeof(tbuf)));
	r->cell[C_OWNERS] = owners_str(p);
	r->cell[C_MAPS] = maps_str(&p->prog);
	r->cell[C_LOADED] = strdup(loaded);
	if (stats) {
		r->cell[C_RUNS] = fmt_str("%llu", (unsigned long long)p->prog.run_cnt);
		r->cell[C_AVG] = p->prog.run_cnt ?
			fmt_str("%llu", (unsigned long long)(p->prog.run_time_ns / p->prog.run_cnt)) :
			strdup("-");
	}
	if (!p->natts) {
		r->cell[C_PID] = strdup("-");
		r->cell[C_ATTACH] = p->prog.attach_func ?
			fmt_str("(not attached; target %s)", p->prog.attach_func) :
			strdup("(not attached)");
	}
	for (int i = 0; i < p->natts; i++) {
		if (i && !(r = new_row(t)))
			return;
		r->cell[C_PID] = pid_str(&p->atts[i]);
		r->cell[C_ATTACH] = attach_str(&p->atts[i]);
	}
	t->rows[t->n - 1].detail = detail_str(p);
}

static void print_rows(FILE *f, const struct table *t, bool stats)
{
	size_t w[NCOLS] = {};

	for (int c = 0; c < NCOLS; c++)
		w[c] = strlen(headers[c]);
	for (int i = 0; i < t->n; i++)
		for (int c = 0; c < NCOLS; c++)
			if (t->rows[i].cell[c] && strlen(t->rows[i].cell[c]) > w[c])
				w[c] = strlen(t->rows[i].cell[c]);
	for (int i = -1; i < t->n; i++) {
		const struct row *r = i >= 0 ? &t->rows[i] : NULL;
		struct sbuf line = {};

		for (int c = 0; c < NCOLS; c++) {
			const char *s = r ? r->cell[c] : headers[c];

			if (!stats && (c == C_RUNS || c == C_AVG))
				continue;
			if (c == NCOLS - 1)
				sb_printf(&line, "%s", s ? s : "");
			else
				sb_printf(&line, "%-*s  ", (int)w[c], s ? s : "");
		}
		/* continuation rows leave trailing blanks before ATTACH only */
		fprintf(f, "%s\n", line.s ? line.s : "");
		free(line.s);
		if (r && r->detail)
			fputs(r->detail, f);
	}
}

void bp_list__print_table(FILE *f, const struct bp_listing *l)
{
	struct table t = {};
	bool shared = false;

	if (!l->nprogs) {
		fprintf(f, "no BPF program is attached to a uprobe, kprobe, tracepoint or perf event\n");
		return;
	}
	for (int i = 0; i < l->nprogs; i++) {
		prog_rows(&t, &l->progs[i], l->stats_enabled);
		shared |= l->progs[i].same_tag > 0;
	}
	print_rows(f, &t, l->stats_enabled);
	if (shared)
		fprintf(f, "* several programs have this tag (same instructions): ID, MAPS and ATTACH tell them apart\n");
	if (!l->stats_enabled)
		fprintf(f, "(run counts: kernel.bpf_stats_enabled is off; bpfprobe list --stats counts for a while)\n");
	for (int i = 0; i < t.n; i++) {
		for (int c = 0; c < NCOLS; c++)
			free(t.rows[i].cell[c]);
		free(t.rows[i].detail);
	}
	free(t.rows);
}

static void json_attach(struct bp_json *j, const struct bp_attach *a)
{
	char buf[4096 + 256];

	bp_json__begin_object(j);
	bp_json__kv_string(j, "kind", bp_attach__kind_str(a));
	bp_attach__format(a, buf, sizeof(buf));
	bp_json__kv_string(j, "text", buf);
	bp_json__kv_bool(j, "return", a->is_return);
	bp_json__kv_string(j, "target", a->target);
	switch (a->kind) {
	case BP_ATTACH_UPROBE:
		bp_json__kv_uint(j, "offset", a->offset);
		bp_json__kv_string(j, "symbol", a->symbol);
		bp_json__kv_uint(j, "symbol_offset", a->sym_off);
		break;
	case BP_ATTACH_KPROBE:
		bp_json__kv_uint(j, "offset", a->offset);
		bp_json__kv_uint(j, "addr", a->addr);
		break;
	case BP_ATTACH_PERF_EVENT:
		bp_json__kv_uint(j, "perf_type", a->perf_type);
		bp_json__kv_uint(j, "perf_config", a->perf_config);
		break;
	default:
		break;
	}
	if (a->pid_known)
		bp_json__kv_int(j, "pid", a->pid);
	else
		bp_json__kv_null(j, "pid");
	bp_json__kv_uint(j, "cookie", a->cookie);
	if (a->link_id)
		bp_json__kv_uint(j, "link_id", a->link_id);
	else
		bp_json__kv_null(j, "link_id");
	bp_json__end_object(j);
}

/* key: [every value of metadata key mkey] */
static void json_meta_array(struct bp_json *j, const struct bp_meta *m, const char *key,
			    const char *mkey)
{
	const char *v;

	bp_json__key(j, key);
	bp_json__begin_array(j);
	for (int i = 0; (v = bp_meta__get(m, mkey, i)); i++)
		bp_json__string(j, v);
	bp_json__end_array(j);
}

/* A map-tracing program's map: {"id", "name", "type", "op", "functions"} */
static void json_map(struct bp_json *j, const struct bp_meta *m)
{
	const char *v = bp_meta__get(m, "map_id", 0);

	bp_json__key(j, "map");
	if (!v) {
		bp_json__null(j);
		return;
	}
	bp_json__begin_object(j);
	bp_json__kv_uint(j, "id", strtoul(v, NULL, 10));
	bp_json__kv_string(j, "name", bp_meta__get(m, "map_name", 0));
	bp_json__kv_string(j, "type", bp_meta__get(m, "map_type", 0));
	bp_json__kv_string(j, "op", bp_meta__get(m, "map_op", 0));
	json_meta_array(j, m, "functions", "map_func");
	bp_json__end_object(j);
}

static void json_meta(struct bp_json *j, const struct bp_meta *m)
{
	const char *v;

	bp_json__key(j, "bpfprobe");
	if (!m->n) {
		bp_json__null(j);
		return;
	}
	bp_json__begin_object(j);
	bp_json__kv_string(j, "object", bp_meta__get(m, "object", 0));
	bp_json__kv_string(j, "source", bp_meta__get(m, "source", 0));
	bp_json__kv_string(j, "program", bp_meta__get(m, "program", 0));
	bp_json__kv_string(j, "instance", bp_meta__get(m, "instance", 0));
	bp_json__kv_string(j, "sec", bp_meta__get(m, "sec", 0));
	json_meta_array(j, m, "args", "arg");
	bp_json__kv_string(j, "pin", bp_meta__get(m, "pin", 0));
	bp_json__kv_string(j, "seen_as", bp_meta__get(m, "seen_as", 0));
	v = bp_meta__get(m, "seen_by", 0);
	if (v)
		bp_json__kv_int(j, "seen_by", atoi(v));
	else
		bp_json__kv_null(j, "seen_by");
	bp_json__kv_string(j, "binary", bp_meta__get(m, "binary", 0));
	json_meta_array(j, m, "copies", "copy");
	json_map(j, m);
	v = bp_meta__get(m, "loader_pid", 0);
	if (v)
		bp_json__kv_int(j, "loader_pid", atoi(v));
	else
		bp_json__kv_null(j, "loader_pid");
	bp_json__end_object(j);
}

static void json_prog(struct bp_json *j, const struct bp_listing *l, const struct bp_listed_prog *p)
{
	char tag[17], when[64], tbuf[32];

	bp_tag__format(p->prog.tag, tag);
	time_str(p->prog.load_time, true, when, sizeof(when));
	bp_json__begin_object(j);
	bp_json__kv_uint(j, "id", p->prog.id);
	bp_json__kv_string(j, "tag", tag);
	bp_json__kv_string(j, "name", p->prog.name);
	bp_json__kv_string(j, "type", bp_prog_type__str(p->prog.type, tbuf, sizeof(tbuf)));
	bp_json__kv_string(j, "load_time", when);
	bp_json__kv_uint(j, "load_time_boot_ns", p->prog.load_time);
	bp_json__kv_uint(j, "uid", p->prog.uid);
	bp_json__key(j, "same_tag_ids");
	bp_json__begin_array(j);
	for (int i = 0; i < l->nprogs; i++)
		if (&l->progs[i] != p && !memcmp(l->progs[i].prog.tag, p->prog.tag, sizeof(p->prog.tag)))
			bp_json__uint(j, l->progs[i].prog.id);
	bp_json__end_array(j);
	bp_json__key(j, "attach");
	bp_json__begin_array(j);
	for (int i = 0; i < p->natts; i++)
		json_attach(j, &p->atts[i]);
	bp_json__end_array(j);
	bp_json__kv_string(j, "attach_btf_func", p->prog.attach_func);
	bp_json__key(j, "maps");
	bp_json__begin_array(j);
	for (int i = 0; i < p->prog.nmaps; i++) {
		const char *mt = libbpf_bpf_map_type_str(p->prog.maps[i].type);

		bp_json__begin_object(j);
		bp_json__kv_uint(j, "id", p->prog.maps[i].id);
		bp_json__kv_string(j, "name", p->prog.maps[i].name);
		bp_json__kv_string(j, "type", mt);
		bp_json__end_object(j);
	}
	bp_json__end_array(j);
	bp_json__key(j, "owners");
	bp_json__begin_array(j);
	for (int i = 0; i < p->nowners; i++) {
		bp_json__begin_object(j);
		bp_json__kv_int(j, "pid", p->owners[i].pid);
		bp_json__kv_string(j, "comm", p->owners[i].comm);
		bp_json__end_object(j);
	}
	bp_json__end_array(j);
	bp_json__key(j, "pinned");
	bp_json__begin_array(j);
	for (int i = 0; i < p->npins; i++)
		bp_json__string(j, p->pins[i]);
	bp_json__end_array(j);
	bp_json__key(j, "stats");
	if (l->stats_enabled) {
		bp_json__begin_object(j);
		bp_json__kv_uint(j, "run_cnt", p->prog.run_cnt);
		bp_json__kv_uint(j, "run_time_ns", p->prog.run_time_ns);
		if (p->prog.run_cnt)
			bp_json__kv_uint(j, "avg_ns", p->prog.run_time_ns / p->prog.run_cnt);
		else
			bp_json__kv_null(j, "avg_ns");
		bp_json__end_object(j);
	} else {
		bp_json__null(j);
	}
	json_meta(j, &p->prog.meta);
	bp_json__end_object(j);
}

int bp_list__print_json(FILE *f, const struct bp_listing *l)
{
	struct bp_json *j = bp_json__new(f, NULL);

	if (!j)
		return -1;
	bp_json__begin_object(j);
	bp_json__kv_int(j, "version", 1);
	bp_json__kv_bool(j, "stats_enabled", l->stats_enabled);
	bp_json__key(j, "programs");
	bp_json__begin_array(j);
	for (int i = 0; i < l->nprogs; i++)
		json_prog(j, l, &l->progs[i]);
	bp_json__end_array(j);
	bp_json__end_object(j);
	return bp_json__free(j);
}
