// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpfprobe monitor: a live stream of BPF program loads and unloads. Each
 * load is described at once (fetched by id while it still exists) and
 * remembered, so its unload can say what went away, who loaded it and how
 * long it lived, even for programs that lived milliseconds.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/clock_text.h"
#include "cli/commands.h"
#include "cli/monitor_loop.h"
#include "cli/monitor_map.h"
#include "cli/options.h"
#include "cli/privileges.h"
#include "sysinfo/bpf_events.h"
#include "sysinfo/btf_name.h"
#include "sysinfo/libbpf_probes.h"
#include "sysinfo/prog_info.h"
#include "util/json.h"
#include "util/grow.h"

enum { OPT_JSON = 256 };

static const struct bp_cli_opt monitor_opts[] = {
	{ "json", OPT_JSON, no_argument, NULL, "JSON Lines, one object per event" },
	{ "duration", 'd', required_argument, "SECONDS", "stop after SECONDS (default: Ctrl-C)" },
	{ "map", 'm', required_argument, "MAP",
	  "every update and delete of one BPF map instead: a pinned path, id:N or name:NAME" },
	{}
};

static const struct bp_cli_cmd monitor_cmd = {
	.name = "monitor",
	.operands = "",
	.what = "A live stream of BPF program loads and unloads on the system, from perf\n"
		"side-band records: id, tag, name, type, maps, the loader's pid and name;\n"
		"each unload refers back to its load. libbpf's feature probes (tiny\n"
		"programs libbpf loads to learn what the kernel supports) are labelled\n"
		"probe=libbpf. With --map MAP: every update and delete of MAP, with its\n"
		"key, value and flags and who made it. Needs root.",
	.opts = monitor_opts,
};
#define COMM_SLOTS 1024
#define KSYM_PENDING 64

/* What a load told us, kept for its unload. */
struct loaded {
	uint32_t id;
	uint8_t tag[BPF_TAG_SIZE];
	char name[BPF_OBJ_NAME_LEN];
	uint32_t type;
	bool described;		/* the program was still there to read */
	pid_t pid;
	char comm[16];
	uint64_t time;
};

/* A JIT image's kernel symbol; its KSYMBOL record precedes the load's. */
struct ksym {
	char name[128];
	uint64_t addr;
	uint32_t len;
};

struct monitor {
	bool json;
	struct bp_btf_names *names;
	struct loaded *loads;
	size_t nloads, cap;
	struct { pid_t pid; char comm[16]; } comms[COMM_SLOTS];	/* from COMM records */
	uint64_t mono_to_real;	/* add to CLOCK_MONOTONIC ns for CLOCK_REALTIME */
	struct ksym ksyms[KSYM_PENDING];	/* registered, not yet claimed by a load */
	int nksyms;
	struct bp_libbpf_probes probes;	/* tags of libbpf's feature probes */
};

static void time_str(const struct monitor *m, uint64_t mono, bool json, char *buf, size_t len)
{
	bp_clock__text(mono, m->mono_to_real, json, buf, len);
}

/* The loader's name: /proc while it runs, else its last COMM record. */
static void loader_comm(const struct monitor *m, pid_t pid, char comm[16])
{
	char path[64], buf[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "r");
	if (f && fgets(buf, sizeof(buf), f)) {
		fclose(f);
		buf[strcspn(buf, "\n")] = '\0';
		buf[15] = '\0';
		memcpy(comm, buf, 16);
		return;
	}
	if (f)
		fclose(f);
	if (m->comms[pid % COMM_SLOTS].pid == pid) {
		memcpy(comm, m->comms[pid % COMM_SLOTS].comm, 16);
		return;
	}
	strcpy(comm, "?");
}

static struct loaded *remember(struct monitor *m)
{
	if (bp_grow((void **)&m->loads, m->nloads, &m->cap, sizeof(*m->loads), 64))
		return NULL;
	memset(&m->loads[m->nloads], 0, sizeof(*m->loads));
	return &m->loads[m->nloads++];
}

