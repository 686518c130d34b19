// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpf_insns OBJ: prints "NAME INSNS" for every program of a BPF object as
 * compiled (its body, before any loader adds a prologue). Custom SEC names
 * are opened through a catch-all handler, like bpfprobe's.
 */
#include <stdio.h>
#include <bpf/libbpf.h>

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int main(int argc, char **argv)
{
	LIBBPF_OPTS(libbpf_prog_handler_opts, hopts);
	struct bpf_program *prog;
	struct bpf_object *obj;

	if (argc != 2) {
		fprintf(stderr, "usage: bpf_insns OBJ\n");
		return 2;
	}
	libbpf_set_print(quiet);
	libbpf_register_prog_handler(NULL, BPF_PROG_TYPE_KPROBE, 0, &hopts);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		perror(argv[1]);
		return 1;
	}
	bpf_object__for_each_program(prog, obj)
		printf("%s %zu\n", bpf_program__name(prog), bpf_program__insn_cnt(prog));
	bpf_object__close(obj);
	return 0;
}
