/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A fuzz target's input in a file of its own (libdwfl and libbpf open
 * paths), removed at exit. */
#ifndef BPFPROBE_FUZZ_INPUT_FILE_H
#define BPFPROBE_FUZZ_INPUT_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_input_path[128];

static void fuzz_input_remove(void)
{
	unlink(fuzz_input_path);
}

/* /tmp/bpfprobe-fuzz-NAME-PID.EXT, removed at exit. */
static const char *fuzz_input_init(const char *name, const char *ext)
{
	snprintf(fuzz_input_path, sizeof(fuzz_input_path), "/tmp/bpfprobe-fuzz-%s-%d.%s", name,
		 (int)getpid(), ext);
	atexit(fuzz_input_remove);
	return fuzz_input_path;
}

/* DIR/NAME.EXT in a directory of the target's own (removed with it). */
static const char *fuzz_input_init_in(const char *dir, const char *name, const char *ext)
{
	snprintf(fuzz_input_path, sizeof(fuzz_input_path), "%s/%s.%s", dir, name, ext);
	atexit(fuzz_input_remove);
	return fuzz_input_path;
}

static int fuzz_input_write(const uint8_t *data, size_t size)
{
	FILE *f = fopen(fuzz_input_path, "we");
	int ok;

	if (!f)
		return -1;
	ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok ? 0 : -1;
}

#endif /* BPFPROBE_FUZZ_INPUT_FILE_H */