static struct loaded *find_load(struct monitor *m, uint32_t id)
{
	for (size_t i = m->nloads; i-- > 0;)
		if (m->loads[i].id == id)
			return &m->loads[i];
	return NULL;
}

static void remember_ksym(struct monitor *m, const struct bp_bpf_event *ev)
{
	/* programs only: trampolines and dispatchers are no program's */
	if (strncmp(ev->name, "bpf_prog_", 9))
		return;
	if (m->nksyms == KSYM_PENDING)
		memmove(m->ksyms, m->ksyms + 1, --m->nksyms * sizeof(m->ksyms[0]));
	snprintf(m->ksyms[m->nksyms].name, sizeof(m->ksyms[0].name), "%s", ev->name);
	m->ksyms[m->nksyms].addr = ev->addr;
	m->ksyms[m->nksyms].len = ev->len;
	m->nksyms++;
}

/* The JIT symbols of a program: "bpf_prog_<tag>[_<name>]", taken out of
 * the pending list. Returns how many were copied into out. */
static int claim_ksyms(struct monitor *m, const char *tag, struct ksym *out, int max)
{
	char prefix[32];
	int n = 0;

	snprintf(prefix, sizeof(prefix), "bpf_prog_%s", tag);
	for (int i = 0; i < m->nksyms;) {
		if (strncmp(m->ksyms[i].name, prefix, strlen(prefix))) {
			i++;
			continue;
		}
		if (n < max)
			out[n++] = m->ksyms[i];
		memmove(m->ksyms + i, m->ksyms + i + 1, (--m->nksyms - i) * sizeof(m->ksyms[0]));
	}
	return n;
}

static void print_load_text(const struct monitor *m, const struct bp_bpf_event *ev,
			    const struct loaded *l, const struct bp_sys_prog *sp,
			    const struct ksym *ks, int nks)
{
	char when[64], tag[17], tbuf[32];

	time_str(m, ev->time, false, when, sizeof(when));
	bp_tag__format(ev->tag, tag);
	printf("%s LOAD   id=%u tag=%s%s", when, ev->id, tag,
	       bp_libbpf_probes__match(&m->probes, ev->tag) ? " probe=libbpf" : "");
	if (!l->described) {
		printf(" (unloaded before it could be read) pid=%d comm=%s\n", l->pid, l->comm);
		return;
	}
	printf(" name=%s type=%s maps=", *sp->name ? sp->name : "-",
	       bp_prog_type__str(sp->type, tbuf, sizeof(tbuf)));
	for (int i = 0; i < sp->nmaps; i++)
		printf("%s%u:%s", i ? "," : "", sp->maps[i].id, sp->maps[i].name);
	printf("%s pid=%d comm=%s", sp->nmaps ? "" : "-", l->pid, l->comm);
	if (sp->attach_func)
		printf(" attach=%s", sp->attach_func);
	for (int i = 0; i < nks; i++)
		printf(" ksym=%s@0x%llx", ks[i].name, (unsigned long long)ks[i].addr);
	printf("\n");
}

static void print_load_json(const struct monitor *m, const struct bp_bpf_event *ev,
			    const struct loaded *l, const struct bp_sys_prog *sp,
			    const struct ksym *ks, int nks)
{
	struct bp_json *j = bp_json__new(stdout, NULL);
	char when[64], tag[17], tbuf[32];

	if (!j)
		return;
	time_str(m, ev->time, true, when, sizeof(when));
	bp_tag__format(ev->tag, tag);
	bp_json__begin_object(j);
	bp_json__kv_string(j, "event", "load");
	bp_json__kv_string(j, "time", when);
	bp_json__kv_uint(j, "id", ev->id);
	bp_json__kv_string(j, "tag", tag);
	bp_json__kv_bool(j, "described", l->described);
	bp_json__kv_bool(j, "libbpf_probe", bp_libbpf_probes__match(&m->probes, ev->tag));
	bp_json__kv_string(j, "name", l->described ? sp->name : NULL);
	bp_json__kv_string(j, "type", l->described ? bp_prog_type__str(sp->type, tbuf, sizeof(tbuf)) : NULL);
	bp_json__key(j, "maps");
	bp_json__begin_array(j);
	for (int i = 0; l->described && i < sp->nmaps; i++) {
		bp_json__begin_object(j);
		bp_json__kv_uint(j, "id", sp->maps[i].id);
		bp_json__kv_string(j, "name", sp->maps[i].name);
		bp_json__end_object(j);
	}
	bp_json__end_array(j);
	bp_json__kv_string(j, "attach_btf_func", l->described ? sp->attach_func : NULL);
	bp_json__key(j, "ksyms");
	bp_json__begin_array(j);
	for (int i = 0; i < nks; i++) {
		bp_json__begin_object(j);
		bp_json__kv_string(j, "name", ks[i].name);
		bp_json__kv_uint(j, "addr", ks[i].addr);
		bp_json__kv_uint(j, "len", ks[i].len);
		bp_json__end_object(j);
	}
	bp_json__end_array(j);
	bp_json__kv_int(j, "pid", l->pid);
	bp_json__kv_string(j, "comm", l->comm);
	bp_json__end_object(j);
	bp_json__free(j);
}

