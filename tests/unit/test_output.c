// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests for the pure stages of output/: printk format globs and the
 * session filter, the libtraceevent decoder on a hand-made ring buffer
 * page, the BTF value walker (text and JSON), the record-type naming
 * convention and per-CPU summing.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <traceevent/kbuffer.h>
#include <bpfprobe/bpfprobe.h>

#include "output/btf_record.h"
#include "output/comm.h"
#include "output/json_out.h"
#include "output/printk_event.h"
#include "output/printk_filter.h"
#include "output/text_out.h"
#include "util/json.h"
#include "tests/unit/test.h"

/* --- printk format globs and matching --- */

static void test_format_glob(void)
{
	static const struct { const char *fmt, *glob; } cases[] = {
		{ "GOT a=%ld b=%d", "GOT a=* b=*" },
		{ "x=%-08llx y=%5.2s%%\n", "x=* y=*%" },
		{ "%pS at %pI4 then %pks!", "* at * then *!" },
		{ "star * q? [br] back\\", "star \\* q\\? \\[br] back\\\\" },
		{ "%d%u%c", "*" },
		{ "trailing %", "trailing *" },
		{ "two\n\n", "two" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *g = bp_printk_format__glob(cases[i].fmt, strlen(cases[i].fmt) + 1);

		CHECK_STR(g, cases[i].glob);
		free(g);
	}
}

static bool match(struct bp_printk_filter *f, const char *msg)
{
	return bp_printk_filter__match(f, msg, strlen(msg));
}

static void test_filter_match(void)
{
	struct bp_printk_filter *f = bp_printk_filter__new();
	static const char fmt1[] = "GOT printk pid=%d i=%ld v=%ld";
	static const char fmt2[] = "lit [x] *%s";
	char longmsg[1100];

	CHECK(f, "new");
	if (!f)
		return;
	/* no format: nothing is ours */
	CHECK(!match(f, "GOT printk pid=1 i=2 v=3"), "empty filter matched");
	bp_printk_filter__add_format(f, fmt1, sizeof(fmt1));
	bp_printk_filter__add_format(f, fmt1, sizeof(fmt1));	/* deduplicated */
	bp_printk_filter__add_format(f, fmt2, sizeof(fmt2));
	CHECK(match(f, "GOT printk pid=1234 i=0 v=-7"), "own line");
	CHECK(match(f, "GOT printk pid= i= v="), "empty conversions");
	CHECK(!match(f, "OTHER 0: v=-7"), "foreign line");
	CHECK(!match(f, "GOT printk pid=1 i=2"), "prefix only");
	CHECK(match(f, "lit [x] *anything"), "literal brackets and star");
	CHECK(!match(f, "lit x *anything"), "brackets are literal");
	/* a line cut at the printk limit cannot be checked against its tail */
	memset(longmsg, 'z', sizeof(longmsg));
	CHECK(bp_printk_filter__match(f, longmsg, sizeof(longmsg)), "long line");
	CHECK(!bp_printk_filter__allows_all(f), "allows all");
	bp_printk_filter__allow_all(f);
	CHECK(match(f, "OTHER"), "allow_all");
	bp_printk_filter__free(f);
}

/* --- bpf_trace_printk decoding from a ring buffer page --- */

static const char printk_format[] =
	"name: bpf_trace_printk\n"
	"ID: 550\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:__data_loc char[] bpf_string;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"%s\", __get_str(bpf_string)\n";

/* Appends one data event (type_len = size / 4) to a page; returns the new offset. */
static size_t put_event(unsigned char *page, size_t off, uint32_t delta, uint16_t type,
			int32_t pid, const char *str)
{
	size_t slen = strlen(str) + 1, size = (12 + slen + 3) & ~3u;
	uint32_t hdr = (uint32_t)(size / 4) | delta << 5;
	uint32_t loc = 12 | (uint32_t)slen << 16;	/* __data_loc: offset, length */
	unsigned char *p = page + 16 + off;

	memcpy(p, &hdr, 4);
	memset(p + 4, 0, size);
	memcpy(p + 4, &type, 2);
	memcpy(p + 8, &pid, 4);
	memcpy(p + 12, &loc, 4);
	memcpy(p + 16, str, slen);
	return off + 4 + size;
}

static void test_printk_decode(void)
{
	struct bp_printk_decoder *d = bp_printk_decoder__new(printk_format, strlen(printk_format));
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
	unsigned char page[4096] = {};
	uint64_t ts0 = 5000000000ULL, commit;
	unsigned long long ts;
	const char *msg;
	size_t off = 0, len;
	void *ev;
	int pid;

	CHECK(d && kb, "decoder %p kbuffer %p", (void *)d, (void *)kb);
	if (!d || !kb)
		goto out;
	off = put_event(page, off, 0, 550, 4321, "GOT hello=1\n");
	off = put_event(page, off, 1000, 7, 99, "another event");
	off = put_event(page, off, 250, 550, 77, "second");
	memcpy(page, &ts0, 8);
	/* the kernel says 3 events were missed before this page */
	commit = off | 1ULL << 31 | 1ULL << 30;
	memcpy(page + 8, &commit, 8);
	*(long *)(page + 16 + off) = 3;

	CHECK_INT(kbuffer_load_subbuffer(kb, page), 0);
	CHECK_INT(kbuffer_missed_events(kb), 3);
	ev = kbuffer_read_event(kb, &ts);
	CHECK(ev, "first event");
	if (!ev)
		goto out;
	CHECK_INT(ts, ts0);
	CHECK_INT(bp_printk_decoder__decode(d, ev, kbuffer_event_size(kb), &pid, &msg, &len), 1);
	CHECK_INT(pid, 4321);
	CHECK_INT(len, strlen("GOT hello=1"));
	CHECK(!strncmp(msg, "GOT hello=1", len), "msg '%.*s'", (int)len, msg);

	ev = kbuffer_next_event(kb, &ts);
	CHECK(ev, "second event");
	if (!ev)
		goto out;
	CHECK_INT(ts, ts0 + 1000);
	/* another event type: not ours */
	CHECK_INT(bp_printk_decoder__decode(d, ev, kbuffer_event_size(kb), &pid, &msg, &len), 0);

	ev = kbuffer_next_event(kb, &ts);
	CHECK(ev, "third event");
	if (!ev)
		goto out;
	CHECK_INT(ts, ts0 + 1250);
	CHECK_INT(bp_printk_decoder__decode(d, ev, kbuffer_event_size(kb), &pid, &msg, &len), 1);
	CHECK_INT(pid, 77);
	CHECK(len == 6 && !strncmp(msg, "second", 6), "msg '%.*s'", (int)len, msg);
	/* truncated: the string would lie past the event */
	CHECK_INT(bp_printk_decoder__decode(d, ev, 10, &pid, &msg, &len), 0);
	CHECK(!kbuffer_next_event(kb, &ts), "no fourth event");
out:
	if (kb)
		kbuffer_free(kb);
	bp_printk_decoder__free(d);
}

static void test_printk_bad_format(void)
{
	static const char nostr[] =
		"name: bpf_trace_printk\nID: 550\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"x\"\n";
	struct bp_printk_decoder *d;

	bpfprobe_set_print(NULL);
	d = bp_printk_decoder__new(nostr, strlen(nostr));
	CHECK(!d, "a format without bpf_string was accepted");
	bp_printk_decoder__free(d);
}

/* --- BTF values --- */

struct demo_btf {
	struct btf *btf;
	int s_int, u_char, char_t, u64_t, arr_name, arr_int, color, sub, ev, ptr, var;
};

/*
 * struct ev {
 *	int id; char name[8]; int arr[3]; enum color { RED, BLUE = 5 } color;
 *	union { struct { short lo; unsigned char fl; } sub; }; (anonymous)
 *	unsigned int low:4, high:4;
 *	char *p;
 * }; struct ev *__bpfprobe_record_events;
 */
static int build_btf(struct demo_btf *b)
{
	int anon_u, u32_t, s16;

	b->btf = btf__new_empty();
	if (!b->btf)
		return -ENOMEM;
	b->s_int = btf__add_int(b->btf, "int", 4, BTF_INT_SIGNED);
	b->char_t = btf__add_int(b->btf, "char", 1, BTF_INT_SIGNED);
	b->u_char = btf__add_int(b->btf, "unsigned char", 1, 0);
	s16 = btf__add_int(b->btf, "short", 2, BTF_INT_SIGNED);
	u32_t = btf__add_int(b->btf, "unsigned int", 4, 0);
	b->u64_t = btf__add_int(b->btf, "unsigned long long", 8, 0);
	b->arr_name = btf__add_array(b->btf, b->s_int, b->char_t, 8);
	b->arr_int = btf__add_array(b->btf, b->s_int, b->s_int, 3);
	b->color = btf__add_enum(b->btf, "color", 4);
	btf__add_enum_value(b->btf, "RED", 0);
	btf__add_enum_value(b->btf, "BLUE", 5);
	b->sub = btf__add_struct(b->btf, "sub", 4);
	btf__add_field(b->btf, "lo", s16, 0, 0);
	btf__add_field(b->btf, "fl", b->u_char, 16, 0);
	anon_u = btf__add_union(b->btf, NULL, 4);
	btf__add_field(b->btf, "sub", b->sub, 0, 0);
	b->ptr = btf__add_ptr(b->btf, b->char_t);
	b->ev = btf__add_struct(b->btf, "ev", 48);
	btf__add_field(b->btf, "id", b->s_int, 0, 0);
	btf__add_field(b->btf, "name", b->arr_name, 32, 0);
	btf__add_field(b->btf, "arr", b->arr_int, 96, 0);
	btf__add_field(b->btf, "color", b->color, 192, 0);
	btf__add_field(b->btf, NULL, anon_u, 224, 0);
	btf__add_field(b->btf, "low", u32_t, 256, 4);
	btf__add_field(b->btf, "high", u32_t, 260, 4);
	btf__add_field(b->btf, "p", b->ptr, 256 + 64, 0);
	b->var = btf__add_var(b->btf, "__bpfprobe_record_events", BTF_VAR_GLOBAL_ALLOCATED,
			      btf__add_ptr(b->btf, b->ev));
	return b->var < 0 ? b->var : 0;
}

struct ev_data {
	int id;
	char name[8];
	int arr[3];
	int color;
	short lo;
	unsigned char fl;
	unsigned char pad;
	unsigned int bits;
	char *p;
};

static void fill_ev(struct ev_data *e)
{
	memset(e, 0, sizeof(*e));
	e->id = -42;
	memcpy(e->name, "a\"b", 4);
	e->arr[0] = 1;
	e->arr[1] = -2;
	e->arr[2] = 3;
	e->color = 5;
	e->lo = -300;
	e->fl = 200;
	e->bits = 0x9 | 0x3 << 4;
	e->p = (char *)0x1234;
}

static char *text_record(const struct bp_record *r, bool quiet)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	bp_text__record(f, r, quiet);
	fclose(f);
	return buf;
}

