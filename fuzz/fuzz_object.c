// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: the annotated-object path from ELF to programs, on
 * mutated BPF objects: bpfprobe_object__open() (the ELF checks, libbpf's
 * open through bpfprobe's section handler, every SEC annotation parsed),
 * each program's BTF prototype checked against its annotation as the
 * load does, and the library's view of the programs. Nothing is loaded,
 * no binary named in an annotation is read.
 *
 * Seeds: fuzz/corpus/object/ (fuzz/seeds/annotated.bpf.c built two ways)
 * and the test suite's objects in build/bpf/ when they are built.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpfprobe/bpfprobe.h>
#include "fuzz/input_file.h"
#include "loader/object.h"

static const char *path;

static int no_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	path = fuzz_input_init("object", "o");
	/* messages on garbage are expected: FUZZ_VERBOSE=1 shows them */
	if (!getenv("FUZZ_VERBOSE")) {
		bpfprobe_set_print(NULL);
		libbpf_set_print(no_print);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bpfprobe_object *obj;

	if (fuzz_input_write(data, size))
		return 0;
	obj = bpfprobe_object__open(path, NULL);
	if (!obj)
		return 0;
	for (int i = 0; i < obj->nprogs; i++) {
		struct bp_program *p = &obj->progs[i];
		struct bpfprobe_program_info info = { .sz = sizeof(info) };

		/* what the load checks first: the BTF prototype */
		bp_btf__check_prototype(obj->obj, p);
		if (bpfprobe_object__program_info(obj, i, &info) || !info.name || !info.sec ||
		    info.arg_cnt > BP_MAX_ARGS)	/* a record receives up to 16 */
			abort();
	}
	if (bpfprobe_object__program_cnt(obj) != (size_t)obj->nprogs)
		abort();
	bpfprobe_object__destroy(obj);
	return 0;
}
