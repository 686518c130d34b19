// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Unit tests for the streaming JSON writer (util/json.c): exact output. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/json.h"
#include "tests/unit/test.h"

/* A writer into memory; done() returns the text and bp_json__free's code. */
struct mem {
	char *buf;
	size_t len;
	FILE *f;
	struct bp_json *j;
	int err;
};

static struct bp_json *mem_open(struct mem *m, bool pretty)
{
	struct bp_json_opts opts = { .sz = sizeof(opts), .pretty = pretty };

	m->buf = NULL;
	m->f = open_memstream(&m->buf, &m->len);
	m->j = bp_json__new(m->f, &opts);
	return m->j;
}

static const char *mem_done(struct mem *m)
{
	m->err = bp_json__free(m->j);
	fclose(m->f);
	return m->buf;
}

static void test_compact_nesting(void)
{
	struct mem m;
	struct bp_json *j = mem_open(&m, false);

	bp_json__begin_object(j);
	bp_json__kv_string(j, "name", "neg_args");
	bp_json__kv_int(j, "n", -5);
	bp_json__key(j, "list");
	bp_json__begin_array(j);
	bp_json__int(j, 1);
	bp_json__bool(j, true);
	bp_json__null(j);
	bp_json__begin_object(j);
	bp_json__end_object(j);
	bp_json__begin_array(j);
	bp_json__end_array(j);
	bp_json__end_array(j);
	bp_json__kv_bool(j, "ok", false);
	bp_json__kv_null(j, "none");
	bp_json__end_object(j);
	CHECK_STR(mem_done(&m),
		  "{\"name\":\"neg_args\",\"n\":-5,\"list\":[1,true,null,{},[]],\"ok\":false,\"none\":null}\n");
	CHECK_INT(m.err, 0);
	free(m.buf);
}

static void test_pretty(void)
{
	struct mem m;
	struct bp_json *j = mem_open(&m, true);

	bp_json__begin_object(j);
	bp_json__kv_uint(j, "addr", 4096);
	bp_json__key(j, "args");
	bp_json__begin_array(j);
	bp_json__begin_object(j);
	bp_json__kv_string(j, "type", "int");
	bp_json__end_object(j);
	bp_json__string(j, "x");
	bp_json__end_array(j);
	bp_json__key(j, "empty");
	bp_json__begin_array(j);
	bp_json__end_array(j);
	bp_json__key(j, "obj");
	bp_json__begin_object(j);
	bp_json__end_object(j);
	bp_json__end_object(j);
	CHECK_STR(mem_done(&m),
		  "{\n"
		  "  \"addr\": 4096,\n"
		  "  \"args\": [\n"
		  "    {\n"
		  "      \"type\": \"int\"\n"
		  "    },\n"
		  "    \"x\"\n"
		  "  ],\n"
		  "  \"empty\": [],\n"
		  "  \"obj\": {}\n"
		  "}\n");
	CHECK_INT(m.err, 0);
	free(m.buf);
}

static void test_pretty_indent_width(void)
{
	struct bp_json_opts opts = { .sz = sizeof(opts), .pretty = true, .indent = 4 };
	struct mem m = {};

	m.f = open_memstream(&m.buf, &m.len);
	m.j = bp_json__new(m.f, &opts);
	bp_json__begin_array(m.j);
	bp_json__int(m.j, 1);
	bp_json__end_array(m.j);
	CHECK_STR(mem_done(&m), "[\n    1\n]\n");
	free(m.buf);
}

static void test_escapes(void)
{
	struct mem m;
	struct bp_json *j = mem_open(&m, false);

	bp_json__begin_array(j);
	bp_json__string(j, "quote\" back\\ slash/");
	bp_json__string(j, "\b\f\n\r\t");
	bp_json__string(j, "\x01\x1f\x7f");
	bp_json__string_len(j, "a\0b", 3);
	bp_json__string(j, "");
	bp_json__string(j, NULL);
	bp_json__end_array(j);
	CHECK_STR(mem_done(&m),
		  "[\"quote\\\" back\\\\ slash/\",\"\\b\\f\\n\\r\\t\","
		  "\"\\u0001\\u001f\\u007f\",\"a\\u0000b\",\"\",null]\n");
	CHECK_INT(m.err, 0);
	free(m.buf);
}

