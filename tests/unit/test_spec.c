// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Unit tests for the SEC() text parser (probes/spec.c). */
#include <errno.h>
#include <stdlib.h>

#include "probes/spec.h"
#include "tests/unit/test.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char errbuf[512];

/* Parses text that must be valid; the caller frees spec. */
static int parse_ok(const char *text, struct bp_spec *spec)
{
	int ret = bp_spec__parse(text, spec, errbuf, sizeof(errbuf));

	CHECK(ret == 0, "parse(\"%s\") = %d: %s", text, ret, errbuf);
	return ret;
}

/*
 * Parses text that must fail with -EINVAL and a one-line message holding
 * every string in want (NULL-terminated), e.g. the quoted culprit.
 */
static void expect_err_v(const char *text, const char *const *want)
{
	struct bp_spec spec;
	int ret;

	ret = bp_spec__parse(text, &spec, errbuf, sizeof(errbuf));
	CHECK(ret == -EINVAL, "parse(\"%s\") = %d, want -EINVAL", text, ret);
	CHECK(errbuf[0], "parse(\"%s\") gave no message", text);
	CHECK(!strchr(errbuf, '\n'), "message has a newline: %s", errbuf);
	for (; *want; want++)
		CHECK(strstr(errbuf, *want), "parse(\"%s\"): message '%s' lacks '%s'",
		      text, errbuf, *want);
	bp_spec__free(&spec);
}

#define expect_err(text, ...) \
	expect_err_v(text, (const char *const[]){ __VA_ARGS__, NULL })

static void check_step(const struct bp_arg_spec *arg, int i,
		       enum bp_step_kind kind, const char *field, long index)
{
	CHECK(i < arg->nsteps, "step %d of '%s' missing", i, arg->text);
	if (i >= arg->nsteps)
		return;
	CHECK_INT(arg->steps[i].kind, kind);
	if (field)
		CHECK_STR(arg->steps[i].field, field);
	else
		CHECK_INT(arg->steps[i].index, index);
}

/* ---- valid specs -------------------------------------------------------- */

static void test_issue_example_exec(void)
{
	const char *text = "exec=/usr/bin/app;func=handle_req req->hdr->len conn->fd";
	struct bp_spec spec;

	if (parse_ok(text, &spec))
		goto out;
	CHECK_STR(spec.text, text);
	CHECK(spec.text != text, "text is not a copy");
	CHECK_STR(spec.exec, "/usr/bin/app");
	CHECK(!spec.module, "module set");
	CHECK(spec.inlines, "inlines default is true");
	CHECK(!spec.force, "force default is false");
	CHECK_STR(spec.event, "func");
	CHECK_STR(spec.func, "handle_req");
	CHECK(!spec.has_offset && !spec.is_return, "offset/return set");
	CHECK_INT(spec.nargs, 2);
	if (spec.nargs != 2)
		goto out;

	CHECK_STR(spec.args[0].text, "req->hdr->len");
	CHECK_STR(spec.args[0].name, "req->hdr->len");
	CHECK_STR(spec.args[0].var, "req");
	CHECK_INT(spec.args[0].nsteps, 2);
	check_step(&spec.args[0], 0, BP_STEP_ARROW, "hdr", 0);
	check_step(&spec.args[0], 1, BP_STEP_ARROW, "len", 0);
	CHECK(!spec.args[0].user && !spec.args[0].has_type, "modifiers set");

	CHECK_STR(spec.args[1].name, "conn->fd");
	CHECK_STR(spec.args[1].var, "conn");
	CHECK_INT(spec.args[1].nsteps, 1);
	check_step(&spec.args[1], 0, BP_STEP_ARROW, "fd", 0);
out:
	bp_spec__free(&spec);
}

static void test_issue_example_user(void)
{
	struct bp_spec spec;

	if (parse_ok("func=do_sched_setscheduler param->sched_priority@user", &spec))
		goto out;
	CHECK(!spec.exec, "exec set");
	CHECK_STR(spec.event, "func");
	CHECK_STR(spec.func, "do_sched_setscheduler");
	CHECK_INT(spec.nargs, 1);
	if (spec.nargs != 1)
		goto out;
	CHECK_STR(spec.args[0].text, "param->sched_priority@user");
	CHECK_STR(spec.args[0].name, "param->sched_priority");
	CHECK_STR(spec.args[0].var, "param");
	check_step(&spec.args[0], 0, BP_STEP_ARROW, "sched_priority", 0);
	CHECK(spec.args[0].user, "@user not set");
	CHECK(!spec.args[0].has_type, "type set");
out:
	bp_spec__free(&spec);
}

static void test_no_event(void)
{
	struct bp_spec spec;

	if (parse_ok("  handle_req\tfd  ", &spec))
		goto out;
	CHECK(!spec.event, "event '%s' set", spec.event);
	CHECK_STR(spec.func, "handle_req");
	CHECK_INT(spec.nargs, 1);
	if (spec.nargs == 1)
		CHECK_STR(spec.args[0].var, "fd");
out:
	bp_spec__free(&spec);
}

static void test_func_with_dots(void)
{
	struct bp_spec spec;

	if (!parse_ok("my_probe=foo.isra.0", &spec)) {
		CHECK_STR(spec.event, "my_probe");
		CHECK_STR(spec.func, "foo.isra.0");
		CHECK_INT(spec.nargs, 0);
		CHECK(!spec.args, "args allocated for no argument");
	}
	bp_spec__free(&spec);
}

static void test_offsets(void)
{
	static const struct {
		const char *text;
		uint64_t offset;
	} cases[] = {
		{ "foo+0", 0 },
		{ "foo+16", 16 },
		{ "foo+010", 10 },	/* decimal, not octal */
		{ "foo+0x1f", 0x1f },
		{ "foo+0X1F", 0x1f },
		{ "foo+0xffffffffffffffff", UINT64_MAX },
		{ "foo+18446744073709551615", UINT64_MAX },
	};
	struct bp_spec spec;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!parse_ok(cases[i].text, &spec)) {
			CHECK_STR(spec.func, "foo");
			CHECK(spec.has_offset, "%s: has_offset not set", cases[i].text);
			CHECK(spec.offset == cases[i].offset, "%s: offset %llu",
			      cases[i].text, (unsigned long long)spec.offset);
			CHECK(!spec.is_return, "is_return set");
		}
		bp_spec__free(&spec);
	}
}

