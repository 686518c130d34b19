// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Source of the resolver fuzzer's seed ELFs (fuzz/corpus/resolve/): small,
 * freestanding, with the shapes the resolver walks: register and stack
 * arguments, member chains through pointers, arrays and anonymous unions,
 * a static function, a return value. Rebuild with `make fuzz-seeds`.
 */
struct hdr {
	int len;
	unsigned char flags;
};

struct req {
	struct hdr *hdr;
	long arr[4];
	union {
		int u_i;
		short u_s;
	};
	struct {
		int x, y;
	} inner;
};

struct conn {
	int fd;
	struct req *last;
};

volatile long sink;

__attribute__((noinline)) int handle_req(struct req *req, struct conn *conn)
{
	sink = req->hdr->len + conn->fd + req->inner.y;
	return req->hdr->len;
}

__attribute__((noinline)) long many_args(long a1, long a2, long a3, long a4,
					 long a5, long a6, long a7, long a8)
{
	sink = a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8;
	return a7 - a8;
}

static __attribute__((noinline)) int twin(int x)
{
	sink = x * 3;
	return x;
}

__attribute__((noinline)) int neg_args(int a, short b, signed char c)
{
	sink = a + b + c + twin(a);
	return -a;
}

void _start(void)
{
	struct hdr h = { 7, 1 };
	struct req r = { .hdr = &h, .arr = { 1, 2, 3, 4 } };
	struct conn c = { 3, &r };

	handle_req(&r, &c);
	many_args(1, 2, 3, 4, 5, 6, 7, 8);
	neg_args(-1, -2, -3);
	for (;;)
		;
}
