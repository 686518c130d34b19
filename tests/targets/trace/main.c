/*
 * Test target for `bpfprobe trace` (tests/e2e/trace.sh). trace_call()
 * takes four integers of mixed widths and signs and a string; the target
 * prints what each call passes, in the form trace prints it:
 *
 *   TRUTH pid=PID
 *   TRUTH call a=A b=B c=C d=D s="S"          (s=(fault) for NULL)
 *   TRUTHJ [A,B,C,"S"] D                       (JSON, as jq -c writes it)
 *   TRUTH count tick=N tock=M
 *
 * S is cut to STRLEN - 1 bytes and escaped as trace escapes it: \" \\ \n
 * \t, \xNN for other control bytes and for bytes that are not UTF-8; in
 * JSON such bytes are U+FFFD.
 *
 *   trace-CC-OPT calls N STRLEN        N calls of trace_call, then of tick
 *                                      and tock (N and 2N + 1 times)
 *   trace-CC-OPT wait FILE N STRLEN    the same once FILE exists
 *   trace-CC-OPT loop N                trace_call N times, printing nothing
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noinline, noclone, used))
#endif

volatile long sink;

NOINLINE long trace_call(short a, unsigned char b, int c, unsigned long long d, const char *s)
{
	sink = a + b + c + (long)d + (s ? s[0] : 0);
	return sink;
}

NOINLINE long tick(int i)
{
	sink += i;
	return sink;
}

NOINLINE long tock(int i)
{
	sink -= i;
	return sink;
}

static const char *const strings[] = {
	"plain",
	"with space, \"quotes\" and back\\slash",
	"tab\there, nl\nthere, bell\a",
	"utf-8 h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac",
	"not utf-8: \xff\xfe and \xc3 alone",
	"",
	NULL,
	"a long string of one hundred characters, ASCII only, so that it is cut at the string length;;;;;;;;;",
};
#define NSTRINGS (sizeof(strings) / sizeof(strings[0]))

/* The length of the valid UTF-8 sequence at s (n bytes left), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static void put_text(const char *s, size_t len)
{
	putchar('"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		size_t n;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			printf("\\n");
		else if (c == '\t')
			printf("\\t");
		else if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else if (c < 0x80)
			putchar(c);
		else if ((n = utf8_len((const unsigned char *)s + i, len - i))) {
			fwrite(s + i, 1, n, stdout);
			i += n - 1;
		} else {
			printf("\\x%02x", c);
		}
	}
	putchar('"');
}

/* as jq -c writes a string */
static void put_json(const char *s, size_t len)
{
	putchar('"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		size_t n;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			printf("\\n");
		else if (c == '\t')
			printf("\\t");
		else if (c == '\a')
			printf("\\u0007");
		else if (c < 0x20 || c == 0x7f)
			printf("\\u%04x", c);
		else if (c < 0x80)
			putchar(c);
		else if ((n = utf8_len((const unsigned char *)s + i, len - i))) {
			fwrite(s + i, 1, n, stdout);
			i += n - 1;
		} else {
			printf("\xef\xbf\xbd");
		}
	}
	putchar('"');
}

static void calls(int n, size_t strlen_, int quiet)
{
	for (int i = 0; i < n; i++) {
		short a = (short)(-1000 * i - 7);
		unsigned char b = (unsigned char)(200 + 13 * i);
		int c = -(i * 100000 + 1) * (i % 2 ? -1 : 1);
		unsigned long long d = 0xfedcba9876543210ull + (unsigned long long)i * 4097;
		const char *s = strings[i % NSTRINGS];
		size_t len = s ? strnlen(s, strlen_ - 1) : 0;

		trace_call(a, b, c, d, s);
		if (quiet)
			continue;
		printf("TRUTH call a=%d b=%u c=%d d=%llu s=", a, b, c, d);
		if (s)
			put_text(s, len);
		else
			printf("(fault)");
		printf("\nTRUTHJ [%d,%u,%d,", a, b, c);
		if (s)
			put_json(s, len);
		else
			printf("null");
		printf("] %llu\n", d);
	}
	for (int i = 0; i < n; i++)
		tick(i);
	for (int i = 0; i < 2 * n + 1; i++)
		tock(i);
	if (!quiet)
		printf("TRUTH count tick=%d tock=%d\n", n, 2 * n + 1);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "loop") && argc == 3) {
		calls(atoi(argv[2]), 64, 1);
		return 0;
	}
	printf("TRUTH pid=%d\n", (int)getpid());
	if (!strcmp(argv[1], "calls") && argc == 4) {
		calls(atoi(argv[2]), strtoul(argv[3], NULL, 10), 0);
		return 0;
	}
	if (!strcmp(argv[1], "wait") && argc == 5) {
		for (int i = 0; i < 600 && access(argv[2], F_OK); i++)
			usleep(50000);
		calls(atoi(argv[3]), strtoul(argv[4], NULL, 10), 0);
		return 0;
	}
	return 2;
}