static int on_load(struct monitor *m, const struct bp_bpf_event *ev)
{
	struct bp_sys_prog sp;
	struct loaded *l = remember(m);
	struct ksym ks[8];
	char tag[17];
	int nks;

	if (!l)
		return -ENOMEM;
	bp_tag__format(ev->tag, tag);
	nks = claim_ksyms(m, tag, ks, 8);
	/* bp_bpf_events opened it as soon as the record came */
	l->described = ev->prog_fd >= 0 && !bp_sys_prog__read_fd(ev->prog_fd, &sp, m->names);
	l->id = ev->id;
	memcpy(l->tag, ev->tag, sizeof(l->tag));
	l->pid = ev->pid;
	l->time = ev->time;
	loader_comm(m, ev->pid, l->comm);
	if (l->described) {
		memcpy(l->name, sp.name, sizeof(l->name));
		l->type = sp.type;
	}
	if (m->json)
		print_load_json(m, ev, l, &sp, ks, nks);
	else
		print_load_text(m, ev, l, &sp, ks, nks);
	if (l->described)
		bp_sys_prog__free(&sp);
	return 0;
}

static void print_unload(const struct monitor *m, const struct bp_bpf_event *ev,
			 const struct loaded *l)
{
	char when[64], tag[17], tbuf[32];
	struct bp_json *j;

	time_str(m, ev->time, m->json, when, sizeof(when));
	bp_tag__format(ev->tag, tag);
	if (!m->json) {
		printf("%s UNLOAD id=%u tag=%s%s", when, ev->id, tag,
		       bp_libbpf_probes__match(&m->probes, ev->tag) ? " probe=libbpf" : "");
		if (!l)
			printf(" (loaded before monitoring began)\n");
		else if (l->described)
			printf(" name=%s type=%s lived=%.3fms loaded_by=%d/%s\n", *l->name ? l->name : "-",
			       bp_prog_type__str(l->type, tbuf, sizeof(tbuf)),
			       (ev->time - l->time) / 1e6, l->pid, l->comm);
		else
			printf(" lived=%.3fms loaded_by=%d/%s\n", (ev->time - l->time) / 1e6,
			       l->pid, l->comm);
		return;
	}
	j = bp_json__new(stdout, NULL);
	if (!j)
		return;
	bp_json__begin_object(j);
	bp_json__kv_string(j, "event", "unload");
	bp_json__kv_string(j, "time", when);
	bp_json__kv_uint(j, "id", ev->id);
	bp_json__kv_string(j, "tag", tag);
	bp_json__kv_bool(j, "load_seen", l != NULL);
	bp_json__kv_bool(j, "libbpf_probe", bp_libbpf_probes__match(&m->probes, ev->tag));
	bp_json__kv_string(j, "name", l && l->described ? l->name : NULL);
	bp_json__kv_string(j, "type", l && l->described ? bp_prog_type__str(l->type, tbuf, sizeof(tbuf)) : NULL);
	if (l) {
		bp_json__kv_uint(j, "lived_ns", ev->time - l->time);
		bp_json__kv_int(j, "pid", l->pid);
		bp_json__kv_string(j, "comm", l->comm);
	} else {
		bp_json__kv_null(j, "lived_ns");
		bp_json__kv_null(j, "pid");
		bp_json__kv_null(j, "comm");
	}
	bp_json__end_object(j);
	bp_json__free(j);
}

