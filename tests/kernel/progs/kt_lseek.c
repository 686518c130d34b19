// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf's prologue test loop: NR_ITERS pairs of lseek() on /dev/null, one
 * opened read-only (f_mode & 3 == 1), one read-write (3), offsets 0..110,
 * SEEK_SET and SEEK_CUR in turns of two. Writes "TRUTH lseek ..." per call
 * in tests/kernel/bpf/prologue.bpf.c's format.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The truth goes to $KT_TRUTH (else stdout): not into the stdout bpfprobe
 * shares with its own output, where lines could interleave. */
static FILE *truth;

static int truth_open(void)
{
	const char *path = getenv("KT_TRUTH");

	truth = path ? fopen(path, "a") : stdout;
	if (!truth)
		perror(path);
	return !truth;
}

#define NR_ITERS	111

static void seek(int fd, int mode, long off, int whence)
{
	lseek(fd, off, whence);
	fprintf(truth, "TRUTH lseek err=0 mode=%d off=%ld orig=%d\n", mode, off, whence);
}

int main(void)
{
	int fds[2], modes[2] = { 1, 3 };

	if (truth_open())
		return 1;
	fds[0] = open("/dev/null", O_RDONLY);
	fds[1] = open("/dev/null", O_RDWR);
	if (fds[0] < 0 || fds[1] < 0) {
		perror("/dev/null");
		return 1;
	}
	for (int i = 0; i < NR_ITERS; i++) {
		int whence = (i / 2) % 2 ? SEEK_CUR : SEEK_SET;

		seek(fds[i % 2], modes[i % 2], i, whence);
		seek(fds[(i + 1) % 2], modes[(i + 1) % 2], i, whence);
	}
	close(fds[0]);
	close(fds[1]);
	return 0;
}