static char *json_record(const struct bp_record *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct bp_json *j = bp_json__new(f, NULL);

	bp_jsonout__record(j, r);
	CHECK_INT(bp_json__free(j), 0);
	fclose(f);
	return buf;
}

static void test_btf_text_and_json(void)
{
	struct demo_btf b;
	struct ev_data e;
	struct bp_record r = { .map = "events", .cpu = -1 };
	char *s;

	CHECK_INT(sizeof(e), 48);
	if (build_btf(&b)) {
		CHECK(0, "building BTF failed");
		return;
	}
	fill_ev(&e);
	r.val = (struct bp_typed){ .btf = b.btf, .type_id = b.ev, .data = &e, .size = sizeof(e) };
	s = text_record(&r, false);
	CHECK_STR(s, "events: { .id = -42, .name = \"a\\\"b\", .arr = [1, -2, 3], .color = BLUE, "
		     ".sub = { .lo = -300, .fl = 200 }, .low = 9, .high = 3, .p = 0x1234 }\n");
	free(s);
	s = json_record(&r);
	CHECK_STR(s, "{\"type\":\"record\",\"map\":\"events\",\"data\":{\"id\":-42,\"name\":\"a\\\"b\","
		     "\"arr\":[1,-2,3],\"color\":\"BLUE\",\"sub\":{\"lo\":-300,\"fl\":200},"
		     "\"low\":9,\"high\":3,\"p\":\"0x1234\"}}\n");
	free(s);

	/* an unknown enum value, a name that is not text, a perf cpu */
	e.color = 7;
	e.name[0] = 1;
	r.cpu = 1;
	s = json_record(&r);
	CHECK(s && strstr(s, "\"cpu\":1,") && strstr(s, "\"color\":7") &&
	      strstr(s, "\"name\":[1,34,98,0,0,0,0,0]"), "got %s", s);
	free(s);

	/* shorter than its type: hex; quiet: no map name */
	r.val.size = 6;
	r.cpu = -1;
	s = text_record(&r, true);
	CHECK_STR(s, "d6 ff ff ff 01 22\n");
	free(s);
	s = json_record(&r);
	CHECK_STR(s, "{\"type\":\"record\",\"map\":\"events\",\"hex\":\"d6ffffff0122\"}\n");
	free(s);

	/* perf's __bpf_stdout__: text up to the first NUL */
	r = (struct bp_record){ .map = "__bpf_stdout__", .cpu = 0, .text = true,
				.val = { .data = "hi there\0\0\0", .size = 12 } };
	s = text_record(&r, false);
	CHECK_STR(s, "__bpf_stdout__: hi there\n");
	free(s);
	s = json_record(&r);
	CHECK_STR(s, "{\"type\":\"record\",\"map\":\"__bpf_stdout__\",\"cpu\":0,\"text\":\"hi there\"}\n");
	free(s);
	btf__free(b.btf);
}