static void test_return_retval(void)
{
	struct bp_spec spec;

	if (parse_ok("exec=/bin/app;ret=read_req%return $retval rc=$retval:s32", &spec))
		goto out;
	CHECK_STR(spec.event, "ret");
	CHECK_STR(spec.func, "read_req");
	CHECK(spec.is_return, "is_return not set");
	CHECK(!spec.has_offset, "has_offset set");
	CHECK_INT(spec.nargs, 2);
	if (spec.nargs != 2)
		goto out;
	CHECK_STR(spec.args[0].var, "$retval");
	CHECK_STR(spec.args[0].name, "$retval");
	CHECK_INT(spec.args[0].nsteps, 0);
	CHECK_STR(spec.args[1].var, "$retval");
	CHECK_STR(spec.args[1].name, "rc");
	CHECK_STR(spec.args[1].text, "rc=$retval:s32");
	CHECK(spec.args[1].has_type && spec.args[1].type_signed, "s32 not applied");
	CHECK_INT(spec.args[1].type_size, 4);
out:
	bp_spec__free(&spec);
}

static void test_types(void)
{
	static const struct {
		const char *type;
		int size;
		bool is_signed, is_hex;
	} cases[] = {
		{ "u8", 1, false, false }, { "u16", 2, false, false },
		{ "u32", 4, false, false }, { "u64", 8, false, false },
		{ "s8", 1, true, false }, { "s16", 2, true, false },
		{ "s32", 4, true, false }, { "s64", 8, true, false },
		{ "x8", 1, false, true }, { "x16", 2, false, true },
		{ "x32", 4, false, true }, { "x64", 8, false, true },
	};
	struct bp_spec spec;
	char text[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(text, sizeof(text), "f a->b:%s", cases[i].type);
		if (!parse_ok(text, &spec) && spec.nargs == 1) {
			const struct bp_arg_spec *a = &spec.args[0];

			CHECK(a->has_type, "%s: has_type not set", text);
			CHECK_INT(a->type_size, cases[i].size);
			CHECK_INT(a->type_signed, cases[i].is_signed);
			CHECK_INT(a->type_hex, cases[i].is_hex);
			CHECK_STR(a->name, "a->b");
			CHECK_STR(a->text, text + 2);
			CHECK(!a->user, "%s: user set", text);
		}
		bp_spec__free(&spec);
	}
}

static void test_user_both_orders(void)
{
	static const char *const texts[] = {
		"f p->len:u16@user",
		"f p->len@user:u16",
	};
	struct bp_spec spec;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		if (!parse_ok(texts[i], &spec) && spec.nargs == 1) {
			CHECK(spec.args[0].user, "%s: user not set", texts[i]);
			CHECK(spec.args[0].has_type, "%s: type not set", texts[i]);
			CHECK_INT(spec.args[0].type_size, 2);
			CHECK_STR(spec.args[0].name, "p->len");
			CHECK_STR(spec.args[0].text, texts[i] + 2);
		}
		bp_spec__free(&spec);
	}
}

static void test_arg_name(void)
{
	struct bp_spec spec;

	if (!parse_ok("f len=req->hdr->len:u32 fd=fd x", &spec) && spec.nargs == 3) {
		CHECK_STR(spec.args[0].name, "len");
		CHECK_STR(spec.args[0].var, "req");
		CHECK_STR(spec.args[0].text, "len=req->hdr->len:u32");
		CHECK_INT(spec.args[0].nsteps, 2);
		CHECK_STR(spec.args[1].name, "fd");
		CHECK_STR(spec.args[1].var, "fd");
		CHECK_INT(spec.args[1].nsteps, 0);
		CHECK_STR(spec.args[2].name, "x");
	} else {
		CHECK_INT(spec.nargs, 3);
	}
	bp_spec__free(&spec);
}

static void test_dot_and_index_chain(void)
{
	struct bp_spec spec;
	const struct bp_arg_spec *a;

	if (parse_ok("f s.a[3]->b[0][12].c_2", &spec) || spec.nargs != 1)
		goto out;
	a = &spec.args[0];
	CHECK_STR(a->var, "s");
	CHECK_STR(a->name, "s.a[3]->b[0][12].c_2");
	CHECK_INT(a->nsteps, 6);
	check_step(a, 0, BP_STEP_DOT, "a", 0);
	check_step(a, 1, BP_STEP_INDEX, NULL, 3);
	check_step(a, 2, BP_STEP_ARROW, "b", 0);
	check_step(a, 3, BP_STEP_INDEX, NULL, 0);
	check_step(a, 4, BP_STEP_INDEX, NULL, 12);
	check_step(a, 5, BP_STEP_DOT, "c_2", 0);
out:
	bp_spec__free(&spec);
}

/* *EXPR is EXPR[0]: what EXPR points to (a record member's bytes) */
static void test_deref_star(void)
{
	struct bp_spec spec;
	const struct bp_arg_spec *a;

	if (parse_ok("f *req->hdr **pp", &spec) || spec.nargs != 2)
		goto out;
	a = &spec.args[0];
	CHECK_STR(a->var, "req");
	CHECK_STR(a->name, "*req->hdr");
	CHECK_INT(a->nsteps, 2);
	check_step(a, 0, BP_STEP_ARROW, "hdr", 0);
	check_step(a, 1, BP_STEP_INDEX, NULL, 0);
	a = &spec.args[1];
	CHECK_STR(a->var, "pp");
	CHECK_INT(a->nsteps, 2);
	check_step(a, 0, BP_STEP_INDEX, NULL, 0);
	check_step(a, 1, BP_STEP_INDEX, NULL, 0);
out:
	bp_spec__free(&spec);
}

static void test_booleans(void)
{
	static const char *const yes[] = {
		"y", "Y", "yes", "YES", "Yes", "1", "on", "ON", "On",
		"true", "TRUE", "True",
	};
	static const char *const no[] = {
		"n", "N", "no", "NO", "No", "0", "off", "OFF", "Off",
		"false", "FALSE", "False",
	};
	struct bp_spec spec;
	char text[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		snprintf(text, sizeof(text), "inlines=%s;force=%s;f", no[i], yes[i]);
		if (!parse_ok(text, &spec)) {
			CHECK(!spec.inlines, "%s: inlines still true", text);
			CHECK(spec.force, "%s: force not set", text);
		}
		bp_spec__free(&spec);

		snprintf(text, sizeof(text), "force=%s;inlines=%s;f", no[i], yes[i]);
		if (!parse_ok(text, &spec)) {
			CHECK(spec.inlines, "%s: inlines not set", text);
			CHECK(!spec.force, "%s: force set", text);
		}
		bp_spec__free(&spec);
	}
}

