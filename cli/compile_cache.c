// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Where compiled objects go: the per-user cache directory when it can be
 * trusted (util/cache_dir.c says when and why) and written, else a private
 * temporary directory, checked the same way, removed at exit, else a
 * memory file.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

/* A fresh private directory, under $TMPDIR when it can be trusted, else /tmp. */
static int open_temp(struct bp_cache_dir *cd, char *why, size_t len)
{
	const char *tmpdir = getenv("TMPDIR");

	if (tmpdir && tmpdir[0] == '/' && !open_temp_in(tmpdir, cd, why, len))
		return 0;
	return open_temp_in("/tmp", cd, why, len);
}

int bp_compile_cache__open(struct bp_cache_dir *cd)
{
	char why[PATH_MAX + 128];
	int err;

	cd->fd = -1;
	err = bp_cache_dir__open_user(cd, why, sizeof(why));
	if (!err)
		return 0;
	/* something another user may have put there is worth a warning;
	 * a read-only or full file system is not (the object goes elsewhere) */
	if (err == -EPERM || err == -ELOOP || err == -ENOTDIR)
		bp_err("not using the compile cache: %s; compiling in a private temporary directory\n",
		       why);
	else
		bp_info("not using the compile cache: %s; compiling in a private temporary directory\n",
			why);
	cd->fd = -1;
	return err;
}

/* The object written whole as name in dir, or nothing there. */
static int store(const struct bp_cache_dir *dir, const char *name, const void *obj, size_t size,
		 char *why, size_t len)
{
	char tmp[96], ignored[8];
	int fd, err;

	fd = bp_cache_dir__create_temp(dir, ".o", tmp, sizeof(tmp), why, len);
	if (fd < 0)
		return fd;
	err = bp_cache_dir__transfer(fd, (void *)obj, 0, size, true);
	if (err) {
		snprintf(why, len, "cannot write %s/%s: %s", dir->path, tmp, strerror(-err));
		bp_cache_dir__commit(dir, fd, tmp, name, false, ignored, sizeof(ignored));
		return err;
	}
	return bp_cache_dir__commit(dir, fd, tmp, name, true, why, len);
}

/* The last resort: a memory file, open until exit (/proc/self/fd/N). */
static int keep_in_memory(const void *obj, size_t size, char *path, size_t len)
{
	int fd = memfd_create("bpfprobe-compiled", MFD_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = bp_cache_dir__transfer(fd, (void *)obj, 0, size, true);
	if (err) {
		close(fd);
		return err;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return 0;
}

int bp_compile_cache__keep(const struct bp_cache_dir *dir, const char *name, const void *obj,
			   size_t size, char *path, size_t len)
{
	struct bp_cache_dir tmp = { .fd = -1 };
	char why[PATH_MAX + 128] = "";
	int err;

	if (dir->fd >= 0) {
		err = store(dir, name, obj, size, why, sizeof(why));
		if (!err && snprintf(path, len, "%s/%s", dir->path, name) < (int)len)
			return 0;
		bp_info("cannot keep the object in the compile cache: %s; using a private temporary directory\n",
			err ? why : "path too long");
	}
	why[0] = '\0';
	err = open_temp(&tmp, why, sizeof(why));
	if (!err) {
		err = store(&tmp, name, obj, size, why, sizeof(why));
		if (!err && snprintf(path, len, "%s/%s", tmp.path, name) >= (int)len)
			err = -ENAMETOOLONG;
		bp_cache_dir__close(&tmp);
		if (!err) {
			bp_info("compiled object: %s (removed at exit)\n", path);
			return 0;
		}
	}
	bp_info("cannot keep the object in a private temporary directory: %s; keeping it in memory\n",
		why[0] ? why : strerror(-err));
	err = keep_in_memory(obj, size, path, len);
	if (err)
		bp_err("cannot keep the compiled object anywhere: %s\n", strerror(-err));
	return err;
}
