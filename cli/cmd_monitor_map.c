// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpfprobe monitor --map MAP: every update and delete of one BPF map, as
 * it happens, with the writer's pid and comm. The programs are the
 * library's (inspect/map_monitor.c); keys and values print through the
 * map's BTF like the map dump at exit (bpfprobe_value__format()).
 *
 *   12:01:02.345678 update key={ .port = 1 } value={ .hits = 3 } flags=BPF_ANY pid=42 comm=app func=htab_map_update_elem
 *   12:01:02.345901 delete key={ .port = 1 } pid=42 comm=app func=htab_map_delete_elem
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>
#include <bpfprobe/bpfprobe.h>

#include "cli/clock_text.h"
#include "cli/monitor_loop.h"
#include "cli/monitor_map.h"
#include "inspect/inspect.h"
#include "util/json.h"

struct printer {
	const struct bp_map_monitor_info *info;
	bool json;
	struct bp_json *j;
	uint64_t mono_to_real;
};

/* "BPF_NOEXIST", "BPF_EXIST|BPF_F_LOCK", "0x10" */
static void flags_str(uint64_t flags, char *buf, size_t len)
{
	static const char *const kinds[] = { "BPF_ANY", "BPF_NOEXIST", "BPF_EXIST", "0x3" };
	size_t n = snprintf(buf, len, "%s", kinds[flags & 3]);

	if (flags & BPF_F_LOCK)
		n += snprintf(buf + n, len - n, "|BPF_F_LOCK");
	if (flags & ~(uint64_t)(3 | BPF_F_LOCK))
		snprintf(buf + n, len - n, "|0x%llx",
			 (unsigned long long)(flags & ~(uint64_t)(3 | BPF_F_LOCK)));
}

static char *format(const struct printer *p, uint32_t type, const void *data, size_t size)
{
	char *s = bpfprobe_value__format(p->info->btf, type, data, size, p->json);

	return s ? s : strdup(p->json ? "null" : "?");
}

static void print_text(const struct printer *p, const struct bp_map_event *ev)
{
	char when[64], flags[64], *s;

	bp_clock__text(ev->ts_ns, p->mono_to_real, p->json, when, sizeof(when));
	printf("%s %s", when, ev->update ? "update" : "delete");
	if (ev->read_failed) {
		printf(" (key or value unreadable)");
	} else {
		s = format(p, p->info->key_type, ev->key, ev->key_size);
		printf(" key=%s", s);
		free(s);
		if (ev->update && ev->percpu) {
			printf(" values=[");
			for (int i = 0; i < ev->nvalues; i++) {
				s = format(p, p->info->value_type,
					   (const char *)ev->value + i * ev->value_stride,
					   ev->value_size);
				printf("%s%s", i ? ", " : "", s);
				free(s);
			}
			printf("%s]", ev->value_cut ? ", ..." : "");
		} else if (ev->update) {
			s = format(p, p->info->value_type, ev->value, ev->value_size);
			printf(" value=%s%s", s, ev->value_cut ? "..." : "");
			free(s);
		}
	}
	if (ev->update) {
		flags_str(ev->flags, flags, sizeof(flags));
		printf(" flags=%s", flags);
	}
	printf(" pid=%u comm=%s func=%s\n", ev->pid, ev->comm, ev->func);
}

static void json_value(const struct printer *p, uint32_t type, const void *data, size_t size)
{
	char *s = format(p, type, data, size);

	bp_json__raw(p->j, s);
	free(s);
}

static void print_json(const struct printer *p, const struct bp_map_event *ev)
{
	struct bp_json *j = p->j;
	char when[64], flags[64];

	bp_clock__text(ev->ts_ns, p->mono_to_real, p->json, when, sizeof(when));
	bp_json__begin_object(j);
	bp_json__kv_string(j, "event", ev->update ? "update" : "delete");
	bp_json__kv_string(j, "time", when);
	bp_json__kv_uint(j, "time_ns", ev->ts_ns);
	bp_json__kv_uint(j, "map_id", p->info->id);
	bp_json__kv_string(j, "map", p->info->name);
	bp_json__kv_bool(j, "read_failed", ev->read_failed);
	bp_json__key(j, "key");
	if (ev->read_failed)
		bp_json__null(j);
	else
		json_value(p, p->info->key_type, ev->key, ev->key_size);
	if (ev->update && ev->percpu && !ev->read_failed) {
		bp_json__key(j, "values");
		bp_json__begin_array(j);
		for (int i = 0; i < ev->nvalues; i++)
			json_value(p, p->info->value_type,
				   (const char *)ev->value + i * ev->value_stride, ev->value_size);
		bp_json__end_array(j);
	} else if (ev->update) {
		bp_json__key(j, "value");
		if (ev->read_failed)
			bp_json__null(j);
		else
			json_value(p, p->info->value_type, ev->value, ev->value_size);
	}
	if (ev->update) {
		flags_str(ev->flags, flags, sizeof(flags));
		bp_json__kv_uint(j, "flags", ev->flags);
		bp_json__kv_string(j, "flags_text", flags);
		bp_json__kv_bool(j, "value_cut", ev->value_cut);
	}
	bp_json__kv_uint(j, "pid", ev->pid);
	bp_json__kv_uint(j, "tid", ev->tid);
	bp_json__kv_string(j, "comm", ev->comm);
	bp_json__kv_int(j, "cpu", ev->cpu);
	bp_json__kv_string(j, "func", ev->func);
	bp_json__kv_string(j, "via", ev->via);
	bp_json__end_object(j);
}

static void on_event(const struct bp_map_event *ev, void *ctx)
{
	const struct printer *p = ctx;

	if (p->json)
		print_json(p, ev);
	else
		print_text(p, ev);
}

static void say_start(const struct bp_map_monitor_info *info)
{
	fprintf(stderr, "bpfprobe monitor: map %u '%s' (%s): every update and delete, with %s on",
		info->id, info->name, info->type, info->fentry ? "fentry" : "kprobes");
	for (int i = 0; i < info->nfuncs; i++)
		fprintf(stderr, "%s %s", i ? "," : "", info->funcs[i]);
	fprintf(stderr, " (Ctrl-C stops)\n");
}

struct map_poll {
	struct bp_map_monitor *m;
	struct printer *p;
};

static int poll_map(void *ctx, int timeout_ms)
{
	struct map_poll *mp = ctx;

	return bp_map_monitor__poll(mp->m, timeout_ms, on_event, mp->p);
}

int cmd_monitor_map(const char *map, bool json, double duration)
{
	struct printer p = { .json = json };
	struct bp_map_monitor *m;
	struct map_poll mp;
	int code;

	bp_monitor__setup();
	if (bp_map_monitor__open(map, &m)) {
		fprintf(stderr, "bpfprobe monitor: cannot monitor map %s\n", map);
		return 1;
	}
	p.info = bp_map_monitor__info(m);
	p.mono_to_real = bp_clock__ns(CLOCK_REALTIME) - bp_clock__ns(CLOCK_MONOTONIC);
	if (json) {
		p.j = bp_json__new(stdout, NULL);
		if (!p.j) {
			bp_map_monitor__free(m);
			return 1;
		}
	}
	say_start(p.info);
	mp = (struct map_poll){ .m = m, .p = &p };
	code = bp_monitor__loop(duration, poll_map, &mp);
	bp_json__free(p.j);
	bp_map_monitor__free(m);
	return code;
}