static void test_all_config_terms(void)
{
	struct bp_spec spec;

	/* whitespace around a term is allowed, and any order of keys */
	if (!parse_ok("module=ext4 ; exec=./app=v2;\tforce=yes;inlines=off; f", &spec)) {
		CHECK_STR(spec.module, "ext4");
		CHECK_STR(spec.exec, "./app=v2");
		CHECK(spec.force, "force not set");
		CHECK(!spec.inlines, "inlines still set");
		CHECK(!spec.event, "event set");
		CHECK_STR(spec.func, "f");
	}
	bp_spec__free(&spec);
}

static void test_copies(void)
{
	struct bp_spec spec;

	if (!parse_ok("exec=/usr/bin/lua5.4;copies=yes;luaL_loadfilex filename", &spec)) {
		CHECK(spec.copies, "copies not set");
		CHECK_STR(spec.exec, "/usr/bin/lua5.4");
		CHECK_STR(spec.func, "luaL_loadfilex");
	}
	bp_spec__free(&spec);
	if (!parse_ok("exec=/x;f", &spec))
		CHECK(!spec.copies, "copies set by default");
	bp_spec__free(&spec);
	/* kernel code has no copies */
	expect_err("copies=yes;do_sys_open", "copies=yes", "needs exec=");
	expect_err("exec=/x;copies=perhaps;f", "'perhaps'", "'copies'");
	expect_err("exec=/x;copie=yes;f", "unknown key", "copies");
}

static void test_ustack_key(void)
{
	struct bp_spec spec;

	if (!parse_ok("exec=/x;f $ustack", &spec))
		CHECK(spec.ustack == BP_USTACK_AUTO, "ustack not auto by default");
	bp_spec__free(&spec);
	if (!parse_ok("exec=/x;ustack=fp;f $ustack", &spec))
		CHECK(spec.ustack == BP_USTACK_FP, "ustack=fp not read");
	bp_spec__free(&spec);
	if (!parse_ok("ustack=dwarf;exec=/x;f", &spec))
		CHECK(spec.ustack == BP_USTACK_DWARF, "ustack=dwarf not read");
	bp_spec__free(&spec);
	if (!parse_ok("exec=/x;ustack=auto;f", &spec))
		CHECK(spec.ustack == BP_USTACK_AUTO, "ustack=auto not read");
	bp_spec__free(&spec);
	expect_err("exec=/x;ustack=xyz;f $ustack", "'xyz'", "'ustack'");
	expect_err("exec=/x;ustack=xyz;f $ustack", "auto, fp or dwarf", "ustack=xyz");
	expect_err("exec=/x;ustack=fp;ustack=dwarf;f", "duplicate key", "ustack");
}

static void test_free_is_safe(void)
{
	struct bp_spec spec;

	memset(&spec, 0, sizeof(spec));
	bp_spec__free(&spec);
	bp_spec__free(NULL);

	if (!parse_ok("exec=/a;f x y", &spec))
		bp_spec__free(&spec);
	/* free leaves the spec zeroed, so freeing again does nothing */
	CHECK(!spec.text && !spec.args && !spec.nargs, "spec not zeroed");
	bp_spec__free(&spec);
}

/* Parsing zeroes spec first, whatever was in it. */
static void test_parse_zeroes_spec(void)
{
	struct bp_spec spec;

	memset(&spec, 0xa5, sizeof(spec));
	if (!parse_ok("f", &spec)) {
		CHECK(!spec.exec && !spec.module && !spec.event && !spec.args,
		      "stale pointers");
		CHECK(spec.inlines && !spec.force, "defaults not set");
		CHECK(!spec.has_offset && !spec.is_return && !spec.nargs, "stale fields");
	}
	bp_spec__free(&spec);
}

/* ---- errors ------------------------------------------------------------- */

static void test_err_empty(void)
{
	expect_err("", "empty SEC(\"\")");
	expect_err(" \t ", "empty SEC(");
}

/* A control character in the text is the culprit named, escaped as C
 * writes it, not blanked out of the message. */
static void test_err_control_char(void)
{
	const char *p;

	expect_err("exec=/x;fu\x1bnc x", "unexpected '\\e'", "'fu\\enc'");
	expect_err("exec=/x;f\x01g", "unexpected '\\x01'");
	for (p = errbuf; *p; p++)
		CHECK((unsigned char)*p >= 0x20 && *p != 0x7f, "a control byte in '%s'", errbuf);
}

static void test_err_unknown_key(void)
{
	/* one typo away from a key: not taken for EVENT=POINT;PTN */
	expect_err("exce=/usr/bin/app;f",
		   "unknown key 'exce' in SEC(\"exce=/usr/bin/app;f\")",
		   "(known: exec, module, inlines, force", "'exec'?");
	expect_err("exec=/a;inline=no;f x", "unknown key 'inline'", "'inlines'?");
	expect_err("exec=/a;forse=1;f", "unknown key 'forse'");
	expect_err("exec=/a;moduel=m;f", "unknown key 'moduel'");
	expect_err("exe=/a;f", "unknown key 'exe'");
	/* a value that is no probe point: a config term after all */
	expect_err("exec=/a;path=/usr/bin/app;f", "unknown key 'path'");
	expect_err("exec=/a;level=1;f", "unknown key 'level'");
}

static void test_err_lazy_pattern(void)
{
	expect_err("exec=/a x;f", "unexpected ';'", "'x;f'");
	expect_err("f x;force=y", "unexpected ';'", "'x;force=y'", "must come before");
	expect_err("f;", "empty lazy pattern", "'f;'");
	/* "ev=f;" reads as a term of an unknown key as much as a pattern */
	expect_err("ev=f;", "unknown key 'ev'");
	expect_err("f+4;p", "'f+4;p'", "cannot be combined with '+4'");
	expect_err("f%return;p", "cannot be combined with '%return'");
	expect_err("f:3;p", "cannot be combined with ':3'");
	expect_err("lines.c:3;p", "both :LINE and ;PTN");
	/* a pattern has no spaces: "a = b" leaves '=' as an argument */
	expect_err("exec=/a;foo;a = b", "argument name ''", "'='");
}