static void test_record_type_convention(void)
{
	struct demo_btf b;
	int td;

	if (build_btf(&b)) {
		CHECK(0, "building BTF failed");
		return;
	}
	CHECK_INT(bp_btf_record__type(b.btf, "events"), b.ev);
	CHECK_INT(bp_btf_record__type(b.btf, "other"), 0);
	CHECK_INT(bp_btf_record__type(b.btf, "event"), 0);
	CHECK_INT(bp_btf_record__type(NULL, "events"), 0);
	/* the variable may hold the struct itself, through a typedef */
	td = btf__add_typedef(b.btf, "ev_t", b.ev);
	btf__add_var(b.btf, "__bpfprobe_record_rb2", BTF_VAR_GLOBAL_ALLOCATED, td);
	CHECK_INT(bp_btf_record__type(b.btf, "rb2"), td);
	btf__free(b.btf);
}

static void test_percpu_sum(void)
{
	struct demo_btf b;
	int pair, bad;
	/* struct pair { u64 n; int s; } at stride 16, 3 CPUs */
	struct { uint64_t n; int32_t s; int32_t pad; } v[3] = {
		{ 5, -10, 0 }, { 7, 3, 0 }, { UINT64_MAX, -1, 0 },
	}, sum;

	if (build_btf(&b)) {
		CHECK(0, "building BTF failed");
		return;
	}
	pair = btf__add_struct(b.btf, "pair", 16);
	btf__add_field(b.btf, "n", b.u64_t, 0, 0);
	btf__add_field(b.btf, "s", b.s_int, 64, 0);
	CHECK_INT(bp_btf_value__sum(b.btf, pair, v, 3, sizeof(v[0]), &sum, 16), 0);
	CHECK_INT(sum.n, 11);	/* wraps like the kernel's counters */
	CHECK_INT(sum.s, -8);
	CHECK_INT(bp_btf_value__sum(b.btf, b.arr_int, v, 3, sizeof(v[0]), &sum, 12), 0);
	/* strings, enums, pointers do not add up */
	CHECK_INT(bp_btf_value__sum(b.btf, b.ev, v, 1, 48, &sum, 16), -EOPNOTSUPP);
	CHECK_INT(bp_btf_value__sum(b.btf, b.ptr, v, 3, 16, &sum, 8), -EOPNOTSUPP);
	bad = btf__add_struct(b.btf, "withname", 16);
	btf__add_field(b.btf, "n", b.u64_t, 0, 0);
	btf__add_field(b.btf, "name", b.arr_name, 64, 0);
	CHECK_INT(bp_btf_value__sum(b.btf, bad, v, 3, 16, &sum, 16), -EOPNOTSUPP);
	CHECK_INT(bp_btf_value__sum(b.btf, 0, v, 3, 16, &sum, 16), -EOPNOTSUPP);
	btf__free(b.btf);
}

