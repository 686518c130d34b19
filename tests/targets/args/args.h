/* Shared by the two CUs of the "args" test target. */
#ifndef ARGS_TARGET_H
#define ARGS_TARGET_H

#if defined(__clang__)
#define NOINLINE __attribute__((noinline, used))
#else
#define NOINLINE __attribute__((noinline, noclone, used))
#endif

extern volatile long sink;

struct hdr {
	int pad;
	int len;
};

struct req {
	long id;
	struct hdr *hdr;
	struct {
		int x;
		int y;
	} inner;
	union {
		short u_s;
		long u_l;
	};
	int arr[4];
};

typedef struct req req_t;

struct conn {
	const struct conn *self;
	int fd;
};

int twin_a(int n);
int twin_b(int n);

#endif
