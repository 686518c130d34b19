// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Directories locked by their live owner (see dirlock.h). */
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/dirlock.h"

int bp_dirlock__create(const char *path, mode_t mode)
{
	struct stat locked, now;
	int fd;

	if (mkdir(path, mode))
		return -errno;
	fd = bp_dirlock__try(path);
	if (fd == -ENOENT || fd == -EWOULDBLOCK)
		return -EAGAIN;
	if (fd < 0)
		return fd;
	/*
	 * Between mkdir and flock the directory was unlocked: another
	 * process may have taken it for a dead owner's and removed it (a new
	 * one of the same name would be another inode). Still ours?
	 */
	if (fstat(fd, &locked) || stat(path, &now) || locked.st_ino != now.st_ino ||
	    locked.st_dev != now.st_dev) {
		close(fd);
		return -EAGAIN;
	}
	return fd;
}

int bp_dirlock__try(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno == EWOULDBLOCK ? -EWOULDBLOCK : -errno;

		close(fd);
		return err;
	}
	return fd;
}