/* How a ';' is told apart: config term, lazy pattern, or misplaced. */
static void test_lazy_vs_config(void)
{
	struct bp_spec spec;

	/* func= is not a key, so this is EVENT=FUNC;PTN */
	if (!parse_ok("exec=/a;func=foo;ptn", &spec)) {
		CHECK_STR(spec.exec, "/a");
		CHECK_STR(spec.event, "func");
		CHECK_STR(spec.func, "foo");
		CHECK_STR(spec.lazy, "ptn");
		CHECK_STR(spec.point, "foo;ptn");
	}
	bp_spec__free(&spec);

	/* keys before, then a pattern holding '=', '+' and ';' */
	if (!parse_ok("exec=/x;inlines=no;force=y;lz=lazy_fn;sink=r+1;* x", &spec)) {
		CHECK(!spec.inlines && spec.force, "terms not applied");
		CHECK_STR(spec.event, "lz");
		CHECK_STR(spec.func, "lazy_fn");
		CHECK_STR(spec.lazy, "sink=r+1;*");
		CHECK_INT(spec.nargs, 1);
	}
	bp_spec__free(&spec);

	/* no event: FUNC;PTN right after the terms */
	if (!parse_ok("exec=/x ; lazy_fn;*LAZY_ONE*", &spec)) {
		CHECK(!spec.event, "event set");
		CHECK_STR(spec.func, "lazy_fn");
		CHECK_STR(spec.lazy, "*LAZY_ONE*");
		CHECK(!spec.src && !spec.has_line, "src/line set");
	}
	bp_spec__free(&spec);

	/* a key-named piece after the definition started is pattern text */
	if (!parse_ok("f;force=y", &spec)) {
		CHECK(!spec.force, "force applied from the pattern");
		CHECK_STR(spec.lazy, "force=y");
	}
	bp_spec__free(&spec);
}

static void test_err_duplicate_key(void)
{
	expect_err("exec=/a;exec=/b;f", "duplicate key 'exec'", "'exec=/b'");
	expect_err("force=y;inlines=n;force=n;f", "duplicate key 'force'");
}

static void test_err_bad_value(void)
{
	expect_err("inlines=maybe;f", "'maybe'", "'inlines'");
	expect_err("force=;f", "''", "'force'");
	expect_err("force=2;f", "'2'", "'force'");
	expect_err("exec=;f", "'exec='", "non-empty path");
	expect_err("module=;f", "'module='", "non-empty");
}

static void test_err_missing_point(void)
{
	expect_err("exec=/a;", "missing probe point", "SEC(\"exec=/a;\")");
	expect_err("exec=/a;  ", "missing probe point");
	expect_err("func=", "missing probe point", "'func='");
	expect_err("exec=/a;func= x", "missing probe point", "'func='");
}

static void test_err_bad_event(void)
{
	expect_err("1x=foo", "invalid event name '1x'", "'1x=foo'");
	expect_err("=foo", "invalid event name ''", "'=foo'");
	expect_err("grp:ev=foo", "invalid event name 'grp:ev'");
}

#define FORMS "FUNC[@SRC][+OFFS|%return|:RLN|;PTN], SRC:ALN or SRC;PTN"

static void test_source_lines(void)
{
	static const struct {
		const char *text, *src;
		int line;
	} cases[] = {
		{ "lines.c:12", "lines.c", 12 },
		{ "ev=lines.c:1", "lines.c", 1 },
		{ "tests/targets/points/lines.c:99", "tests/targets/points/lines.c", 99 },
		{ "/abs/x.cpp:7", "/abs/x.cpp", 7 },
		{ "a.b/x.h:3", "a.b/x.h", 3 },
		{ "entry.S:2147483647", "entry.S", 2147483647 },
	};
	struct bp_spec spec;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!parse_ok(cases[i].text, &spec)) {
			CHECK(!spec.func, "%s: func '%s' set", cases[i].text, spec.func);
			CHECK_STR(spec.src, cases[i].src);
			CHECK(spec.has_line, "%s: has_line not set", cases[i].text);
			CHECK_INT(spec.line, cases[i].line);
			CHECK(!spec.lazy && !spec.has_offset && !spec.is_return,
			      "%s: other parts set", cases[i].text);
		}
		bp_spec__free(&spec);
	}
	if (!parse_ok("exec=/x;lines.c;*LAZY_FILE* v", &spec)) {
		CHECK(!spec.func, "func set");
		CHECK_STR(spec.src, "lines.c");
		CHECK_STR(spec.lazy, "*LAZY_FILE*");
		CHECK(!spec.has_line, "has_line set");
		CHECK_STR(spec.point, "lines.c;*LAZY_FILE*");
		CHECK_INT(spec.nargs, 1);
	}
	bp_spec__free(&spec);
}

static void test_func_lines_and_files(void)
{
	struct bp_spec spec;

	if (!parse_ok("line_abs:5 a b", &spec)) {
		CHECK_STR(spec.func, "line_abs");
		CHECK(spec.has_line && spec.line == 5, "line %d", spec.line);
		CHECK(!spec.src, "src set");
	}
	bp_spec__free(&spec);
	if (!parse_ok("f:0", &spec))
		CHECK(spec.has_line && !spec.line, "FUNC:0 not kept");
	bp_spec__free(&spec);
	if (!parse_ok("ev=twin@twin_b.c v", &spec)) {
		CHECK_STR(spec.event, "ev");
		CHECK_STR(spec.func, "twin");
		CHECK_STR(spec.src, "twin_b.c");
		CHECK(!spec.has_line && !spec.has_offset && !spec.is_return, "extras");
	}
	bp_spec__free(&spec);
	if (!parse_ok("twin@dir/twin_b.c:3", &spec)) {
		CHECK_STR(spec.src, "dir/twin_b.c");
		CHECK(spec.has_line && spec.line == 3, "line");
	}
	bp_spec__free(&spec);
	if (!parse_ok("twin@b.c+0x8", &spec)) {
		CHECK_STR(spec.src, "b.c");
		CHECK(spec.has_offset && spec.offset == 8, "offset");
	}
	bp_spec__free(&spec);
	if (!parse_ok("twin@b.c%return $retval", &spec)) {
		CHECK_STR(spec.src, "b.c");
		CHECK(spec.is_return, "is_return");
	}
	bp_spec__free(&spec);
	/* the file after '@' needs no source extension */
	if (!parse_ok("twin@Makefile;*x*", &spec)) {
		CHECK_STR(spec.src, "Makefile");
		CHECK_STR(spec.lazy, "*x*");
	}
	bp_spec__free(&spec);
	/* clone suffixes are function names, not file extensions */
	if (!parse_ok("clone_me.constprop.0:2", &spec)) {
		CHECK_STR(spec.func, "clone_me.constprop.0");
		CHECK(!spec.src, "src set");
	}
	bp_spec__free(&spec);
	if (!parse_ok("foo.cold", &spec))
		CHECK_STR(spec.func, "foo.cold");
	bp_spec__free(&spec);
	/* $params is one token, expanded by the resolver at each point */
	if (!parse_ok("lines.c:12 $params", &spec) && spec.nargs == 1)
		CHECK_STR(spec.args[0].var, "$params");
	bp_spec__free(&spec);
}

