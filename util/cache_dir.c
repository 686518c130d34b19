// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The per-user cache directory and its subdirectories, trusted only when
 * nobody but the effective user (and root, above it) can have changed them
 * or anything on their path (cache_dir.h says why).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/cache_dir.h"

/* bp_cache_dir__create_temp's names start so */
#define TEMP_PREFIX	"tmp-"
/* a temporary file this old was left by a run killed while writing it */
#define STALE_TEMP_SECONDS	3600

/*
 * Why the directory path (its first n characters; st) may have been
 * changed by someone else, in why; NULL when it cannot. mine: it must be
 * the effective user's and writable by it alone; else root's will do too,
 * and a sticky directory others may write (/tmp), since they cannot rename
 * what is not theirs.
 */
static const char *why_untrusted(const char *path, int n, const struct stat *st, bool mine,
				 char *why, size_t len)
{
	uid_t me = geteuid();

	if (!S_ISDIR(st->st_mode)) {
		snprintf(why, len, "%.*s is not a directory", n, path);
	} else if (st->st_uid != me && (mine || st->st_uid != 0)) {
		snprintf(why, len, "%.*s is owned by uid %u, not by uid %u%s", n, path,
			 (unsigned)st->st_uid, (unsigned)me, mine || !me ? "" : " or root");
	} else if ((st->st_mode & (S_IWGRP | S_IWOTH)) && (mine || !(st->st_mode & S_ISVTX))) {
		snprintf(why, len, "%.*s is writable by %s (mode %04o)", n, path,
			 st->st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned)(st->st_mode & 07777));
	} else {
		return NULL;
	}
	return why;
}

int bp_cache_dir__open_trusted(const char *path, bool mine, char *why, size_t len)
{
	char comp[NAME_MAX + 1];
	const char *p = path;
	struct stat st;
	int fd, err = 0;

	if (path[0] != '/') {
		snprintf(why, len, "%s is not an absolute path", path);
		return -EINVAL;
	}
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		err = -errno;
		snprintf(why, len, "cannot open /: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return err;
	}
	if (why_untrusted("/", 1, &st, mine && !path[strspn(path, "/")], why, len)) {
		close(fd);
		return -EPERM;
	}
	while (!err) {
		bool last;
		size_t n;
		int next, walked;

		p += strspn(p, "/");
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
		/* the path up to this name, for what is said */
		walked = (int)(p - path);
		next = openat(fd, comp, (last ? O_RDONLY : O_PATH) | O_DIRECTORY | O_NOFOLLOW |
					O_CLOEXEC);
		if (next < 0) {
			err = -errno;
			snprintf(why, len, "%.*s: %s", walked, path,
				 errno == ELOOP || errno == ENOTDIR ?
				 "a symbolic link or not a directory" : strerror(errno));
		} else if (fstat(next, &st)) {
			err = -errno;
			snprintf(why, len, "%.*s: %s", walked, path, strerror(errno));
		} else if (why_untrusted(path, walked, &st, last && mine, why, len)) {
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

/*
 * The effective user's home directory in /etc/passwd, into buf; false if
 * the file has none. Read directly, not through NSS (getpwuid): the
 * command's fully static build cannot load NSS modules.
 */
static bool passwd_home(char *buf, size_t len)
{
	FILE *f = fopen("/etc/passwd", "re");
	uid_t uid = geteuid();
	struct passwd *pw;
	bool found = false;

	if (!f)
		return false;
	while (!found && (pw = fgetpwent(f)))
		if (pw->pw_uid == uid && pw->pw_dir && pw->pw_dir[0] == '/')
			found = snprintf(buf, len, "%s", pw->pw_dir) < (int)len;
	fclose(f);
	return found;
}

static void cache_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *sub = "/.cache/bpfprobe";

	if (xdg && xdg[0] == '/')
		snprintf(buf, len, "%s/bpfprobe", xdg);
	else if (home && home[0] == '/')
		snprintf(buf, len, "%s%s", home, sub);
	else if (len > strlen(sub) && passwd_home(buf, len - strlen(sub)))
		strcat(buf, sub);
	else
		snprintf(buf, len, "/var/cache/bpfprobe");
}

/* Creates the missing directories of path (mode 0700), each only in a
 * parent that is the effective user's and nobody else may write: never in
 * someone else's home, nor where another could have made it first.
 * Returns 0, or the errno of a mkdir that failed (a read-only or full
 * file system). */
static int make_missing(char *path)
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
				return ok ? errno : 0;
			}
		}
		*p = c;
		if (!c)
			return 0;
	}
}

