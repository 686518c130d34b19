// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The compile cache's directory: the per-user cache directory when it can
 * be trusted (util/cache_dir.c says when and why), else a private
 * temporary directory, checked the same way, removed at exit.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/compile_cache.h"
#include "util/log.h"

static char **temp_dirs;
static int ntemp_dirs;

/* Removes the temporary directories and the files in them. */
static void remove_temp_dirs(void)
{
	for (int i = 0; i < ntemp_dirs; i++) {
		DIR *d = opendir(temp_dirs[i]);
		struct dirent *de;

		while (d && (de = readdir(d)))
			if (de->d_name[0] != '.')
				unlinkat(dirfd(d), de->d_name, 0);
		if (d)
			closedir(d);
		rmdir(temp_dirs[i]);
		free(temp_dirs[i]);
	}
	free(temp_dirs);
	temp_dirs = NULL;
	ntemp_dirs = 0;
}

static int remember_temp_dir(const char *path)
{
	char **n = realloc(temp_dirs, (ntemp_dirs + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	temp_dirs = n;
	if (!(temp_dirs[ntemp_dirs] = strdup(path)))
		return -ENOMEM;
	if (!ntemp_dirs++)
		atexit(remove_temp_dirs);
	return 0;
}

/* A fresh directory in base (which must be trusted itself). */
static int open_temp_in(const char *base, struct bp_cache_dir *cd, char *why, size_t len)
{
	char canon[PATH_MAX];
	int fd;

	if (!realpath(base, canon)) {
		snprintf(why, len, "%s: %s", base, strerror(errno));
		return -errno;
	}
	fd = bp_cache_dir__open_trusted(canon, false, why, len);
	if (fd < 0)
		return fd;
	close(fd);
	if (snprintf(cd->path, sizeof(cd->path), "%s/bpfprobe-XXXXXX", canon) >=
	    (int)sizeof(cd->path)) {
		snprintf(why, len, "%s: path too long", canon);
		return -ENAMETOOLONG;
	}
	if (!mkdtemp(cd->path)) {
		snprintf(why, len, "cannot create %s: %s", cd->path, strerror(errno));
		return -errno;
	}
	fd = bp_cache_dir__open_trusted(cd->path, true, why, len);
	if (fd < 0 || remember_temp_dir(cd->path)) {
		rmdir(cd->path);
		if (fd >= 0)
			close(fd);
		return fd < 0 ? fd : -ENOMEM;
	}
	cd->fd = fd;
	cd->temporary = true;
	return 0;
}

int bp_cache_dir__open(struct bp_cache_dir *cd)
{
	const char *tmpdir = getenv("TMPDIR");
	char why[PATH_MAX + 128], why_tmp[PATH_MAX + 128];
	int err;

	cd->fd = -1;
	if (!bp_cache_dir__open_user(cd, why, sizeof(why)))
		return 0;
	bp_err("not using the compile cache: %s; compiling in a private temporary directory\n",
	       why);
	if (tmpdir && tmpdir[0] == '/' && !open_temp_in(tmpdir, cd, why_tmp, sizeof(why_tmp)))
		return 0;
	err = open_temp_in("/tmp", cd, why_tmp, sizeof(why_tmp));
	if (err)
		bp_err("cannot make a private temporary directory: %s\n", why_tmp);
	return err;
}
