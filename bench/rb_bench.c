// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * rb_bench OBJ CMD [ARGS...]: loads OBJ with libbpfprobe, attaches its
 * probes to CMD (started held, released once attached, as `bpfprobe load`
 * does), and consumes OBJ's ring buffer map "rb" with libbpf until CMD
 * exits. Prints
 *   records=N lost=L wall=S consumer_cpu=S
 * lost is the BPF side's count of failed reserves (map "lost"); consumer_cpu
 * is this process's user+system time while CMD ran: the consumer's cost.
 * An OBJ without "rb" only attaches (the trap rate of an empty program).
 *
 * This is the benchmark's own consumer until bpfprobe's ring-buffer output
 * lands; then bench/bench.sh can time `bpfprobe load` instead.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <bpfprobe/bpfprobe.h>

static unsigned long long records;

static int on_record(void *ctx, void *data, size_t size)
{
	records++;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_self(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* Forks CMD held on a pipe; writing to *go releases it. */
static pid_t start_held(char **argv, int *go)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

int main(int argc, char **argv)
{
	struct bpfprobe_attach_opts aopts = { .sz = sizeof(aopts) };
	struct ring_buffer *rb = NULL;
	struct bpfprobe_object *obj;
	struct bpf_map *map;
	unsigned long long lost = 0;
	double t0, c0;
	int go, status, err;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: rb_bench OBJ CMD [ARGS...]\n");
		return 2;
	}
	obj = bpfprobe_object__open(argv[1], NULL);
	if (!obj || bpfprobe_object__load(obj))
		return 1;
	map = bpf_object__find_map_by_name(bpfprobe_object__bpf_object(obj), "rb");
	if (map) {
		rb = ring_buffer__new(bpf_map__fd(map), on_record, NULL, NULL);
		if (!rb) {
			fprintf(stderr, "rb_bench: ring_buffer__new: %s\n", strerror(errno));
			return 1;
		}
	}
	pid = start_held(argv + 2, &go);
	if (pid < 0)
		return 1;
	aopts.pid = pid;
	err = bpfprobe_object__attach(obj, &aopts);
	if (err) {
		kill(pid, SIGKILL);
		return 1;
	}
	t0 = now();
	c0 = cpu_self();
	if (write(go, "g", 1) != 1)
		return 1;
	close(go);
	for (;;) {
		if (rb)
			ring_buffer__poll(rb, 100);
		else
			usleep(10000);
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
	}
	if (rb)
		ring_buffer__consume(rb);
	printf("records=%llu", records);
	map = bpf_object__find_map_by_name(bpfprobe_object__bpf_object(obj), "lost");
	if (map) {
		__u32 zero = 0;

		bpf_map__lookup_elem(map, &zero, sizeof(zero), &lost, sizeof(lost), 0);
	}
	printf(" lost=%llu wall=%.3f consumer_cpu=%.3f\n", lost, now() - t0, cpu_self() - c0);
	ring_buffer__free(rb);
	bpfprobe_object__destroy(obj);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
}