/* Whether path has no empty, "." or ".." component: then, when walking
 * it meets no symlink, it is already canonical. */
static bool plain_path(const char *path)
{
	for (const char *p = path; *p; p++) {
		if (*p != '/')
			continue;
		if (p[1] == '/' || !p[1] ||
		    (p[1] == '.' && (p[2] == '/' || !p[2] || (p[2] == '.' && (p[3] == '/' || !p[3])))))
			return false;
	}
	return true;
}

/* The cache directory at path (as cache_path made it): its missing
 * directories made, and opened by its canonical path. */
static int __attribute__((noinline)) open_made(const char *path, struct bp_cache_dir *cd,
						 char *why, size_t len)
{
	char made[PATH_MAX];
	struct stat st;
	int err;

	snprintf(made, sizeof(made), "%s", path);
	err = make_missing(made);
	if (lstat(made, &st)) {
		if (err && errno == ENOENT) {
			snprintf(why, len, "cannot create %s: %s", made, strerror(err));
			return -err;
		}
		err = -errno;
		snprintf(why, len, "%s: %s", made, strerror(errno));
		return err;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(why, len, "%s is a symbolic link", made);
		return -ELOOP;
	}
	if (!realpath(made, cd->path)) {
		err = -errno;
		snprintf(why, len, "%s: %s", made, strerror(errno));
		return err;
	}
	return bp_cache_dir__open_trusted(cd->path, true, why, len);
}

int bp_cache_dir__open_user(struct bp_cache_dir *cd, char *why, size_t len)
{
	int fd = -ENOENT;

	cd->fd = -1;
	cd->temporary = false;
	cache_path(cd->path, sizeof(cd->path));
	/*
	 * Where it exists and no symlink is on its way (the usual case) the
	 * walk alone opens it. Else (missing, a symlink on the way, or
	 * found untrusted there) its missing directories are made and its
	 * canonical path walked, as if the quick walk had not been tried.
	 */
	if (plain_path(cd->path))
		fd = bp_cache_dir__open_trusted(cd->path, true, why, len);
	if (fd < 0)
		fd = open_made(cd->path, cd, why, len);
	if (fd < 0)
		return fd;
	cd->fd = fd;
	return 0;
}

/* The directory name in the directory dirfd, whose path with name is
 * cd->path already: opened (made when missing) and checked, into cd->fd. */
static int open_named(int dirfd, const char *name, struct bp_cache_dir *cd, char *why,
		      size_t len)
{
	struct stat st;
	int fd, err;

	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		if (mkdirat(dirfd, name, 0700) && errno != EEXIST) {
			err = -errno;
			snprintf(why, len, "cannot create %s: %s", cd->path, strerror(errno));
			return err;
		}
		fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0) {
		err = -errno;
		snprintf(why, len, "%s: %s", cd->path,
			 errno == ELOOP || errno == ENOTDIR ? "a symbolic link or not a directory" :
			 strerror(errno));
		return err;
	}
	if (fstat(fd, &st)) {
		err = -errno;
		snprintf(why, len, "%s: %s", cd->path, strerror(errno));
		close(fd);
		return err;
	}
	if (why_untrusted(cd->path, (int)strlen(cd->path), &st, true, why, len)) {
		close(fd);
		return -EPERM;
	}
	cd->fd = fd;
	return 0;
}

int bp_cache_dir__open_sub(const struct bp_cache_dir *parent, const char *name,
			   struct bp_cache_dir *cd, char *why, size_t len)
{
	cd->fd = -1;
	cd->temporary = parent->temporary;
	if (snprintf(cd->path, sizeof(cd->path), "%s/%s", parent->path, name) >=
	    (int)sizeof(cd->path)) {
		snprintf(why, len, "%s/%s: path too long", parent->path, name);
		return -ENAMETOOLONG;
	}
	return open_named(parent->fd, name, cd, why, len);
}

