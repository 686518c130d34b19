// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Another process's files as it sees them (proc_root.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "util/proc_root.h"

/* environ files are small; a huge one is not read whole */
#define ENVIRON_MAX	(1 << 20)

static void say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

static ino_t ns_inode(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

/*
 * A root named from the top of a namespace above ours (bpfprobe in a
 * chroot, the process in a mount namespace of its own: readlink gives
 * the host's path) may still be a directory of ours under a shorter
 * name, the same path without the components above our root: the first
 * of link's tails that is the very same directory names it in r->host.
 */
static void reach_by_suffix(struct bp_proc_root *r, const char *link)
{
	const char *tail = link;
	struct stat st;

	while ((tail = strchr(tail + 1, '/'))) {
		if (!stat(tail, &st) && bp_same_inode(&st, &r->st)) {
			snprintf(r->host, sizeof(r->host), "%s", tail);
			return;
		}
	}
}

int bp_proc_root__open(struct bp_proc_root *r, pid_t pid, char *why, size_t len)
{
	char link[PATH_MAX], path[64];
	struct stat st, self;
	ssize_t n;
	int err;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->pid = pid;
	if (pid <= 0) {
		say(why, len, "bad pid %d", (int)pid);
		return -EINVAL;
	}
	snprintf(r->dir, sizeof(r->dir), "/proc/%d/root", (int)pid);
	r->fd = open(r->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (r->fd < 0) {
		err = -errno;
		snprintf(path, sizeof(path), "/proc/%d", (int)pid);
		if (err == -ENOENT && stat(path, &st)) {
			say(why, len, "process %d: no such process", (int)pid);
			return -ESRCH;
		}
		if (err == -ENOENT) {
			say(why, len, "process %d has exited: it has no root any more (%s)", (int)pid,
			    r->dir);
			return -ESRCH;
		}
		if (err == -EACCES || err == -EPERM) {
			say(why, len, "cannot read the root of process %d (%s): %s: looking at another process's files takes the right to trace it (the same user, or CAP_SYS_PTRACE)",
			    (int)pid, r->dir, strerror(-err));
			return -EACCES;
		}
		say(why, len, "cannot open the root of process %d (%s): %s", (int)pid, r->dir,
		    strerror(-err));
		return err;
	}
	if (fstat(r->fd, &r->st)) {
		err = -errno;
		say(why, len, "cannot read the root of process %d (%s): %s", (int)pid, r->dir,
		    strerror(-err));
		bp_proc_root__close(r);
		return err;
	}
	n = readlink(r->dir, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		snprintf(r->named, sizeof(r->named), "%s", link);
		if (link[0] == '/' && !stat(link, &st) && bp_same_inode(&st, &r->st))
			snprintf(r->host, sizeof(r->host), "%s", link);
		else
			reach_by_suffix(r, link);
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	r->mnt_ns = ns_inode(path);
	r->ours = !stat("/", &self) && bp_same_inode(&self, &r->st) && r->mnt_ns &&
		  r->mnt_ns == ns_inode("/proc/self/ns/mnt");
	return 0;
}

void bp_proc_root__close(struct bp_proc_root *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

bool bp_proc_root__alive(const struct bp_proc_root *r)
{
	struct stat st;

	return !stat(r->dir, &st);
}

const char *bp_proc_root__describe(const struct bp_proc_root *r, char *buf, size_t len)
{
	if (r->host[0])
		snprintf(buf, len, "the root of process %d (%s, %s on the host)", (int)r->pid,
			 r->dir, r->host);
	else
		snprintf(buf, len, "the root of process %d (%s)", (int)r->pid, r->dir);
	return buf;
}

int bp_proc_root__open_file(const struct bp_proc_root *r, const char *path, int flags)
{
	struct open_how how = {
		.flags = (unsigned int)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	if (!path || !*path)
		return -ENOENT;
	fd = syscall(SYS_openat2, r->fd, path, &how, sizeof(how));
	if (fd >= 0)
		return fd;
	if (errno != ENOSYS)
		return -errno;
	/* before Linux 5.6: an absolute symlink inside would leave the root */
	while (*path == '/')
		path++;
	fd = openat(r->fd, *path ? path : ".", flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int bp_proc_root__stat(const struct bp_proc_root *r, const char *path, struct stat *st)
{
	int fd = bp_proc_root__open_file(r, path, O_PATH), err = 0;

	if (fd < 0)
		return fd;
	if (fstat(fd, st))
		err = -errno;
	close(fd);
	return err;
}

/* A link's text (d_path's) with prefix, a directory, taken off: the path
 * below it, or NULL. */
static const char *strip_prefix(const char *prefix, const char *link)
{
	size_t n = strlen(prefix);

	if (!prefix[0] || link[0] != '/')
		return NULL;
	if (!strcmp(prefix, "/"))
		return link;
	if (strncmp(link, prefix, n))
		return NULL;
	if (link[n] == '/')
		return link + n;
	return link[n] ? NULL : "/";
}

/* A path of ours (d_path's, as readlink shows it) seen inside the root:
 * what follows the root's own path, or NULL. */
static const char *strip_root(const struct bp_proc_root *r, const char *link)
{
	return strip_prefix(r->host, link);
}

/*
 * The same for a link that names its file from the top of a namespace
 * ours does not see (a root of another mount namespace), as the root's
 * own link does (a root of another mount namespace: from that
 * namespace's top, then link is the path inside; bpfprobe in a chroot,
 * the process in a mount namespace of its own: from the host's, and the
 * root's name comes off). st: the file, which the path found inside
 * must be. NULL when it cannot be told.
 */
static const char *strip_unreached(const struct bp_proc_root *r, const char *link,
				   const struct stat *st)
{
	const char *in[2] = { strip_prefix(r->named, link), link };
	struct stat other;

	if (link[0] != '/')
		return NULL;
	/* a link taken as it is only for a root no path of ours reaches */
	for (int i = 0; i < (r->host[0] ? 1 : 2); i++)
		if (in[i] && (!st || (!bp_proc_root__stat(r, in[i], &other) &&
				      bp_same_inode(st, &other))))
			return in[i];
	return NULL;
}

int bp_proc_root__paths(const struct bp_proc_root *r, int fd, char **inside, char **host)
{
	char self[64], link[PATH_MAX], via[PATH_MAX + 64];
	const char *in = NULL;
	struct stat st, other;
	ssize_t n;

	*inside = *host = NULL;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	n = readlink(self, link, sizeof(link) - 1);
	if (n <= 0 || fstat(fd, &st))
		return -EXDEV;
	link[n] = '\0';
	if (link[0] == '/' && !stat(link, &other) && bp_same_inode(&st, &other) &&
	    !(*host = strdup(link)))
		return -ENOMEM;
	in = strip_root(r, link);
	if (!in)
		in = strip_unreached(r, link, &st);
	if (in && !(*inside = strdup(in)))
		goto nomem;
	if (!*host && in && r->host[0]) {
		snprintf(via, sizeof(via), "%s%s", strcmp(r->host, "/") ? r->host : "", in);
		if (!stat(via, &other) && bp_same_inode(&st, &other) && !(*host = strdup(via)))
			goto nomem;
	}
	if (!*host && in) {
		snprintf(via, sizeof(via), "%s%s", r->dir, in);
		if (!stat(via, &other) && bp_same_inode(&st, &other) && !(*host = strdup(via)))
			goto nomem;
	}
	if (!*host) {
		free(*inside);
		*inside = NULL;
		return -EXDEV;
	}
	return 0;
nomem:
	free(*inside);
	free(*host);
	*inside = *host = NULL;
	return -ENOMEM;
}

char *bp_proc_root__realpath(const struct bp_proc_root *r, const char *path)
{
	char self[64], link[PATH_MAX];
	const char *in = NULL;
	struct stat st;
	ssize_t n;
	int fd;

	fd = bp_proc_root__open_file(r, path, O_PATH);
	if (fd < 0)
		return NULL;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	n = readlink(self, link, sizeof(link) - 1);
	if (n > 0 && !fstat(fd, &st)) {
		link[n] = '\0';
		in = strip_root(r, link);
		if (!in)
			in = strip_unreached(r, link, &st);
	}
	close(fd);
	return in ? strdup(in) : NULL;
}

char *bp_proc__getenv(pid_t pid, const char *name)
{
	size_t nlen = strlen(name), len = 0, cap = 0;
	char path[64], *buf = NULL, *val = NULL;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		if (len + 4096 > cap) {
			char *more;

			if (cap >= ENVIRON_MAX)
				break;
			cap = cap ? 2 * cap : 16384;
			more = realloc(buf, cap + 1);
			if (!more)
				break;
			buf = more;
		}
		n = read(fd, buf + len, cap - len);
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	for (size_t off = 0; buf && off < len; off += strnlen(buf + off, len - off) + 1) {
		if (len - off > nlen && !strncmp(buf + off, name, nlen) && buf[off + nlen] == '=') {
			buf[len] = '\0';
			val = strdup(buf + off + nlen + 1);
			break;
		}
	}
	free(buf);
	return val;
}

char *bp_proc_root__cwd(const struct bp_proc_root *r)
{
	char path[64], link[PATH_MAX];
	const char *in;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)r->pid);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return NULL;
	link[n] = '\0';
	in = strip_root(r, link);
	if (!in)
		in = strip_unreached(r, link, NULL);
	return in ? strdup(*in ? in : "/") : NULL;
}
