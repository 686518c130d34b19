// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * LD_PRELOAD'ed into an interpreter (lua5.4, python3.11) to take a stack
 * sample inside a libc call the interpreter makes for a script: fopen64()
 * (Lua's loadfile, through luaL_loadfilex) and access() (Python's
 * os.access). The first call whose path contains $UW_SAMPLE_MATCH writes
 * the sample to $UW_SAMPLE_OUT; with $UW_WAIT set, the call then waits
 * for stdin to close, so that the unwinder can read the live process.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../capture/uw_capture.h"

static int sampled;

static void wait_for_stdin_eof(void)
{
	char buf[64];

	while (read(0, buf, sizeof(buf)) > 0)
		;
}

/* noinline: a frame of its own, under the wrapper's */
static __attribute__((noinline)) void maybe_sample(const char *path)
{
	const char *match = getenv("UW_SAMPLE_MATCH");

	if (sampled || !path || !match || !*match || !strstr(path, match))
		return;
	sampled = 1;
	if (uw_take_sample(getenv("UW_SAMPLE_OUT")))
		fprintf(stderr, "uw_preload: cannot write the sample\n");
	if (getenv("UW_WAIT"))
		wait_for_stdin_eof();
}

FILE *fopen(const char *path, const char *mode)
{
	static FILE *(*real)(const char *, const char *);

	if (!real)
		real = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
	maybe_sample(path);
	return real(path, mode);
}

/* what a program built with _FILE_OFFSET_BITS=64 calls (Debian's liblua) */
FILE *fopen64(const char *path, const char *mode)
{
	static FILE *(*real)(const char *, const char *);

	if (!real)
		real = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen64");
	maybe_sample(path);
	return real(path, mode);
}

int access(const char *path, int mode)
{
	static int (*real)(const char *, int);

	if (!real)
		real = (int (*)(const char *, int))dlsym(RTLD_NEXT, "access");
	maybe_sample(path);
	return real(path, mode);
}
