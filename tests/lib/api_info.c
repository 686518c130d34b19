// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Walks the library's programs, probe points and instances of a loaded
 * object and prints them, one line each, for tests/e2e/lib_api.sh.
 */
#include <stdio.h>
#include <bpfprobe/bpfprobe.h>

int main(int argc, char **argv)
{
	struct bpfprobe_object *obj;
	size_t i;

	if (argc != 2)
		return 2;
	obj = bpfprobe_object__open(argv[1], NULL);
	if (!obj || bpfprobe_object__load(obj))
		return 1;
	for (i = 0; i < bpfprobe_object__program_cnt(obj); i++) {
		struct bpfprobe_program_info p = { .sz = sizeof(p) };

		bpfprobe_object__program_info(obj, i, &p);
		printf("program %s args=%zu points=%zu kernel=%d\n", p.name, p.arg_cnt,
		       p.point_cnt, p.kernel);
	}
	for (i = 0; i < bpfprobe_object__point_cnt(obj); i++) {
		struct bpfprobe_point_info p = { .sz = sizeof(p) };

		bpfprobe_object__point_info(obj, i, &p);
		printf("point %s %s instance=%zu fd_ok=%d\n", p.program, p.func, p.instance,
		       p.prog_fd >= 0);
	}
	for (i = 0; i < bpfprobe_object__instance_cnt(obj); i++) {
		struct bpfprobe_instance_info in = { .sz = sizeof(in) };

		bpfprobe_object__instance_info(obj, i, &in);
		printf("instance %zu %s of %s fd_ok=%d args=%zu", i, in.name, in.program,
		       in.prog_fd >= 0, in.arg_cnt);
		for (size_t k = 0; k < in.arg_cnt; k++)
			printf(" [%s]", in.arg_plan[k]);
		printf("\n");
	}
	/* an older caller's shorter struct is filled only as far as its sz */
	struct { size_t sz; const char *name; } old = { .sz = sizeof(old) };
	if (bpfprobe_object__program_info(obj, 0, (void *)&old) || !old.name)
		return 1;
	if (bpfprobe_object__instance_info(obj, 999, (void *)&old) != -2)
		return 1;
	bpfprobe_object__destroy(obj);
	return 0;
}