static int on_event(const struct bp_bpf_event *ev, void *ctx)
{
	struct monitor *m = ctx;
	struct loaded *l;

	switch (ev->kind) {
	case BP_EV_PROG_LOAD:
		return on_load(m, ev);
	case BP_EV_PROG_UNLOAD:
		l = find_load(m, ev->id);
		print_unload(m, ev, l);
		if (l)
			*l = m->loads[--m->nloads];
		return 0;
	case BP_EV_KSYM_ADD:
		remember_ksym(m, ev);
		return 0;
	case BP_EV_COMM:
		if (ev->pid == ev->tid) {
			m->comms[ev->pid % COMM_SLOTS].pid = ev->pid;
			snprintf(m->comms[ev->pid % COMM_SLOTS].comm, 16, "%.15s", ev->name);
		}
		return 0;
	case BP_EV_LOST:
		if (m->json)
			printf("{\"event\":\"lost\",\"count\":%llu}\n", (unsigned long long)ev->lost);
		else
			fprintf(stderr, "bpfprobe monitor: %llu records lost (ring full)\n",
				(unsigned long long)ev->lost);
		return 0;
	default:
		return 0;
	}
}

static int parse_args(int argc, char **argv, struct monitor *m, double *duration,
		      const char **map)
{
	int c;

	optind = 0;
	while ((c = bp_cli__next(&monitor_cmd, argc, argv)) != -1) {
		switch (c) {
		case OPT_JSON:
			m->json = true;
			break;
		case 'm':
			*map = optarg;
			break;
		case 'd': {
			char *end;

			*duration = strtod(optarg, &end);
			if (*end || *duration <= 0) {
				fprintf(stderr, "bpfprobe monitor: bad --duration '%s' (seconds > 0)\n", optarg);
				return -EINVAL;
			}
			break;
		}
		default:
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bpfprobe monitor: unexpected argument '%s'\n", argv[optind]);
		bp_cli__usage(&monitor_cmd);
		return -EINVAL;
	}
	return 0;
}

struct events_poll {
	struct bp_bpf_events *ev;
	struct monitor *m;
};

static int poll_events(void *ctx, int timeout_ms)
{
	struct events_poll *p = ctx;

	return bp_bpf_events__poll(p->ev, timeout_ms, on_event, p->m);
}

int cmd_monitor(int argc, char **argv)
{
	struct bp_bpf_events *ev = NULL;
	const char *map = NULL;
	double duration = 0;
	struct monitor *m;
	int err, code = 0;

	m = calloc(1, sizeof(*m));
	if (!m)
		return 1;
	if (parse_args(argc, argv, m, &duration, &map)) {
		free(m);
		return 2;
	}
	if (bp_cli__check_privileges("monitor")) {
		free(m);
		return 1;
	}
	if (map) {
		/* every update and delete of one map, instead */
		code = cmd_monitor_map(map, m->json, duration);
		free(m);
		return code;
	}
	bp_monitor__setup();
	m->names = bp_btf_names__new();
	m->mono_to_real = bp_clock__ns(CLOCK_REALTIME) - bp_clock__ns(CLOCK_MONOTONIC);
	/* before the side-band opens: our own loads are not reported */
	bp_libbpf_probes__init(&m->probes);
	err = bp_bpf_events__open(&ev);
	if (err) {
		code = 1;
	} else {
		struct events_poll p = { .ev = ev, .m = m };

		fprintf(stderr, "bpfprobe monitor: watching BPF program loads and unloads (Ctrl-C stops)\n");
		code = bp_monitor__loop(duration, poll_events, &p);
	}
	bp_bpf_events__close(ev);
	bp_btf_names__free(m->names);
	free(m->loads);
	free(m);
	return code;
}