static void test_globs(void)
{
	static const char *const globs[] = {
		"glob_*", "*_read", "fo?", "foo[ab]", "foo[!a-c]x", "[a-z]*",
		"*", "x[]]", "f*.isra.*",
	};
	struct bp_spec spec;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(globs); i++) {
		if (!parse_ok(globs[i], &spec)) {
			CHECK_STR(spec.func, globs[i]);
			CHECK(spec.func_glob, "%s: func_glob not set", globs[i]);
		}
		bp_spec__free(&spec);
	}
	if (!parse_ok("glob_*%return $retval", &spec)) {
		CHECK_STR(spec.func, "glob_*");
		CHECK(spec.func_glob && spec.is_return, "glob%%return");
	}
	bp_spec__free(&spec);
	if (!parse_ok("foo.isra.0", &spec))
		CHECK(!spec.func_glob, "func_glob set");
	bp_spec__free(&spec);
}

/* C++ names: scopes, operators (spaces join tokens), overloads */
static void test_cxx_names(void)
{
	static const struct {
		const char *text, *func;
		int nargs;
		bool glob, is_return;
	} cases[] = {
		{ "func=std::_Hash_bytes len", "std::_Hash_bytes", 1 },
		{ "ns::Class::method this->x", "ns::Class::method", 1 },
		{ "ns::Class::~Class", "ns::Class::~Class", 0 },
		{ "func=operator new sz", "operator new", 1 },
		{ "operator new[] sz", "operator new[]", 1 },
		{ "operator delete[]%return", "operator delete[]", 0, false, true },
		{ "ns::V::operator[] i", "ns::V::operator[]", 1 },
		{ "ns::V::operator() a b", "ns::V::operator()", 2 },
		{ "operator<< a", "operator<<", 1 },
		{ "operator%%return $retval", "operator%", 1, false, true },
		{ "operator new(unsigned long) sz", "operator new(unsigned long)", 1 },
		{ "geo::scale(int) v", "geo::scale(int)", 1 },
		{ "f(int, char const*) a b", "f(int, char const*)", 2 },
		{ "ns::S::get() const%return $retval", "ns::S::get() const", 1, false, true },
		{ "ns::*::get x", "ns::*::get", 1, true },
		{ "geo::scale(int)+4 v", "geo::scale(int)", 1 },
		{ "geo::scale:3 v", "geo::scale", 1 },
		{ "operator bool", "operator bool", 0 },
	};
	struct bp_spec spec;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!parse_ok(cases[i].text, &spec)) {
			CHECK_STR(spec.func, cases[i].func);
			CHECK(spec.nargs == cases[i].nargs, "%s: %d args", cases[i].text, spec.nargs);
			CHECK(spec.func_glob == cases[i].glob, "%s: glob %d", cases[i].text,
			      spec.func_glob);
			CHECK(spec.is_return == cases[i].is_return, "%s: return %d", cases[i].text,
			      spec.is_return);
		}
		bp_spec__free(&spec);
	}
	if (!parse_ok("geo::scale:3 v", &spec))
		CHECK(spec.has_line && spec.line == 3, "geo::scale:3: line %d", spec.line);
	bp_spec__free(&spec);
	expect_err("f(int", "unterminated '('", "'f(int'");
	expect_err("ns:::f", "'ns:::f'");
}

static void test_err_point_forms(void)
{
	expect_err("lines.c", "'lines.c' is a source file", ":LINE or ;PTN");
	expect_err("lines.c:0", "line 0", "start at 1");
	expect_err("lines.c+4", "takes no '+'");
	expect_err("lines.c%return", "takes no '%'");
	expect_err("lines.c@x.c:3", "'@SRC' follows a function name");
	expect_err("foo:", "invalid line number", "'foo:'", FORMS);
	expect_err("foo:x", "invalid line number");
	expect_err("foo:-1", "invalid line number");
	expect_err("foo:3x", "invalid line number");
	expect_err("foo:99999999999", "invalid line number");
	expect_err("foo:3%return", "combines :LINE with %return");
	expect_err("foo@:3", "empty source file after '@'");
	expect_err("foo@", "empty source file after '@'");
	expect_err("foo[ab", "unterminated '['", "'foo[ab'");
	expect_err("foo@a.c@b.c", "unexpected '@'");
}

static void test_err_point_syntax(void)
{
	static const char *const bad[] = {
		"foo%entry", "foo%", "foo+", "foo+x", "foo+0x", "foo+12abc",
		"foo+-1", "foo+ 1", "foo+0x0x5", "1foo", ".foo", "foo-bar",
		"foo+1+2", "foo%returnx",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		char quoted[64];

		/* "foo+ 1" splits at the space: the culprit is 'foo+' */
		snprintf(quoted, sizeof(quoted), "'%.*s'",
			 (int)strcspn(bad[i], " "), bad[i]);
		expect_err(bad[i], quoted, FORMS);
	}
	expect_err("foo+0x10000000000000000", "'foo+0x10000000000000000'",
		   "64 bits");
	expect_err("foo+18446744073709551616", "64 bits");
	expect_err("foo-bar", "unexpected '-'");
	/* no ';' after a config term: it reads as EVENT=POINT */
	expect_err("exec=/usr/bin/app", "'exec=/usr/bin/app'", "must end with ';'");
}

static void test_err_offset_with_return(void)
{
	expect_err("foo+4%return", "'foo+4%return'", "+OFFS", "%return");
	expect_err("foo+0x10%return", "'foo+0x10%return'", "+OFFS");
	expect_err("foo%return+4", "'foo%return+4'", "+OFFS");
}

static void test_err_retval(void)
{
	expect_err("f $retval", "$retval is only available at FUNC%return",
		   "'$retval'");
	expect_err("f x rc=$retval:u8", "$retval is only available at FUNC%return",
		   "'rc=$retval:u8'");
	expect_err("f%return $retval->x", "'$retval->x'", "not supported yet");
	expect_err("f%return $retvalue", "'$retvalue'", "not supported yet");
}

static void test_err_special_vars(void)
{
	expect_err("f%return $params", "'$params'", "FUNC%return");
	expect_err("f $params->x", "'$params->x'", "takes no member");
	expect_err("f $argx", "'$argx'", "not supported");
	expect_err("f%return $stack", "'$stack'", "not supported yet");
	expect_err("f $", "'$'", "not supported yet");
}

