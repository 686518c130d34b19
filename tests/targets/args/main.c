/*
 * Test target: calls functions with known arguments and prints the truth,
 * one line per BPF test program: "TRUTH <what> <name>=<value> ...". The BPF
 * programs print "GOT <what> ..." in the same form; the e2e tests compare.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "args.h"

volatile long sink;

NOINLINE int neg_args(int a, long b, short c)
{
	sink = a + b + c;
	return (int)sink;
}

NOINLINE unsigned int uns_args(unsigned char a, unsigned short b, unsigned int c)
{
	sink = a + b + c;
	return (unsigned int)sink;
}

NOINLINE int small_signed(signed char a, short b, int c)
{
	sink = a * b + c;
	return (int)sink;
}

NOINLINE int handle_req(req_t *req, const struct conn *conn)
{
	sink = req->hdr->len + conn->fd + req->inner.y + req->arr[2] + req->u_s;
	return (int)sink;
}

NOINLINE long many_args(long a1, long a2, long a3, long a4, long a5, long a6,
			long a7, int a8)
{
	sink = a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8;
	return sink;
}

NOINLINE long ret_neg(int x)
{
	sink = x;
	return -(long)x * 1000;
}

/* 'unused' has no location in optimized builds: probing it must fail clearly */
NOINLINE int opt_out(int x, int unused)
{
	sink = x;
	return 0;
}

NOINLINE void clobber(int a)
{
	sink += a;
}

/* after the call, gcc has only an entry value for v: not fetchable there */
NOINLINE int lost_arg(int v)
{
	clobber(5);
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	int pause_ms = argc > 2 ? atoi(argv[2]) : 0;
	struct hdr hdr = { .pad = 1, .len = 1500 };
	req_t req = { .id = 42, .hdr = &hdr, .inner = { .x = 3, .y = -77 },
		      .u_s = -2, .arr = { 10, 20, -30, 40 } };
	struct conn conn = { .self = &conn, .fd = 9 };

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < rounds; i++) {
		neg_args(-5, -1234567890123L, -7);
		printf("TRUTH neg_args a=-5 b=-1234567890123 c=-7\n");
		/* the same call read with :TYPE overrides */
		printf("TRUTH cast a=251 b=53 c=65529\n");
		uns_args(200, 60000, 4000000000u);
		printf("TRUTH uns_args a=200 b=60000 c=4000000000\n");
		small_signed(-100, -30000, -2000000000);
		printf("TRUTH small_signed a=-100 b=-30000 c=-2000000000\n");
		printf("TRUTH small_cast a=156 b=35536 c=2294967296\n");
		handle_req(&req, &conn);
		printf("TRUTH handle_req len=1500 fd=9 y=-77\n");
		printf("TRUTH handle_req2 arr2=-30 u_s=-2 id=42\n");
		many_args(1, 2, 3, 4, 5, 6, -7777777777L, -8);
		printf("TRUTH many_args a7=-7777777777 a8=-8 a1=1\n");
		ret_neg(21);
		printf("TRUTH ret_neg retval=-21000\n");
		opt_out(1, 2);
		lost_arg(3);
		twin_a(11);
		printf("TRUTH twin x=1011\n");
		twin_b(22);
		printf("TRUTH twin x=2022\n");
		if (pause_ms)
			usleep(pause_ms * 1000);
	}
	return 0;
}
