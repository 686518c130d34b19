// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The cache key is a hash of clang's preprocessed output plus the flags and
 * clang's version, so an edited header invalidates the entry as surely as an
 * edited source; preprocessing costs a fraction of a full compile.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/compile_c.h"
#include "util/log.h"

#ifndef BP_CLANG
#define BP_CLANG "clang"
#endif

bool bp_is_c_source(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && !strcmp(path + n - 2, ".c");
}

static uint64_t fnv1a(uint64_t h, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* A word of extra that would change what clang outputs, or where. */
static const char *refused_word(const char *const *extra)
{
	static const char *const bad[] = { "-o", "-c", "-E", "-S", "-M", "-MM",
					   "-fsyntax-only", "-" };

	for (; extra && *extra; extra++) {
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			if (!strcmp(*extra, bad[i]))
				return *extra;
		if (!strncmp(*extra, "-o", 2) && (*extra)[2] != 'b')
			return *extra;
	}
	return NULL;
}

static size_t count_words(const char *const *extra)
{
	size_t n = 0;

	while (extra && extra[n])
		n++;
	return n;
}

/* The flags every compile uses, then extra; argv[] is filled up to the output part. */
static int base_argv(const char **argv, const char *src, const char *const *extra,
		     char *incdir, size_t incdir_len, char *archinc, size_t archinc_len)
{
	struct utsname u;
	const char *slash = strrchr(src, '/');
	int n = 0;

	uname(&u);
	snprintf(archinc, archinc_len, "-I/usr/include/%s-linux-gnu", u.machine);
	if (slash)
		snprintf(incdir, incdir_len, "-I%.*s", (int)(slash - src), src);
	else
		snprintf(incdir, incdir_len, "-I.");
	argv[n++] = BP_CLANG;
	argv[n++] = "-O2";
	argv[n++] = "-g";
	argv[n++] = "-target";
	argv[n++] = "bpf";
	argv[n++] = "-D__TARGET_ARCH_x86";
	argv[n++] = archinc;
	argv[n++] = incdir;
	for (; extra && *extra; extra++)
		argv[n++] = *extra;
	return n;
}

static int run(const char *const argv[], const char *stdout_path)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (stdout_path && !freopen(stdout_path, "w", stdout))
			_exit(126);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "bpfprobe: cannot run %s: %s (install clang)\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int cache_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		snprintf(buf, len, "%s/bpfprobe", xdg);
	else if (home && *home)
		snprintf(buf, len, "%s/.cache/bpfprobe", home);
	else
		snprintf(buf, len, "/var/cache/bpfprobe");
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int hash_file(const char *path, uint64_t *h)
{
	char buf[65536];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		*h = fnv1a(*h, buf, n);
	fclose(f);
	return 0;
}

int bp_compile_c(const char *src, const char *const *extra, char *out, size_t len)
{
	char incdir[PATH_MAX + 3], archinc[128], dir[PATH_MAX], pre[PATH_MAX + 32];
	const char **argv, *bad = refused_word(extra);
	uint64_t h = 0xcbf29ce484222325ull;
	int n, rc;

	if (bad) {
		bp_err("compiling '%s': clang argument '%s' is not allowed (bpfprobe chooses what clang outputs)\n",
		       src, bad);
		return -EINVAL;
	}
	if (access(src, R_OK)) {
		bp_err("cannot read '%s': %s\n", src, strerror(errno));
		return -errno;
	}
	if (cache_dir(dir, sizeof(dir))) {
		bp_err("cannot create the compile cache %s: %s\n", dir, strerror(errno));
		return -errno;
	}
	argv = calloc(count_words(extra) + 16, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	n = base_argv(argv, src, extra, incdir, sizeof(incdir), archinc, sizeof(archinc));
	snprintf(pre, sizeof(pre), "%s/pre.%d.i", dir, getpid());
	argv[n++] = "-E";
	argv[n++] = src;
	argv[n] = NULL;
	rc = run(argv, pre);
	if (rc) {
		unlink(pre);
		bp_err("compiling '%s' failed (clang's messages above)\n", src);
		rc = -EINVAL;
		goto out;
	}
	for (int i = 0; i < n - 2; i++)
		h = fnv1a(h, argv[i], strlen(argv[i]) + 1);
	rc = hash_file(pre, &h);
	unlink(pre);
	if (rc)
		goto out;
	snprintf(out, len, "%s/%016llx.o", dir, (unsigned long long)h);
	if (!access(out, R_OK)) {
		bp_info("using cached object %s for %s\n", out, src);
		goto out;
	}
	n -= 2;
	argv[n++] = "-c";
	argv[n++] = src;
	argv[n++] = "-o";
	argv[n++] = pre;	/* then renamed: a half-written object is never cached */
	argv[n] = NULL;
	bp_info("compiling %s\n", src);
	rc = run(argv, NULL);
	if (rc || rename(pre, out)) {
		unlink(pre);
		bp_err("compiling '%s' failed (clang's messages above)\n", src);
		rc = -EINVAL;
	}
out:
	free(argv);
	return rc;
}
