// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * attach_bench OBJ: opens and loads OBJ with libbpfprobe, then times its
 * attach and its detach (every process: pid -1), and prints
 *   points=N load_ms=L attach_ms=A detach_ms=D
 * The bench's view inside `bpfprobe load`, whose whole wall and CPU
 * bench.sh measures separately.
 */
#include <stdio.h>
#include <time.h>
#include <bpfprobe/bpfprobe.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	struct bpfprobe_attach_opts aopts = { .sz = sizeof(aopts), .pid = -1 };
	struct bpfprobe_object *obj;
	double t0, t1, t2, t3;

	if (argc != 2) {
		fprintf(stderr, "usage: attach_bench OBJ\n");
		return 2;
	}
	t0 = now_ms();
	obj = bpfprobe_object__open(argv[1], NULL);
	if (!obj || bpfprobe_object__load(obj))
		return 1;
	t1 = now_ms();
	if (bpfprobe_object__attach(obj, &aopts)) {
		bpfprobe_object__destroy(obj);
		return 1;
	}
	t2 = now_ms();
	bpfprobe_object__detach(obj);
	t3 = now_ms();
	printf("points=%zu load_ms=%.1f attach_ms=%.1f detach_ms=%.1f\n",
	       bpfprobe_object__point_cnt(obj), t1 - t0, t2 - t1, t3 - t2);
	bpfprobe_object__destroy(obj);
	return 0;
}
