// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Opening only regular files, without blocking (regular_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "util/regular_file.h"

int bp_regular_file__open(const char *path, struct stat *st)
{
	int fd, err;

	/* O_NONBLOCK: the open of a FIFO returns at once; reads of a regular
	 * file are not changed by it */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

const char *bp_file_type__name(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFIFO:
		return "a FIFO";
	case S_IFDIR:
		return "a directory";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	default:
		return "not a regular file";
	}
}
