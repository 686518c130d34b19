// SPDX-License-Identifier: GPL-2.0
/*
 * Test target for values only a debugger used to read (issue 14): entry
 * values away from the entry (recursion too), arithmetic between run-time
 * values, implicit pointers, a clone's dropped parameter its callers
 * know (DW_OP_GNU_parameter_ref), an inlined copy described by location
 * views, a parameter at its function's entry whose location list's first
 * view is the value passed (then a constant), a static local of an
 * inlined function (in its abstract instance only), thread-locals of the
 * executable in several threads, and errno at
 * libc's open%return. Each prints the truth the e2e test compares with:
 * "TRUTH what values...".
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile long sink, sink2;
volatile unsigned long usink;
__thread long tls_counter = 5;

__attribute__((noinline)) void consume(long v)
{
	sink = v;
	__asm__ volatile("" ::: "memory");
}

/* entry values: after the calls, a and b are only their values at entry */
__attribute__((noinline)) long ev_after_call(long a, long b)
{
	consume(a * 7);
	consume(b + 3);
	sink2 = 1; /* EV_MARK */
	return 1;
}

/* attached mid-call (tests/e2e/readable.sh): this activation was entered
 * before the entry probe was there, so a's entry value is unknown */
__attribute__((noinline)) long ev_blocked(long a)
{
	consume(a);
	for (;;) {
		sink2 = 4; /* BLOCK_MARK */
		usleep(20000);
	}
	return 0;
}

/* recursion: each activation its own n, after the recursive call */
__attribute__((noinline)) long ev_rec(long n)
{
	if (n > 0)
		ev_rec(n - 1);
	consume(2);
	sink2 = 2; /* REC_MARK */
	return 0;
}

/* variables that are arithmetic on others (DW_OP_plus, shl, mul) */
__attribute__((noinline)) long ar(long a, long b)
{
	long s = a + b, t = a << 3, u = a * b;

	consume(s * 2 + t + u);
	sink2 = 3; /* AR_MARK */
	consume(a - b);
	return 0;
}

/* implicit pointers: p points to a struct that only lives in registers */
struct pt {
	long x, y;
};

static inline long ip_sum(const struct pt *p)
{
	return p->x * 3 + p->y;
}

__attribute__((noinline)) long ip_outer(long a, long b)
{
	struct pt q = { a, b };

	return ip_sum(&q);
}

/* a clone (gcc's IPA-SRA) that gets fs->f instead of fs: its fs is what
 * the callers pass (DW_OP_GNU_parameter_ref) */
struct inner {
	long code[8];
};

struct state {
	struct inner *f;
	long other;
};

static __attribute__((noinline)) long getv(struct state *fs, int pc)
{
	return fs->f->code[pc] + sink;
}

__attribute__((noinline)) long isra_caller(struct state *fs, int pc)
{
	long r = getv(fs, pc);

	r += getv(fs, pc + 1);
	return r + fs->other;
}

/* location views: the inlined copy's parameters at its entry */
static inline unsigned long rotl(unsigned long x, int n)
{
	return (x << n) | (x >> (64 - n));
}

__attribute__((noinline)) unsigned long nextrand(unsigned long *state)
{
	unsigned long state0 = state[0], state1 = state[1];
	unsigned long state2 = state[2] ^ state0, state3 = state[3] ^ state1;
	unsigned long res = rotl(state1 * 5, 7) * 9;

	state1 <<= 17;
	state[0] = state0 ^ state3;
	state[1] = state0 ^ state1 ^ state2;
	state[2] = state2 ^ state1;
	state[3] = state3 << 45;
	return res;
}

/*
 * A parameter assigned at the entry by code that compiles to nothing
 * (Berkeley DB's COMPQUIET): gcc -O1 and up describe it as "views 0..3:
 * rdi", then "constant 0" from the same address. At the entry (view 0)
 * it is the pointer the caller passed.
 */
#define COMPQUIET(n, v) do { (n) = (v); (n) = (n); } while (0)
__attribute__((noinline)) int quiet_entry(struct state *st)
{
	COMPQUIET(st, NULL);
	sink = 3;
	return 0;
}

/*
 * A static local of an inlined function: its DIE is the abstract
 * instance's only (the inlined copies do not repeat it), at a fixed
 * address.
 */
static inline __attribute__((always_inline)) long bump(long by)
{
	static long total = 1000;

	total += by;
	return total;
}

__attribute__((noinline)) long bump_twice(long by)
{
	sink = bump(by);
	/* total is in memory again before the second copy */
	__asm__ volatile("" ::: "memory");
	return bump(by * 2);
}

/* thread-locals of the executable */
__attribute__((noinline)) long tls_probe(long tag)
{
	return tls_counter + tag + sink;
}

static void *thread_main(void *arg)
{
	long v = (long)arg;

	tls_counter = v;
	printf("TRUTH tls %ld %ld\n", v, v);
	fflush(stdout);
	tls_probe(v);
	return NULL;
}

int main(int argc, char **argv)
{
	struct inner in = { { 1, 2, 3, 4, 5, 6, 7, 8 } };
	struct state st = { &in, 40 + argc };
	unsigned long rs[4] = { 1, 2 + argc, 3, 4 };
	pthread_t t;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "block")) {
		printf("READY\n");
		return (int)ev_blocked(777);
	}
	printf("TRUTH ev %ld %ld\n", 1000L + argc, -42L);
	ev_after_call(1000 + argc, -42);
	for (long n = 3; n >= 0; n--)
		printf("TRUTH rec %ld\n", n);
	ev_rec(3);
	printf("TRUTH ar %ld %ld %ld\n", 5L + argc + 9, (5L + argc) << 3, (5L + argc) * 9);
	ar(5 + argc, 9);
	printf("TRUTH ip %ld %ld\n", 17L + argc, 23L);
	sink = ip_outer(17 + argc, 23);
	printf("TRUTH isra %ld\n", st.other);
	printf("TRUTH isra %ld\n", st.other);
	sink = isra_caller(&st, argc);
	printf("TRUTH rotl %lu 7\n", rs[1] * 5);
	usink = nextrand(rs);
	printf("TRUTH quiet %ld\n", st.other);
	quiet_entry(&st);
	printf("TRUTH bump 1000\nTRUTH bump %ld\n", 1000L + argc);
	sink = bump_twice(argc);
	printf("TRUTH tls %ld %ld\n", 5L, 7L);
	tls_probe(7);
	for (long v = 111; v <= 222; v += 111) {
		pthread_create(&t, NULL, thread_main, (void *)v);
		pthread_join(t, NULL);
	}
	errno = 0;
	fd = open("/nonexistent/readable", O_RDONLY);
	printf("TRUTH errno %d %d\n", fd, errno);
	fd = open("/etc/passwd/x", O_RDONLY);
	printf("TRUTH errno %d %d\n", fd, errno);
	return 0;
}
