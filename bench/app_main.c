// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The benchmark application (built -O2 -g, so it has DWARF):
 *   app                 exits at once (probes attach, nothing fires)
 *   app calls N         calls every fd_K and copy_fn N times
 *   app hot CASE N      calls one hot_CASE function N times in a tight loop
 *                       and prints "calls=N ns_per_call=X"; with
 *                       BENCH_READY=FILE it then writes FILE and waits for
 *                       a signal, so the loaded programs can be inspected;
 *                       with BENCH_GO=FILE it waits for FILE to exist
 *                       before the loop (a tool attaches by pid meanwhile)
 * CASE: reg (register arg), reg3 (three register args of three widths and
 * signs: int, long, unsigned short), d1 d2 d3 (1, 2, 3 dereferences), stack
 * (the 7th argument, on the stack), empty (no argument), trace (four
 * integers of four widths and a string of 20 to 40 bytes: bench section 7),
 * sdt (an SDT marker, bench:hit, of three arguments: int, long, unsigned
 * short: bench section 8).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/sdt.h>
#include "bench/app.h"

volatile long sink;

#define DECL(k) long fd_##k(struct node *p, int n, long v);
#define X8(m, a) m(a##0) m(a##1) m(a##2) m(a##3) m(a##4) m(a##5) m(a##6) m(a##7)
/* fd_00 .. fd_77: two octal digits, the CU numbers bench/bench.mk compiles */
X8(DECL, 0) X8(DECL, 1) X8(DECL, 2) X8(DECL, 3) X8(DECL, 4) X8(DECL, 5) X8(DECL, 6) X8(DECL, 7)
#undef DECL
#define CALL(k) fd_##k(&n, i, 3);

NOINLINE long hot_empty(void)
{
	return sink++;
}

NOINLINE long hot_reg(long a)
{
	sink += a;
	return a;
}

NOINLINE long hot_reg3(int a, long b, unsigned short c)
{
	sink += a + b + c;
	return a;
}

NOINLINE long hot_d1(struct node *p)
{
	sink += p->v;
	return 0;
}

NOINLINE long hot_d2(struct node *p)
{
	sink += p->next->v;
	return 0;
}

NOINLINE long hot_d3(struct node *p)
{
	sink += p->next->next->v;
	return 0;
}

NOINLINE long hot_stack(long a1, long a2, long a3, long a4, long a5, long a6, long a7)
{
	sink += a1 + a2 + a3 + a4 + a5 + a6 + a7;
	return 0;
}

NOINLINE long hot_trace(int a, long b, unsigned short c, signed char d, const char *s)
{
	sink += a + b + c + d + s[0];
	return a;
}

NOINLINE long hot_sdt(int a, long b, unsigned short c)
{
	STAP_PROBE3(bench, hit, a, b, c);
	sink += a + b + c;
	return a;
}

static const char *const trace_strings[] = {
	"GET /index.html HTTP/1.1",
	"POST /api/v1/items?id=42 HTTP/1.1",
	"/usr/share/lua/5.4/init.lua",
	"a string of exactly forty bytes ........",
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void on_signal(int sig)
{
	_exit(0);
}

static int hot(const char *what, long n)
{
	struct node c = { 3, NULL }, b = { 2, &c }, a = { 1, &b };
	const char *ready = getenv("BENCH_READY");
	const char *go = getenv("BENCH_GO");
	double t0, t1;

	for (int i = 0; go && access(go, F_OK) && i < 60000; i++)
		usleep(1000);
	t0 = now_ns();

	for (long i = 0; i < n; i++) {
		if (!strcmp(what, "empty"))
			hot_empty();
		else if (!strcmp(what, "reg"))
			hot_reg(i);
		else if (!strcmp(what, "reg3"))
			hot_reg3(-(int)i, i, (unsigned short)i);
		else if (!strcmp(what, "d1"))
			hot_d1(&a);
		else if (!strcmp(what, "d2"))
			hot_d2(&a);
		else if (!strcmp(what, "d3"))
			hot_d3(&a);
		else if (!strcmp(what, "stack"))
			hot_stack(1, 2, 3, 4, 5, 6, i);
		else if (!strcmp(what, "sdt"))
			hot_sdt(-(int)i, i, (unsigned short)i);
		else if (!strcmp(what, "trace"))
			hot_trace(-(int)i, i, (unsigned short)i, (signed char)i, trace_strings[i & 3]);
		else
			return 2;
	}
	t1 = now_ns();
	printf("calls=%ld ns_per_call=%.1f\n", n, (t1 - t0) / n);
	fflush(stdout);
	if (ready) {
		FILE *f;

		signal(SIGTERM, on_signal);
		signal(SIGINT, on_signal);
		f = fopen(ready, "w");
		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
		for (int i = 0; i < 600; i++)	/* a lost signal must not hang the bench */
			sleep(1);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct node n = { 5, NULL };

	if (argc > 3 && !strcmp(argv[1], "hot"))
		return hot(argv[2], atol(argv[3]));
	if (argc > 2 && !strcmp(argv[1], "calls")) {
		for (long i = 0; i < atol(argv[2]); i++) {
			X8(CALL, 0) X8(CALL, 1) X8(CALL, 2) X8(CALL, 3)
			X8(CALL, 4) X8(CALL, 5) X8(CALL, 6) X8(CALL, 7)
		}
	}
	return 0;
}
