// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The compile cache's directory. bpfprobe runs as root, and `su` without
 * '-' or `sudo -E` keep a user's HOME and XDG_CACHE_HOME: the cache path
 * may lead into a directory another user controls, who could then plant
 * the object root loads or a symlink root writes through. So the cache is
 * used only when nobody but the effective user (and root, above it) can
 * have changed it or anything on its path; files in it are made with
 * O_EXCL|O_NOFOLLOW through its descriptor.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cache_dir.h"
#include "util/log.h"

/* Why the directory path (st) may have been changed by someone else, in
 * why; NULL when it cannot. mine: it must be the effective user's, and
 * writable by it alone; else root's will do, and a sticky directory
 * others may write (/tmp) too, since they cannot rename what is ours. */
static const char *why_untrusted(const char *path, const struct stat *st, bool mine,
				 char *why, size_t len)
{
	uid_t me = geteuid();

	if (!S_ISDIR(st->st_mode)) {
		snprintf(why, len, "%s is not a directory", path);
	} else if (st->st_uid != me && (mine || st->st_uid != 0)) {
		snprintf(why, len, "%s is owned by uid %u, not by uid %u%s", path,
			 (unsigned)st->st_uid, (unsigned)me, mine || !me ? "" : " or root");
	} else if ((st->st_mode & (S_IWGRP | S_IWOTH)) && (mine || !(st->st_mode & S_ISVTX))) {
		snprintf(why, len, "%s is writable by %s (mode %04o)", path,
			 st->st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned)(st->st_mode & 07777));
	} else {
		return NULL;
	}
	return why;
}

/*
 * Opens the directory canonical path names, walking it from "/" without
 * following a symlink, each directory on the way trusted (why_untrusted
 * with mine false, the last one with mine). Returns an fd or -errno with
 * why filled.
 */
static int open_trusted(const char *path, bool mine, char *why, size_t len)
{
	char walked[PATH_MAX], comp[NAME_MAX + 1];
	const char *p = path;
	struct stat st;
	int fd, err = 0;

	if (path[0] != '/') {
		snprintf(why, len, "%s is not an absolute path", path);
		return -EINVAL;
	}
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(why, len, "cannot open /: %s", strerror(errno));
		return -errno;
	}
	if (why_untrusted("/", &st, false, why, len)) {
		close(fd);
		return -EPERM;
	}
	while (!err) {
		size_t n;
		bool last;
		int next;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		n = strcspn(p, "/");
		if (n > NAME_MAX) {
			snprintf(why, len, "%s: a name too long", path);
			err = -ENAMETOOLONG;
			break;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		last = !p[strspn(p, "/")];
		snprintf(walked, sizeof(walked), "%.*s", (int)(p - path), path);
		next = openat(fd, comp, (last ? O_RDONLY : O_PATH) | O_DIRECTORY | O_NOFOLLOW |
					O_CLOEXEC);
		if (next < 0) {
			err = -errno;
			snprintf(why, len, "%s: %s", walked,
				 errno == ELOOP || errno == ENOTDIR ? "a symbolic link or not a directory" :
				 strerror(errno));
		} else if (fstat(next, &st)) {
			err = -errno;
			snprintf(why, len, "%s: %s", walked, strerror(errno));
		} else if (why_untrusted(walked, &st, last && mine, why, len)) {
			err = -EPERM;
		}
		close(fd);
		fd = next;
	}
	if (err) {
		if (fd >= 0)
			close(fd);
		return err;
	}
	return fd;
}

static void cache_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct passwd *pw;

	if (xdg && xdg[0] == '/')
		snprintf(buf, len, "%s/bpfprobe", xdg);
	else if (home && home[0] == '/')
		snprintf(buf, len, "%s/.cache/bpfprobe", home);
	else if ((pw = getpwuid(geteuid())) && pw->pw_dir && pw->pw_dir[0] == '/')
		snprintf(buf, len, "%s/.cache/bpfprobe", pw->pw_dir);
	else
		snprintf(buf, len, "/var/cache/bpfprobe");
}

/* Creates the missing directories of path (mode 0700), each only in a
 * parent that is the effective user's and nobody else may write: never in
 * someone else's home, nor where another could have made it first. */
static void make_missing(char *path)
{
	struct stat st;

	for (char *p = path + 1;; p++) {
		char c = *p;

		if (c && c != '/')
			continue;
		*p = '\0';
		if (lstat(path, &st) && errno == ENOENT) {
			char *slash = strrchr(path, '/');
			struct stat parent;
			int ok;

			*slash = '\0';
			ok = !stat(*path ? path : "/", &parent) && parent.st_uid == geteuid() &&
			     !(parent.st_mode & (S_IWGRP | S_IWOTH));
			*slash = '/';
			if (!ok || mkdir(path, 0700)) {
				*p = c;
				return;
			}
		}
		*p = c;
		if (!c)
			return;
	}
}

/* The per-user cache, or -errno with why filled. */
static int open_cache(struct bp_cache_dir *cd, char *why, size_t len)
{
	char path[PATH_MAX];
	struct stat st;
	int fd;

	cache_path(path, sizeof(path));
	make_missing(path);
	if (lstat(path, &st)) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(why, len, "%s is a symbolic link", path);
		return -ELOOP;
	}
	if (!realpath(path, cd->path)) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -errno;
	}
	fd = open_trusted(cd->path, true, why, len);
	if (fd < 0)
		return fd;
	cd->fd = fd;
	cd->temporary = false;
	return 0;
}

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
	fd = open_trusted(canon, false, why, len);
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
	fd = open_trusted(cd->path, true, why, len);
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
	if (!open_cache(cd, why, sizeof(why)))
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

void bp_cache_dir__close(struct bp_cache_dir *cd)
{
	if (cd->fd >= 0)
		close(cd->fd);
	cd->fd = -1;
}
