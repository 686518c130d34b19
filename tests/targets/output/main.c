/*
 * Test target for the output channels (tests/e2e/output*.sh). Prints
 * "TRUTH pid=<pid>" and one "TRUTH <what> ..." line per call the BPF
 * programs in tests/bpf/output__*.bpf.c report on.
 *
 *   output-CC-OPT printk N PAUSE_MS   out_printk(i, -1000 * i - 7), i = 0..N-1
 *   output-CC-OPT record N            out_record(i, -1234567890123 * i, name), i = 1..N
 *   output-CC-OPT perf N BURST        on CPU 0: N x out_record, out_burst(BURST),
 *                                     a pause, one more out_record (id 99)
 *   output-CC-OPT maps                out_map() calls on CPU 0, then again on CPU 1
 */
#define _GNU_SOURCE
#include <sched.h>
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

NOINLINE int out_printk(int i, long v)
{
	sink = i + v;
	return (int)sink;
}

NOINLINE int out_record(int id, long val, const char *name)
{
	sink = id + val + name[0];
	return (int)sink;
}

NOINLINE int out_burst(int n)
{
	sink = n;
	return n;
}

NOINLINE int out_map(int key, long val)
{
	sink = key + val;
	return (int)sink;
}

static const char *const names[] = { "alpha", "beta", "gamma \"q\"" };

static int pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void record(int id)
{
	long val = -1234567890123L * id;
	const char *name = names[id % 3];

	out_record(id, val, name);
	printf("TRUTH record id=%d val=%ld name=%s\n", id, val, name);
}

static const struct { int key; long val; } map_calls[] = {
	{ 1, 10 }, { 2, 20 }, { 2, 22 }, { 3, 30 }, { 3, 31 }, { 3, 32 },
};

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "printk";
	int n = argc > 2 ? atoi(argv[2]) : 1;
	int arg = argc > 3 ? atoi(argv[3]) : 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TRUTH pid=%d\n", getpid());
	if (!strcmp(mode, "printk")) {
		for (int i = 0; i < n; i++) {
			out_printk(i, -1000L * i - 7);
			printf("TRUTH printk i=%d v=%ld\n", i, -1000L * i - 7);
			if (arg)
				usleep(arg * 1000);
		}
	} else if (!strcmp(mode, "record")) {
		for (int i = 1; i <= n; i++)
			record(i);
	} else if (!strcmp(mode, "perf")) {
		/* the kernel reports a perf buffer's lost records with the next
		 * record written on that CPU: keep everything on one CPU */
		if (pin_cpu(0))
			perror("sched_setaffinity");
		for (int i = 1; i <= n; i++)
			record(i);
		out_burst(arg);
		printf("TRUTH burst n=%d\n", arg);
		usleep(300 * 1000);
		record(99);
	} else if (!strcmp(mode, "maps")) {
		for (int cpu = 0; cpu < 2; cpu++) {
			pin_cpu(cpu);	/* on one CPU machines both rounds run on CPU 0 */
			for (size_t i = 0; i < sizeof(map_calls) / sizeof(map_calls[0]); i++) {
				out_map(map_calls[i].key, map_calls[i].val);
				printf("TRUTH map key=%d val=%ld cpu=%d\n", map_calls[i].key,
				       map_calls[i].val, sched_getcpu());
			}
		}
	} else {
		fprintf(stderr, "unknown mode '%s'\n", mode);
		return 2;
	}
	return 0;
}
