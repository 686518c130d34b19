// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --json: every output record is one JSON object on one line, with a
 * "type" saying what it is:
 *   {"type":"printk","time_ns":N,"cpu":N,"pid":N,"comm":"...","msg":"..."}
 *   {"type":"record","map":"events","cpu":N,"data":{"field":value,...}}
 *     ("cpu" only for perf buffers; "text" instead of "data" for perf's
 *      __bpf_stdout__, "hex" when the record has no known type)
 *   {"type":"lost","source":"events","cpu":N,"count":N}
 *   {"type":"map","map":"counts","kind":"hash","entries":[{"key":K,"value":V},...]}
 *     (per-CPU values that do not add up: "values":[per CPU] instead of "value")
 */
#include <stdio.h>
#include <string.h>
#include "output/btf_record.h"
#include "output/hist.h"
#include "output/json_out.h"
#include "output/stack_print.h"
#include "util/json.h"

struct json_sink {
	struct bp_value_sink base;
	struct bp_json *j;
};

static struct bp_json *js(struct bp_value_sink *s)
{
	return ((struct json_sink *)s)->j;
}

static void j_open(struct bp_value_sink *s, bool array)
{
	if (array)
		bp_json__begin_array(js(s));
	else
		bp_json__begin_object(js(s));
}

static void j_close(struct bp_value_sink *s, bool array)
{
	if (array)
		bp_json__end_array(js(s));
	else
		bp_json__end_object(js(s));
}

static void j_member(struct bp_value_sink *s, const char *name)
{
	bp_json__key(js(s), name);
}

static void j_sint(struct bp_value_sink *s, long long v)
{
	bp_json__int(js(s), v);
}

static void j_uint(struct bp_value_sink *s, unsigned long long v)
{
	bp_json__uint(js(s), v);
}

static void j_ptr(struct bp_value_sink *s, unsigned long long v)
{
	bp_json__stringf(js(s), "0x%llx", v);
}

static void j_real(struct bp_value_sink *s, double v)
{
	/* JSON has no inf/nan */
	if (v != v || v > 1e308 || v < -1e308)
		bp_json__null(js(s));
	else
		bp_json__stringf(js(s), "%.17g", v);
}

static void j_bool(struct bp_value_sink *s, bool v)
{
	bp_json__bool(js(s), v);
}

static void j_str(struct bp_value_sink *s, const char *p, size_t len)
{
	bp_json__string_len(js(s), p, len);
}

static void j_enumerator(struct bp_value_sink *s, const char *name)
{
	bp_json__string(js(s), name);
}

static void put_hex_string(struct bp_json *j, const void *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = p;
	char buf[2 * 256 + 1];
	size_t n = 0;

	if (len > 256) {	/* rare: big untyped records */
		bp_json__begin_array(j);
		for (size_t i = 0; i < len; i++)
			bp_json__uint(j, b[i]);
		bp_json__end_array(j);
		return;
	}
	for (size_t i = 0; i < len; i++) {
		buf[n++] = digits[b[i] >> 4];
		buf[n++] = digits[b[i] & 15];
	}
	bp_json__string_len(j, buf, n);
}

static void j_bytes(struct bp_value_sink *s, const void *p, size_t len)
{
	put_hex_string(js(s), p, len);
}

static void j_stack(struct bp_value_sink *s, unsigned long long id)
{
	bp_stack__json(js(s), s->stacks, id);
}

static const struct bp_value_sink_ops json_ops = {
	.open = j_open, .close = j_close, .member = j_member, .sint = j_sint,
	.uint = j_uint, .ptr = j_ptr, .real = j_real, .boolean = j_bool, .str = j_str,
	.enumerator = j_enumerator, .bytes = j_bytes, .stack = j_stack,
};

void bp_jsonout__value(struct bp_json *j, const struct bp_typed *v)
{
	struct json_sink s = { .base.ops = &json_ops, .j = j };

	bp_btf_value__write(v, &s.base);
}

void bp_jsonout__printk(struct bp_json *j, const struct bp_printk_msg *m)
{
	bp_json__begin_object(j);
	bp_json__kv_string(j, "type", "printk");
	bp_json__kv_uint(j, "time_ns", m->ts_ns);
	bp_json__kv_int(j, "cpu", m->cpu);
	bp_json__kv_int(j, "pid", m->pid);
	bp_json__kv_string(j, "comm", m->comm);
	bp_json__key(j, "msg");
	bp_json__string_len(j, m->msg, m->len);
	bp_json__end_object(j);
}

void bp_jsonout__record(struct bp_json *j, const struct bp_record *r)
{
	bp_json__begin_object(j);
	bp_json__kv_string(j, "type", "record");
	bp_json__kv_string(j, "map", r->map);
	if (r->cpu >= 0)
		bp_json__kv_int(j, "cpu", r->cpu);
	if (r->text) {
		bp_json__key(j, "text");
		bp_json__string_len(j, r->val.data, strnlen(r->val.data, r->val.size));
	} else if (bp_btf_value__typed(&r->val)) {
		bp_json__key(j, "data");
		bp_jsonout__value(j, &r->val);
	} else {
		bp_json__key(j, "hex");
		put_hex_string(j, r->val.data, r->val.size);
	}
	bp_json__end_object(j);
}

void bp_jsonout__lost(struct bp_json *j, const struct bp_lost *l)
{
	bp_json__begin_object(j);
	bp_json__kv_string(j, "type", "lost");
	bp_json__kv_string(j, "source", l->source);
	bp_json__kv_int(j, "cpu", l->cpu);
	if (l->count)
		bp_json__kv_uint(j, "count", l->count);
	else
		bp_json__kv_null(j, "count");
	bp_json__end_object(j);
}

void bp_jsonout__map_begin(struct bp_json *j, const struct bp_map_head *h)
{
	bp_json__begin_object(j);
	bp_json__kv_string(j, "type", "map");
	bp_json__kv_string(j, "map", h->name);
	bp_json__kv_string(j, "kind", h->kind);
	bp_json__key(j, "entries");
	bp_json__begin_array(j);
}

void bp_jsonout__map_entry(struct bp_json *j, const struct bp_typed *key,
			   const struct bp_typed *values, int nvalues)
{
	bp_json__begin_object(j);
	bp_json__key(j, "key");
	bp_jsonout__value(j, key);
	if (nvalues == 1) {
		bp_json__key(j, "value");
		bp_jsonout__value(j, &values[0]);
	} else {
		bp_json__key(j, "values");
		bp_json__begin_array(j);
		for (int i = 0; i < nvalues; i++)
			bp_jsonout__value(j, &values[i]);
		bp_json__end_array(j);
	}
	bp_json__end_object(j);
}

void bp_jsonout__map_hist(struct bp_json *j, const struct bp_typed *key,
			  const struct bp_hist *hist)
{
	bp_json__begin_object(j);
	bp_json__key(j, "key");
	bp_jsonout__value(j, key);
	bp_json__key(j, "hist");
	bp_hist__json(j, hist);
	bp_json__end_object(j);
}

void bp_jsonout__map_end(struct bp_json *j)
{
	bp_json__end_array(j);
	bp_json__end_object(j);
}
