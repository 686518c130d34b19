// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Binaries held open from resolution to attach (binary_hold.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/binary_hold.h"
#include "util/build_id.h"
#include "util/grow.h"

int bp_file_id__of_fd(int fd, struct bp_file_id *id)
{
	memset(id, 0, sizeof(*id));
	if (fstat(fd, &id->st))
		return -errno;
	id->build_id_len = bp_build_id__of_file(fd, id->build_id, sizeof(id->build_id));
	return 0;
}

const struct bp_held_binary *bp_binary_holds__find(const struct bp_binary_holds *h,
						   const char *path)
{
	for (int i = 0; i < h->n; i++) {
		if (!strcmp(h->v[i].path, path))
			return &h->v[i];
	}
	return NULL;
}

int bp_binary_holds__add(struct bp_binary_holds *h, const char *path, int fd,
			 const struct bp_file_id *id)
{
	struct bp_held_binary *b;

	if (bp_binary_holds__find(h, path))
		return 0;
	if (bp_grow((void **)&h->v, h->n, &h->cap, sizeof(*h->v), 4))
		return -ENOMEM;
	b = &h->v[h->n];
	memset(b, 0, sizeof(*b));
	b->path = strdup(path);
	if (!b->path)
		return -ENOMEM;
	b->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (b->fd < 0) {
		free(b->path);
		return -errno;
	}
	b->id = *id;
	snprintf(b->fd_path, sizeof(b->fd_path), "/proc/self/fd/%d", b->fd);
	h->n++;
	return 0;
}

int bp_binary_holds__move(struct bp_binary_holds *to, struct bp_binary_holds *from)
{
	for (int i = 0; i < from->n; i++) {
		struct bp_held_binary *b = &from->v[i];

		if (bp_binary_holds__find(to, b->path))
			continue;
		if (bp_grow((void **)&to->v, to->n, &to->cap, sizeof(*to->v), 4))
			return -ENOMEM;
		to->v[to->n++] = *b;
		b->fd = -1;
		b->path = NULL;
	}
	bp_binary_holds__free(from);
	return 0;
}

static bool same_time(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

int bp_held_binary__check(const struct bp_held_binary *b, char *why, size_t len)
{
	const struct stat *was = &b->id.st;
	struct bp_file_id now;
	struct stat named;

	if (stat(b->path, &named)) {
		snprintf(why, len, "is gone (%s) since it was resolved", strerror(errno));
		return -ESTALE;
	}
	if (named.st_dev != was->st_dev || named.st_ino != was->st_ino) {
		snprintf(why, len, "is another file since it was resolved (inode %" PRIu64 " then, %" PRIu64 " now: renamed over or replaced)",
			 (uint64_t)was->st_ino, (uint64_t)named.st_ino);
		return -ESTALE;
	}
	if (bp_file_id__of_fd(b->fd, &now)) {
		snprintf(why, len, "cannot be looked at again: %s", strerror(errno));
		return -ESTALE;
	}
	if (now.st.st_size != was->st_size) {
		snprintf(why, len, "changed since it was resolved (its size was %" PRIu64 " bytes, is %" PRIu64 ")",
			 (uint64_t)was->st_size, (uint64_t)now.st.st_size);
		return -ESTALE;
	}
	if (!same_time(&now.st.st_mtim, &was->st_mtim) ||
	    !same_time(&now.st.st_ctim, &was->st_ctim)) {
		snprintf(why, len, "changed since it was resolved (its modification or change time)");
		return -ESTALE;
	}
	if (now.build_id_len != b->id.build_id_len ||
	    (now.build_id_len > 0 && memcmp(now.build_id, b->id.build_id, now.build_id_len))) {
		snprintf(why, len, "changed since it was resolved (its build ID)");
		return -ESTALE;
	}
	return 0;
}

const char *bp_held_binary__attach_path(const struct bp_held_binary *b)
{
	struct stat st;

	/* the magic link reaches the very file held, whatever its path is now */
	if (!stat(b->fd_path, &st) && st.st_dev == b->id.st.st_dev && st.st_ino == b->id.st.st_ino)
		return b->fd_path;
	return b->path;
}

void bp_binary_holds__free(struct bp_binary_holds *h)
{
	for (int i = 0; i < h->n; i++) {
		if (h->v[i].fd >= 0)
			close(h->v[i].fd);
		free(h->v[i].path);
	}
	free(h->v);
	memset(h, 0, sizeof(*h));
}
