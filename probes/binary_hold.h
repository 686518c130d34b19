/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The binaries a resolution read, held open from resolution to attach
 * (binary_hold.c). An offset found in one file must never be put into
 * another: between the resolve and the attach the path may be renamed
 * over (a package upgrade, a rebuild) or the file rewritten in place.
 * So the resolver keeps each user-space binary it resolved open (the
 * descriptor it read, or for a resolution from the cache the one that
 * checked the cached identity), with that identity: device, inode, size,
 * modification and change times, GNU build ID. At attach the loader checks
 * that the file is unchanged and that its path still names it, refuses
 * with a message naming it otherwise, and attaches the uprobes through the
 * held descriptor (/proc/self/fd/N), so that even a swap between the check
 * and the attach cannot put the offsets into another file.
 */
#ifndef BPFPROBE_BINARY_HOLD_H
#define BPFPROBE_BINARY_HOLD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* A file as it was when read. */
struct bp_file_id {
	struct stat st;
	uint8_t build_id[64];
	int build_id_len;	/* <= 0: none known */
};

struct bp_held_binary {
	char *path;		/* as the points name it */
	int fd;
	struct bp_file_id id;
	char fd_path[32];	/* /proc/self/fd/N */
};

struct bp_binary_holds {
	struct bp_held_binary *v;
	int n;
	size_t cap;
};

/* The identity of the file open as fd (fstat, build ID). 0 or -errno. */
int bp_file_id__of_fd(int fd, struct bp_file_id *id);

/*
 * Holds path (a copy of fd, the caller keeps its own) with identity id,
 * unless path is held already. 0 or a negative errno.
 */
int bp_binary_holds__add(struct bp_binary_holds *h, const char *path, int fd,
			 const struct bp_file_id *id);

/* The binary held for path, or NULL. */
const struct bp_held_binary *bp_binary_holds__find(const struct bp_binary_holds *h,
						   const char *path);

/* Moves every hold of from into to (from is then empty). */
int bp_binary_holds__move(struct bp_binary_holds *to, struct bp_binary_holds *from);

/*
 * 0 when b's file is unchanged and its path still names it; -ESTALE with
 * why (what changed, for a message after "PATH ") otherwise.
 */
int bp_held_binary__check(const struct bp_held_binary *b, char *why, size_t len);

/* What to attach to for b: /proc/self/fd/N when that reaches the held
 * file (procfs mounted), else its path. */
const char *bp_held_binary__attach_path(const struct bp_held_binary *b);

void bp_binary_holds__free(struct bp_binary_holds *h);

#endif /* BPFPROBE_BINARY_HOLD_H */
