// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * attach_all OBJ: loads OBJ with libbpf, attaches every program by its
 * section name (bpf_program__attach), prints "READY" and waits for SIGTERM.
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <bpf/libbpf.h>

static volatile sig_atomic_t stop;

static void on_term(int sig __attribute__((unused)))
{
	stop = 1;
}

int main(int argc, char **argv)
{
	struct bpf_program *p;
	struct bpf_object *obj;

	if (argc != 2) {
		fprintf(stderr, "usage: attach_all OBJ\n");
		return 2;
	}
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "attach_all: cannot load %s\n", argv[1]);
		return 1;
	}
	bpf_object__for_each_program(p, obj) {
		if (!bpf_program__attach(p)) {
			fprintf(stderr, "attach_all: cannot attach %s\n", bpf_program__name(p));
			return 1;
		}
	}
	printf("READY\n");
	fflush(stdout);
	while (!stop)
		pause();
	bpf_object__close(obj);	/* links are freed at exit */
	return 0;
}