/* Valid UTF-8 passes through; every invalid byte becomes U+FFFD. */
static void test_utf8(void)
{
	struct mem m;
	struct bp_json *j = mem_open(&m, false);

	bp_json__begin_array(j);
	bp_json__string(j, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	bp_json__string(j, "\xff");		/* never valid */
	bp_json__string(j, "\x80x");		/* stray continuation */
	bp_json__string(j, "\xc0\xaf");	/* overlong '/' */
	bp_json__string(j, "\xed\xa0\x80");	/* surrogate U+D800 */
	bp_json__string(j, "\xf4\x90\x80\x80");	/* U+110000 */
	bp_json__string(j, "\xe2\x82");	/* truncated */
	bp_json__end_array(j);
	CHECK_STR(mem_done(&m),
		  "[\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\",\"\\ufffd\",\"\\ufffdx\","
		  "\"\\ufffd\\ufffd\",\"\\ufffd\\ufffd\\ufffd\",\"\\ufffd\\ufffd\\ufffd\\ufffd\","
		  "\"\\ufffd\\ufffd\"]\n");
	free(m.buf);
}

static void test_numbers(void)
{
	struct mem m;
	struct bp_json *j = mem_open(&m, false);

	bp_json__begin_array(j);
	bp_json__int(j, INT64_MIN);
	bp_json__int(j, 0);
	bp_json__uint(j, UINT64_MAX);
	bp_json__stringf(j, "0x%x/%s", 255, "ok");
	bp_json__end_array(j);
	CHECK_STR(mem_done(&m),
		  "[-9223372036854775808,0,18446744073709551615,\"0xff/ok\"]\n");
	free(m.buf);
}

/* Several top-level values: one per line (JSON Lines). */
static void test_json_lines(void)
{
	struct mem m;
	struct bp_json *j = mem_open(&m, false);

	bp_json__begin_object(j);
	bp_json__kv_int(j, "a", 1);
	bp_json__end_object(j);
	bp_json__string(j, "two");
	bp_json__int(j, 3);
	CHECK_STR(mem_done(&m), "{\"a\":1}\n\"two\"\n3\n");
	CHECK_INT(m.err, 0);
	free(m.buf);
}

static void test_misuse(void)
{
	struct mem m;
	struct bp_json *j;

	/* a value where a key is due: nothing more is written */
	j = mem_open(&m, false);
	bp_json__begin_object(j);
	bp_json__int(j, 1);
	bp_json__kv_int(j, "a", 2);
	bp_json__end_object(j);
	CHECK_INT(bp_json__error(j), -EINVAL);
	CHECK_STR(mem_done(&m), "{");
	CHECK_INT(m.err, -EINVAL);
	free(m.buf);

	/* a key in an array */
	j = mem_open(&m, false);
	bp_json__begin_array(j);
	bp_json__key(j, "a");
	mem_done(&m);
	CHECK_INT(m.err, -EINVAL);
	free(m.buf);

	/* mismatched end */
	j = mem_open(&m, false);
	bp_json__begin_array(j);
	bp_json__end_object(j);
	mem_done(&m);
	CHECK_INT(m.err, -EINVAL);
	free(m.buf);

	/* a key without its value */
	j = mem_open(&m, false);
	bp_json__begin_object(j);
	bp_json__key(j, "a");
	bp_json__end_object(j);
	mem_done(&m);
	CHECK_INT(m.err, -EINVAL);
	free(m.buf);

	/* left open */
	j = mem_open(&m, false);
	bp_json__begin_object(j);
	mem_done(&m);
	CHECK_INT(m.err, -EINVAL);
	free(m.buf);

	/* too deep */
	j = mem_open(&m, false);
	for (int i = 0; i <= BP_JSON_MAX_DEPTH; i++)
		bp_json__begin_array(j);
	mem_done(&m);
	CHECK_INT(m.err, -E2BIG);
	free(m.buf);

	CHECK_INT(bp_json__free(NULL), 0);
}

/* bp_json__raw: another writer's JSON, in place of a value */
static void test_raw(void)
{
	struct mem m;
	struct bp_json *j = mem_open(&m, false);

	bp_json__begin_object(j);
	bp_json__key(j, "key");
	bp_json__raw(j, "{\"port\":1}");
	bp_json__key(j, "values");
	bp_json__begin_array(j);
	bp_json__raw(j, "1");
	bp_json__raw(j, "[2]");
	bp_json__end_array(j);
	bp_json__end_object(j);
	CHECK_STR(mem_done(&m), "{\"key\":{\"port\":1},\"values\":[1,[2]]}\n");
	CHECK_INT(m.err, 0);
	free(m.buf);
	/* a value where a key is due is misuse, as for any value */
	j = mem_open(&m, false);
	bp_json__begin_object(j);
	bp_json__raw(j, "1");
	mem_done(&m);
	CHECK_INT(m.err, -EINVAL);
	free(m.buf);
}

int main(void)
{
	RUN(test_compact_nesting);
	RUN(test_raw);
	RUN(test_pretty);
	RUN(test_pretty_indent_width);
	RUN(test_escapes);
	RUN(test_utf8);
	RUN(test_numbers);
	RUN(test_json_lines);
	RUN(test_misuse);
	return TEST_EXIT();
}