static void test_map_entry_text(void)
{
	struct demo_btf b;
	struct bp_map_head h = { .name = "counts", .kind = "percpu_hash", .percpu = true };
	uint32_t k = 3;
	uint64_t vals[2] = { 4, 5 };
	struct bp_typed key, values[2];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (build_btf(&b)) {
		CHECK(0, "building BTF failed");
		return;
	}
	key = (struct bp_typed){ .btf = b.btf, .type_id = b.s_int, .data = &k, .size = 4 };
	values[0] = (struct bp_typed){ .btf = b.btf, .type_id = b.u64_t, .data = &vals[0], .size = 8 };
	values[1] = values[0];
	values[1].data = &vals[1];
	f = open_memstream(&buf, &len);
	bp_text__map_entry(f, &h, &key, values, 1);
	bp_text__map_entry(f, &h, &key, values, 2);
	fclose(f);
	CHECK_STR(buf, "@counts[3]: 4\n@counts[3]: per-CPU [4, 5]\n");
	free(buf);
	btf__free(b.btf);
}

static void test_printk_text_line(void)
{
	struct bp_printk_msg m = { .ts_ns = 12345678901234ULL, .cpu = 1, .pid = 42,
				   .comm = "app", .msg = "GOT x=1 tail", .len = 7 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	bp_text__printk(f, &m, false);
	bp_text__printk(f, &m, true);
	fclose(f);
	CHECK_STR(buf, "12345.678901 app 42 1: GOT x=1\nGOT x=1\n");
	free(buf);
}

static void test_comm_cache(void)
{
	struct bp_comm_cache *c = bp_comm_cache__new(NULL);
	char want[32] = {};
	FILE *f = fopen("/proc/self/comm", "r");

	if (f) {
		if (fgets(want, sizeof(want), f))
			want[strcspn(want, "\n")] = '\0';
		fclose(f);
	}
	CHECK(c, "new");
	if (!c)
		return;
	CHECK_STR(bp_comm_cache__get(c, getpid()), want);
	CHECK_STR(bp_comm_cache__get(c, 0), "<idle>");
	/* above pid_max: never a live task */
	CHECK_STR(bp_comm_cache__get(c, 0x7ffffff0), "<...>");
	bp_comm_cache__next_round(c);
	CHECK_STR(bp_comm_cache__get(c, getpid()), want);
	bp_comm_cache__free(c);
}

/* bpfprobe_value__format(): what `monitor --map` prints keys and values with */
static void test_value_format(void)
{
	struct demo_btf b;
	unsigned char raw[3] = { 0xde, 0xad, 0x01 };
	int v = -7;
	char *s;

	if (build_btf(&b)) {
		CHECK(0, "no BTF");
		return;
	}
	s = bpfprobe_value__format(b.btf, b.s_int, &v, sizeof(v), false);
	CHECK_STR(s, "-7");
	free(s);
	s = bpfprobe_value__format(b.btf, b.sub, "\x01\x00\x05\x00", 4, true);
	CHECK_STR(s, "{\"lo\":1,\"fl\":5}");
	free(s);
	/* no type: bytes */
	s = bpfprobe_value__format(NULL, 0, raw, sizeof(raw), false);
	CHECK(s && strstr(s, "de ad 01"), "got '%s'", s ? s : "(null)");
	free(s);
	s = bpfprobe_value__format(NULL, 0, raw, sizeof(raw), true);
	CHECK_STR(s, "\"dead01\"");
	free(s);
	btf__free(b.btf);
}

int main(void)
{
	RUN(test_format_glob);
	RUN(test_filter_match);
	RUN(test_printk_decode);
	RUN(test_printk_bad_format);
	RUN(test_btf_text_and_json);
	RUN(test_record_type_convention);
	RUN(test_percpu_sum);
	RUN(test_map_entry_text);
	RUN(test_printk_text_line);
	RUN(test_comm_cache);
	RUN(test_value_format);
	return TEST_EXIT();
}