static void test_err_types(void)
{
	expect_err("f p:string:u8", "'p:string:u8'", "more than one ':TYPE'");
	expect_err("f p:u8:ustring", "'p:u8:ustring'", "more than one ':TYPE'");
	expect_err("f p:char", "invalid type 'char'", "'p:char'",
		   "u8 u16 u32 u64 s8 s16 s32 s64 x8 x16 x32 x64 string ustring");
	expect_err("f p:U32", "'U32'", "u8 u16");
	expect_err("f p:u128", "'u128'");
	expect_err("f p:", "invalid type ''", "'p:'");
	expect_err("f p:u8:u16", "'p:u8:u16'", "more than one ':TYPE'");
	expect_err("f p@user@user", "'p@user@user'", "more than one '@user'");
	expect_err("f p@kernel", "'@kernel'", "'p@kernel'", "@user");
	expect_err("f p@", "'@'", "'p@'");
}

static void test_err_too_many_args(void)
{
	/* the register ABI's 3 are the loader's to check: a record takes 16 */
	expect_err("f a b c d e f g h i j k l m n o p q", "17 arguments given, at most 16 fit in a record",
		   "'q'");
	expect_err("exec=/a;f a b c d e f g h i j k l m n o p q r", "18 arguments given", "'q'",
		   "SEC(\"exec=/a;f a b c d e f g h i j k l m n o p q r\")");
}

static void test_err_chain(void)
{
	static const struct {
		const char *arg;
		const char *why;
	} cases[] = {
		{ "req->", "'->' must be followed by a field name (at offset 3)" },
		{ "a->1", "'->' must be followed by a field name" },
		{ "a->->b", "'->' must be followed by a field name" },
		{ "a.", "'.' must be followed by a field name (at offset 1)" },
		{ "a..b", "'.' must be followed by a field name (at offset 1)" },
		{ "a[", "'[' must be followed by" },
		{ "a[x]", "'[' must be followed by" },
		{ "a[1", "'[' must be followed by" },
		{ "a[]", "'[' must be followed by" },
		{ "a[-1]", "non-negative" },
		{ "a[0x1]", "decimal" },
		{ "a->b[2", "(at offset 4)" },
		{ "a-b", "'-'" },
		{ "a-", "'-'" },
		{ "a+1", "unexpected '+' (at offset 1)" },
		{ "a=b=c", "unexpected '='" },
		{ "a[99999999999999999999]", "index too large" },
	};
	char text[64], quoted[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(text, sizeof(text), "f ok %s", cases[i].arg);
		snprintf(quoted, sizeof(quoted), "argument '%s'", cases[i].arg);
		expect_err(text, quoted, cases[i].why);
	}
	/* the message from the issue, verbatim */
	expect_err("f req->", "unknown member syntax in argument 'req->': '->' must be followed by a field name");
}

static void test_err_bad_arg_start(void)
{
	expect_err("f 5", "argument '5'", "variable name");
	expect_err("f *5", "argument '*5'");
	/* a space inside an argument splits it into a token of its own */
	expect_err("f a -> b", "argument '->'", "no spaces inside an argument");
	expect_err("f a .b", "argument '.b'", "no spaces");
}

static void test_err_empty_arg(void)
{
	expect_err("f x=", "empty expression", "'x='");
	expect_err("f :u32", "empty expression", "':u32'");
	expect_err("f @user", "empty expression", "'@user'");
	expect_err("f =x", "invalid argument name ''", "'=x'");
	expect_err("f 1a=x", "invalid argument name '1a'", "'1a=x'");
	expect_err("f a-b=x", "invalid argument name 'a-b'");
}

/* Messages stay on one line even when the SEC text does not. */
static void test_err_one_line(void)
{
	expect_err("foo=1;\nbar", "unknown key 'foo'", "SEC(\"foo=1;\\nbar\")");
	expect_err("f\na\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\no\np\nq", "'q'");
}

static void test_err_buffer_limits(void)
{
	struct bp_spec spec;
	char small[8];
	int ret;

	memset(small, 'x', sizeof(small));
	ret = bp_spec__parse("f a-", &spec, small, sizeof(small));
	CHECK_INT(ret, -EINVAL);
	CHECK(memchr(small, '\0', sizeof(small)), "message not terminated");
	bp_spec__free(&spec);

	ret = bp_spec__parse("f a-", &spec, NULL, 0);
	CHECK_INT(ret, -EINVAL);
	bp_spec__free(&spec);

	ret = bp_spec__parse(NULL, &spec, errbuf, sizeof(errbuf));
	CHECK_INT(ret, -EINVAL);
	bp_spec__free(&spec);

	/* a success clears a stale message */
	strcpy(errbuf, "stale");
	if (!parse_ok("f", &spec))
		CHECK_STR(errbuf, "");
	bp_spec__free(&spec);
}

/* A failure after some arguments were parsed must leave nothing to leak. */
static void test_err_partial_spec_frees(void)
{
	expect_err("exec=/a;module=m;ev=f a->b.c[1] b:u8@user c->", "'c->'");
	expect_err("exec=/a;ev=f a->b x:bad", "'bad'");
}

/* ---- map tracing ---------------------------------------------------------- */

static void test_map_specs(void)
{
	struct bp_spec spec;

	if (!parse_ok("map=/sys/fs/bpf/counts;update key[0] value->hits flags", &spec)) {
		CHECK_STR(spec.map, "/sys/fs/bpf/counts");
		CHECK_STR(spec.func, "update");
		CHECK(!spec.exec && !spec.event, "exec %p event %p", spec.exec, spec.event);
		CHECK_INT(spec.nargs, 3);
		CHECK_STR(spec.args[0].var, "key");
		check_step(&spec.args[0], 0, BP_STEP_INDEX, NULL, 0);
		CHECK_STR(spec.args[1].var, "value");
		check_step(&spec.args[1], 0, BP_STEP_ARROW, "hits", 0);
		CHECK_STR(spec.args[2].var, "flags");
	}
	bp_spec__free(&spec);
	if (!parse_ok("map=id:42;delete k=key->port:u16", &spec)) {
		CHECK_STR(spec.map, "id:42");
		CHECK_STR(spec.func, "delete");
		CHECK_STR(spec.args[0].name, "k");
		CHECK_INT(spec.args[0].type_size, 2);
	}
	bp_spec__free(&spec);
	if (!parse_ok("map=name:counts;update", &spec)) {
		CHECK_STR(spec.map, "name:counts");
		CHECK_INT(spec.nargs, 0);
	}
	bp_spec__free(&spec);
}

