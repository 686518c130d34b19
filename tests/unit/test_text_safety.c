// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests for output that stays safe and honest: text escaped for a
 * terminal (util/utf8.c: what a traced process's name, a DWARF name or a
 * string read from a target may hold), and the emitter's failed writes
 * (output/emitter.c: kept, counted, never silent).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/emitter.h"
#include "output/text_out.h"
#include "util/log.h"
#include "util/utf8.h"
#include "tests/unit/test.h"

static const char *escaped(const char *s, size_t len, unsigned int flags)
{
	static char buf[4096];

	buf[bp_utf8__escape(buf, s, len, flags)] = '\0';
	return buf;
}

static void test_escape(void)
{
	static const struct { const char *in, *plain, *quoted; } cases[] = {
		{ "plain text", "plain text", "plain text" },
		{ "\x1b]0;PWN\x07", "\\e]0;PWN\\x07", "\\e]0;PWN\\x07" },
		{ "\x1b[31mred\x1b[0m", "\\e[31mred\\e[0m", "\\e[31mred\\e[0m" },
		{ "a\tb\nc", "a\tb\nc", "a\\tb\\nc" },
		{ "cr\rdel\x7f", "cr\\x0ddel\\x7f", "cr\\x0ddel\\x7f" },
		{ "q\"b\\s", "q\"b\\s", "q\\\"b\\\\s" },
		/* C1 controls as UTF-8 (CSI is U+009B), raw C1 bytes (not UTF-8) */
		{ "\xc2\x9b" "1m", "\\u009b1m", "\\u009b1m" },
		{ "\x9b" "1m", "\\x9b1m", "\\x9b1m" },
		/* UTF-8 passes, U+00A0 and up included; overlongs and cut sequences do not */
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0",
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0" },
		{ "\xc0\xaf", "\\xc0\\xaf", "\\xc0\\xaf" },
		{ "\xe2\x82", "\\xe2\\x82", "\\xe2\\x82" },
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80", "\\xed\\xa0\\x80" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = strlen(cases[i].in);

		CHECK_STR(escaped(cases[i].in, n, 0), cases[i].plain);
		CHECK_STR(escaped(cases[i].in, n, BP_ESC_QUOTED), cases[i].quoted);
		CHECK_INT(bp_utf8__plain_len(cases[i].in, n, 0) == n,
			  !strcmp(cases[i].in, cases[i].plain));
	}
	/* a NUL is a control character too; the bound holds for the worst byte */
	CHECK_STR(escaped("a\0b", 3, 0), "a\\x00b");
	CHECK(strlen(escaped("\x01\x01\x01\x01", 4, 0)) <= 4 * BP_ESC_MAX, "bound");
	CHECK(strlen(escaped("\xc2\x80\xc2\x80", 4, 0)) <= 4 * BP_ESC_MAX, "bound of C1");
}

static void test_partial_tail(void)
{
	static const struct { const char *s; size_t want; } cases[] = {
		{ "abc", 0 },
		{ "ab\xc3", 1 },		/* é cut after its lead */
		{ "a\xe2\x82", 2 },		/* € cut */
		{ "\xf0\x9f\x98", 3 },		/* an emoji cut */
		{ "\xe2\x82\xac", 0 },		/* whole */
		{ "a\xc0", 0 },			/* no valid lead */
		{ "a\xe0\x80", 0 },		/* overlong already: nothing completes it */
		{ "a\x82", 0 },			/* a stray continuation byte */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_INT(bp_utf8__partial_tail((const unsigned char *)cases[i].s,
						strlen(cases[i].s)), cases[i].want);
}

static void test_fput(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	bp_utf8__fput(f, "x\x1b[2Jy\xc2\x9b\xc3\xa9", 10, 0);
	bp_utf8__fputs(f, " \"n\"\a");
	fclose(f);
	CHECK_STR(buf, "x\\e[2Jy\\u009b\xc3\xa9 \"n\"\\x07");
	free(buf);
}

static void test_text_lines_escaped(void)
{
	struct bp_printk_msg m = { .ts_ns = 1000000000ULL, .cpu = 0, .pid = 7,
				   .comm = "\x1b]0;PWN\x07", .msg = "v=\x1b[1m", .len = 6 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	bp_text__printk(f, &m, false);
	fclose(f);
	CHECK_STR(buf, "1.000000 \\e]0;PWN\\x07 7 0: v=\\e[1m\n");
	free(buf);
}

/* The library's default printer (no bpfprobe_set_print()) escapes too. */
static void test_default_printer(void)
{
	FILE *saved = stderr, *f;
	char *buf = NULL, big[3000];
	size_t len = 0;

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	f = open_memstream(&buf, &len);
	stderr = f;
	bp_err("no function '%s' in %s\n", "\x1b]0;PWN\x07", "/bin/x");
	bp_err("%s\x1b\n", big);	/* longer than its buffer on the stack */
	stderr = saved;
	fclose(f);
	CHECK(!strncmp(buf, "no function '\\e]0;PWN\\x07' in /bin/x\n", 37), "got '%.40s'", buf);
	CHECK(len == 37 + sizeof(big) - 1 + 3 && !strcmp(buf + len - 3, "\\e\n"), "long: %zu", len);
	free(buf);
}

/* Records to /dev/full: the first failed write is kept, the rest counted. */
static void test_emitter_write_error(void)
{
	struct bp_printk_msg m = { .comm = "app", .msg = "GOT x", .len = 5 };
	FILE *f = fopen("/dev/full", "w");
	struct bp_emitter em;

	CHECK(f, "cannot open /dev/full: %s", strerror(errno));
	if (!f)
		return;
	setvbuf(f, NULL, _IOLBF, 0);
	CHECK_INT(bp_emitter__init(&em, f, false, true), 0);
	for (int i = 0; i < 5; i++)
		bp_emit__printk(&em, &m);
	CHECK_INT(em.werr, -ENOSPC);
	CHECK_INT(em.unwritten, 5);
	CHECK_INT(bp_emitter__flush(&em), -ENOSPC);
	bp_emitter__fini(&em);
	fclose(f);

	/* JSON: the same, and no complaint about JSON left open */
	f = fopen("/dev/full", "w");
	if (!f)
		return;
	setvbuf(f, NULL, _IOLBF, 0);
	CHECK_INT(bp_emitter__init(&em, f, true, false), 0);
	bp_emit__printk(&em, &m);
	bp_emit__printk(&em, &m);
	CHECK_INT(em.werr, -ENOSPC);
	CHECK_INT(em.unwritten, 2);
	bp_emitter__fini(&em);
	fclose(f);
}

int main(void)
{
	RUN(test_escape);
	RUN(test_partial_tail);
	RUN(test_fput);
	RUN(test_text_lines_escaped);
	RUN(test_default_printer);
	RUN(test_emitter_write_error);
	return TEST_EXIT();
}