bool bp_cache_dir__file_trusted(int fd, const char *name, struct stat *st, char *why,
				size_t len)
{
	if (fstat(fd, st)) {
		snprintf(why, len, "%s: %s", name, strerror(errno));
		return false;
	}
	if (!S_ISREG(st->st_mode)) {
		snprintf(why, len, "%s is not a regular file", name);
		return false;
	}
	if (st->st_uid != geteuid() || (st->st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(why, len, "%s is not a file only uid %u may write (owner %u, mode %04o)",
			 name, (unsigned)geteuid(), (unsigned)st->st_uid,
			 (unsigned)(st->st_mode & 07777));
		return false;
	}
	return true;
}

int bp_cache_dir__create_temp(const struct bp_cache_dir *cd, const char *suffix,
			      char *tmp, size_t tmp_len, char *why, size_t len)
{
	unsigned int rnd = 0;
	int fd, err;

	for (int tries = 0;; tries++) {
		if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != sizeof(rnd))
			rnd ^= (unsigned)getpid() * 2654435761u + tries;
		snprintf(tmp, tmp_len, TEMP_PREFIX "%d-%08x%s", (int)getpid(), rnd, suffix);
		fd = openat(cd->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd >= 0 || errno != EEXIST || tries > 100)
			break;
	}
	if (fd < 0) {
		err = -errno;
		snprintf(why, len, "cannot create a file in %s: %s", cd->path, strerror(errno));
		return err;
	}
	return fd;
}

int bp_cache_dir__commit(const struct bp_cache_dir *cd, int fd, const char *tmp,
			 const char *name, bool ok, char *why, size_t len)
{
	int err = 0;

	if (close(fd) && ok) {
		err = -errno;
		snprintf(why, len, "cannot write %s/%s: %s", cd->path, tmp, strerror(errno));
	} else if (ok && renameat(cd->fd, tmp, cd->fd, name)) {
		err = -errno;
		snprintf(why, len, "cannot rename %s/%s to %s: %s", cd->path, tmp, name,
			 strerror(errno));
	}
	if (!ok || err)
		unlinkat(cd->fd, tmp, 0);
	return err;
}

void bp_cache_dir__close(struct bp_cache_dir *cd)
{
	if (cd->fd >= 0)
		close(cd->fd);
	cd->fd = -1;
}

static bool ends_with(const char *s, const char *end)
{
	size_t ls = strlen(s), le = strlen(end);

	return ls >= le && !strcmp(s + ls - le, end);
}

void bp_cache_dir__prune(const struct bp_cache_dir *cd, const char *suffix, long max_age)
{
	time_t now = time(NULL);
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd;

	fd = openat(cd->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		time_t age;

		if (!ends_with(de->d_name, suffix) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		age = now - st.st_mtime;
		if (!strncmp(de->d_name, TEMP_PREFIX, strlen(TEMP_PREFIX)) ?
		    age > STALE_TEMP_SECONDS : age > max_age)
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

int bp_cache_dir__open_user_sub(const char *name, struct bp_cache_dir *cd, char *why,
				size_t len)
{
	static const char prefix[] = "the cache directory cannot be trusted: ";
	/* what is wrong goes after the prefix, in why itself */
	size_t skip = len > sizeof(prefix) ? sizeof(prefix) - 1 : 0;
	size_t at;
	int top, err;

	err = bp_cache_dir__open_user(cd, why + skip, len - skip);
	if (!err) {
		/* the top directory's path becomes its subdirectory's */
		top = cd->fd;
		cd->fd = -1;
		at = strlen(cd->path);
		if (snprintf(cd->path + at, sizeof(cd->path) - at, "/%s", name) >=
		    (int)(sizeof(cd->path) - at)) {
			cd->path[at] = '\0';
			snprintf(why + skip, len - skip, "%s/%s: path too long", cd->path, name);
			err = -ENAMETOOLONG;
		} else {
			err = open_named(top, name, cd, why + skip, len - skip);
		}
		close(top);
	}
	if (err && skip)
		memcpy(why, prefix, skip);
	return err;
}

int bp_cache_dir__transfer(int fd, void *mem, uint64_t off, size_t size, bool out)
{
	size_t done = 0;

	while (done < size) {
		char *p = (char *)mem + off + done;
		ssize_t n = out ? pwrite(fd, p, size - done, off + done) :
				  pread(fd, p, size - done, off + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += n;
	}
	return 0;
}