static void test_err_map_specs(void)
{
	expect_err("map=;update key[0]", "empty value in 'map='");
	expect_err("map=id:1;insert key[0]", "map=id:1", "'update' or 'delete'", "'insert'");
	expect_err("map=id:1;exec=/bin/true;update", "map=id:1", "no exec=");
	expect_err("map=id:1;delete value->x", "map=id:1;delete", "'value->x'", "no value");
	expect_err("map=id:1;delete key[0] flags", "'flags'", "no flags");
	expect_err("map=id:1;update val[0]", "unknown name 'val'", "key, value");
	expect_err("map=id:1;update @key", "unknown name '@key'");
	expect_err("map=id:1;update $retval", "'$retval'", "no $retval");
	expect_err("map=id:1;update key[0]@user", "@user does not apply");
	expect_err("map=id:1;update flags->x", "flags is a number");
	expect_err("mpa=id:1;update", "unknown key 'mpa'", "'map'?");
}

/* ---- perf's fetch arguments ---------------------------------------------- */

static void test_strings(void)
{
	struct bp_spec spec;

	if (parse_ok("f p->name:string s=q:ustring@user", &spec))
		goto out;
	CHECK_INT(spec.nargs, 2);
	if (spec.nargs != 2)
		goto out;
	CHECK(spec.args[0].string && !spec.args[0].ustring && !spec.args[0].has_type,
	      "p->name:string");
	CHECK_STR(spec.args[0].name, "p->name");
	CHECK_INT(spec.args[0].nsteps, 1);
	CHECK(spec.args[1].ustring && !spec.args[1].string && spec.args[1].user, "q:ustring@user");
	CHECK_STR(spec.args[1].name, "s");
out:
	bp_spec__free(&spec);
}

static void check_reads(const struct bp_arg_spec *arg, int n, const int64_t *offs,
			unsigned int user)
{
	CHECK_INT(arg->nreads, n);
	for (int i = 0; i < n && i < arg->nreads; i++)
		CHECK_INT(arg->read_off[i], offs[i]);
	CHECK_INT(arg->read_user, user);
}

static void test_fetchargs(void)
{
	struct bp_spec spec;
	const struct bp_arg_spec *a;

	if (parse_ok("f $arg1 $arg7:s32 %di", &spec))
		goto out;
	a = spec.args;
	CHECK_INT(a[0].farg, BP_FARG_ARGN);
	CHECK_INT(a[0].argn, 1);
	CHECK_STR(a[0].var, "$arg1");
	CHECK_STR(a[0].name, "$arg1");
	CHECK_INT(a[0].nreads, 0);
	CHECK_INT(a[1].argn, 7);
	CHECK(a[1].has_type && a[1].type_signed && a[1].type_size == 4, "$arg7:s32");
	CHECK_INT(a[2].farg, BP_FARG_REG);
	CHECK_INT(a[2].reg, 5);		/* DWARF rdi */
	CHECK_STR(a[2].var, "%di");
	bp_spec__free(&spec);

	if (parse_ok("f %rdi %ax %flags", &spec))
		goto out;
	CHECK_INT(spec.args[0].reg, 5);
	CHECK_INT(spec.args[1].reg, 0);		/* rax */
	CHECK_INT(spec.args[2].reg, 49);	/* rFLAGS */
	bp_spec__free(&spec);

	if (parse_ok("f %r8 %r15 %ip", &spec))
		goto out;
	CHECK_INT(spec.args[0].reg, 8);
	CHECK_INT(spec.args[1].reg, 15);
	CHECK_INT(spec.args[2].reg, 16);
	bp_spec__free(&spec);

	if (parse_ok("f +8(%di) v=+0(+0x10(%si)):u8 -8(%sp)@user", &spec))
		goto out;
	a = spec.args;
	CHECK_INT(a[0].farg, BP_FARG_REG);
	CHECK_STR(a[0].var, "%di");
	CHECK_STR(a[0].name, "+8(%di)");
	check_reads(&a[0], 1, (const int64_t[]){ 8 }, 0);
	CHECK_STR(a[1].name, "v");
	CHECK_INT(a[1].reg, 4);		/* rsi */
	/* innermost first */
	check_reads(&a[1], 2, (const int64_t[]){ 16, 0 }, 0);
	CHECK(a[1].has_type && a[1].type_size == 1 && !a[1].type_signed, ":u8");
	check_reads(&a[2], 1, (const int64_t[]){ -8 }, 0);
	CHECK(a[2].user, "@user");
	CHECK_STR(a[2].name, "-8(%sp)");
	bp_spec__free(&spec);

	if (parse_ok("f +u8(+0($arg2)) +4(@g) @sym+0x20", &spec))
		goto out;
	a = spec.args;
	CHECK_INT(a[0].farg, BP_FARG_ARGN);
	CHECK_INT(a[0].argn, 2);
	check_reads(&a[0], 2, (const int64_t[]){ 0, 8 }, 2);
	CHECK_INT(a[1].farg, BP_FARG_SYM);
	CHECK(a[1].global, "@g is global");
	CHECK_STR(a[1].var, "g");
	check_reads(&a[1], 1, (const int64_t[]){ 4 }, 0);
	CHECK_INT(a[2].farg, BP_FARG_SYM);
	CHECK_STR(a[2].var, "sym");
	CHECK_INT(a[2].sym_off, 0x20);
	CHECK_INT(a[2].nreads, 0);
	CHECK_STR(a[2].name, "@sym+0x20");
	bp_spec__free(&spec);

	/* $argN takes member chains (typed by DWARF or BTF when resolved);
	 * a bare @SYM stays a global variable, member chains and all */
	if (parse_ok("f $arg1->hdr->len @g @g->x", &spec))
		goto out;
	a = spec.args;
	CHECK_INT(a[0].farg, BP_FARG_ARGN);
	check_step(&a[0], 1, BP_STEP_ARROW, "len", 0);
	CHECK_INT(a[1].farg, BP_FARG_NONE);
	CHECK(a[1].global, "@g");
	CHECK_INT(a[2].farg, BP_FARG_NONE);
	CHECK_INT(a[2].nsteps, 1);
	bp_spec__free(&spec);
	if (parse_ok("f +8(@g-16)", &spec))
		goto out;
	CHECK_INT(spec.args[0].sym_off, -16);
	check_reads(&spec.args[0], 1, (const int64_t[]){ 8 }, 0);
out:
	bp_spec__free(&spec);
}

static void test_fetchargs_deep(void)
{
	struct bp_spec spec;

	if (parse_ok("f +1(+2(+3(+4(+5(+6(+7(+8(%di))))))))", &spec))
		goto out;
	check_reads(&spec.args[0], 8, (const int64_t[]){ 8, 7, 6, 5, 4, 3, 2, 1 }, 0);
out:
	bp_spec__free(&spec);
	expect_err("f +1(+2(+3(+4(+5(+6(+7(+8(+9(%di)))))))))", "nests more than 8");
}

static void test_needs_dwarf(void)
{
	static const struct {
		const char *arg;
		bool needs;
	} cases[] = {
		{ "x", true }, { "p->x", true }, { "$params", true },
		{ "@g->x", true }, { "$arg1->x", true },
		{ "@g", false }, { "$arg1", false }, { "%di", false },
		{ "+8(%di)", false }, { "@g+8", false }, { "+0($arg7):string", false },
	};
	struct bp_spec spec;
	char text[64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(text, sizeof(text), "f%s %s",
			 strcmp(cases[i].arg, "$params") ? "" : "", cases[i].arg);
		if (parse_ok(text, &spec))
			continue;
		CHECK(bp_arg_spec__needs_dwarf(&spec.args[0]) == cases[i].needs,
		      "'%s' needs DWARF: want %d", cases[i].arg, cases[i].needs);
		bp_spec__free(&spec);
	}
	if (!parse_ok("f%return $retval %ax", &spec))
		CHECK(!bp_spec__needs_dwarf(&spec), "$retval %%ax need no DWARF");
	bp_spec__free(&spec);
	if (!parse_ok("f %di y", &spec))
		CHECK(bp_spec__needs_dwarf(&spec) == &spec.args[1], "y needs DWARF");
	bp_spec__free(&spec);
}

static void test_c_name(void)
{
	static const struct {
		const char *arg;
		const char *name;
	} cases[] = {
		{ "req->hdr->len", "len" }, { "len=req->hdr->len", "len" },
		{ "arr[3]", "arr" }, { "s.a[2].b:u8@user", "b" },
		{ "@sym", "sym" }, { "@sym+0x10", "sym" }, { "+8(@g-16)", "g" },
		{ "$arg2", "arg2" }, { "%di", "di" }, { "%r8", "r8" },
		{ "+8(%di)", "di" }, { "+0x10(+0(%r12)):s32", "r12" },
		{ "-8(%sp)", "sp" }, { "n=+8(%di)", "n" }, { "x", "x" },
		{ "$arg1->name:string", "name" },
	};
	struct bp_spec spec;
	char text[64], buf[32], tiny[3];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(text, sizeof(text), "f %s", cases[i].arg);
		if (parse_ok(text, &spec))
			continue;
		CHECK_STR(bp_arg_spec__c_name(&spec.args[0], buf, sizeof(buf)), cases[i].name);
		bp_spec__free(&spec);
	}
	if (!parse_ok("f%return $retval", &spec)) {
		CHECK_STR(bp_arg_spec__c_name(&spec.args[0], buf, sizeof(buf)), "retval");
		/* too long for the buffer: none */
		CHECK(!bp_arg_spec__c_name(&spec.args[0], tiny, sizeof(tiny)), "tiny buffer");
	}
	bp_spec__free(&spec);
}

static void test_err_fetchargs(void)
{
	expect_err("f %eax", "unknown register '%eax'", "'%eax'", "%ax", "%rdi", "%flags");
	expect_err("f %xmm0", "unknown register '%xmm0'");
	expect_err("f %", "'%'", "register name");
	expect_err("f $arg0", "'$arg0'", "count from 1");
	expect_err("f $arg65", "'$arg65'", "at most $arg64");
	expect_err("f $arg99999999999999999999999", "at most $arg64");
	expect_err("f $arg1x", "'$arg1x'", "not supported");
	expect_err("f +8(", "'+8('", "ends inside '('", "FETCHARG is %REG");
	expect_err("f +8(%di", "'+8(%di'", "unterminated '('", "expected ')'");
	expect_err("f +8(%di))", "unexpected ')' after '+8(%di)'");
	expect_err("f +8", "'+8'", "expected '(' after the offset");
	expect_err("f +(%di)", "'+(%di)'", "must be followed by an offset");
	expect_err("f +0x(%di)", "'+0x(%di)'", "must be followed by an offset");
	expect_err("f +99999999999(%di)", "offset too large");
	expect_err("f +8(x)", "unexpected 'x' inside +OFFS(...)", "FETCHARG is");
	expect_err("f +8($retval)", "unexpected '$retval' inside");
	expect_err("f +8(%eax)", "unknown register '%eax'");
	expect_err("f +8(@)", "'@'", "symbol name");
	expect_err("f %di->x", "'%di' in argument '%di->x' has no type", "+OFFS(%di)");
	expect_err("f +8(%di).x", "'+8(%di)'", "has no type");
	expect_err("f @g+8->x", "'@g+8'", "has no type");
	expect_err("f %di:u128", "invalid type 'u128'");
}

int main(void)
{
	RUN(test_issue_example_exec);
	RUN(test_copies);
	RUN(test_ustack_key);
	RUN(test_issue_example_user);
	RUN(test_no_event);
	RUN(test_func_with_dots);
	RUN(test_cxx_names);
	RUN(test_offsets);
	RUN(test_return_retval);
	RUN(test_types);
	RUN(test_user_both_orders);
	RUN(test_arg_name);
	RUN(test_dot_and_index_chain);
	RUN(test_booleans);
	RUN(test_all_config_terms);
	RUN(test_free_is_safe);
	RUN(test_parse_zeroes_spec);

	RUN(test_err_empty);
	RUN(test_err_control_char);
	RUN(test_err_unknown_key);
	RUN(test_err_lazy_pattern);
	RUN(test_lazy_vs_config);
	RUN(test_err_duplicate_key);
	RUN(test_err_bad_value);
	RUN(test_err_missing_point);
	RUN(test_err_bad_event);
	RUN(test_source_lines);
	RUN(test_func_lines_and_files);
	RUN(test_globs);
	RUN(test_err_point_forms);
	RUN(test_err_point_syntax);
	RUN(test_err_offset_with_return);
	RUN(test_err_retval);
	RUN(test_err_special_vars);
	RUN(test_err_types);
	RUN(test_err_too_many_args);
	RUN(test_err_chain);
	RUN(test_err_bad_arg_start);
	RUN(test_deref_star);
	RUN(test_err_empty_arg);
	RUN(test_err_one_line);
	RUN(test_err_buffer_limits);
	RUN(test_err_partial_spec_frees);
	RUN(test_map_specs);
	RUN(test_err_map_specs);
	RUN(test_strings);
	RUN(test_fetchargs);
	RUN(test_fetchargs_deep);
	RUN(test_needs_dwarf);
	RUN(test_c_name);
	RUN(test_err_fetchargs);
	return TEST_EXIT();
}
