// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The function index's file: BUILDID.idx (PATH-HASH.idx for a binary
 * without a build ID) in the directory dwarf-index of the user's cache
 * directory (util/cache_dir.h: both trusted only when nobody but the
 * effective user can have written them). A file is used only when it is
 * valid (index.c checks it whole, as untrusted input) and was made for
 * this very binary: same build ID, and same identity (device, inode, size,
 * modification and change times) of the binary and of its debug file, so
 * a binary rebuilt, touched or replaced by another at the same path is
 * indexed again, never resolved from a stale index. Storing one removes
 * the indexes not rewritten for PRUNE_DAYS (builds long gone, mostly) and
 * the temporary files of runs killed while writing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>

#include "probes/binary/debuginfo.h"
#include "probes/binary/index.h"
#include "util/cache_dir.h"
#include "util/fnv.h"

#define INDEX_DIR	"dwarf-index"
/* no index of a real binary comes near this: a larger file is not ours */
#define MAX_INDEX_SIZE	(1ull << 31)
#define PRUNE_DAYS	30

void bp_index_file__id(const struct stat *st, struct bp_index_file_id *id)
{
	id->dev = st->st_dev;
	id->ino = st->st_ino;
	id->size = st->st_size;
	id->mtime_sec = st->st_mtim.tv_sec;
	id->mtime_nsec = st->st_mtim.tv_nsec;
	id->ctime_sec = st->st_ctim.tv_sec;
	id->ctime_nsec = st->st_ctim.tv_nsec;
}

int bp_index_file__reopen(const char *path, const struct bp_index_file_id *id)
{
	struct bp_index_file_id got;
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	bp_index_file__id(&st, &got);
	if (memcmp(&got, id, sizeof(got))) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

int bp_index_file__identify(const struct bp_debuginfo *di, struct bp_index_header *hdr,
			    char *name, size_t name_len, char *why, size_t len)
{
	const char *debugfile = NULL;
	const void *build_id = NULL;
	struct stat st;
	size_t pos;
	int n;

	if (!di->st_ok) {
		snprintf(why, len, "the binary changed while it was read");
		return -ESTALE;
	}
	bp_index_file__id(&di->st, &hdr->binary);
	n = dwelf_elf_gnu_build_id(di->elf, &build_id);
	if (n > BP_INDEX_BUILD_ID_MAX) {
		snprintf(why, len, "a build ID of %d bytes", n);
		return -EINVAL;
	}
	hdr->build_id_len = n > 0 ? n : 0;
	if (n > 0)
		memcpy(hdr->build_id, build_id, n);
	/* DWARF in another file (found by build ID or debuglink): its identity
	 * too, as it may change on its own */
	dwfl_module_info(di->mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	if (debugfile && strcmp(debugfile, di->path)) {
		if (stat(debugfile, &st)) {
			snprintf(why, len, "cannot stat its debug file %s: %s", debugfile,
				 strerror(errno));
			return -errno;
		}
		if (st.st_dev != di->st.st_dev || st.st_ino != di->st.st_ino) {
			hdr->has_debug_file = 1;
			bp_index_file__id(&st, &hdr->debug);
		}
	}
	if (!hdr->build_id_len) {
		snprintf(name, name_len, "path-%016" PRIx64 ".idx",
			 bp_fnv1a(BP_FNV1A_INIT, di->path, strlen(di->path)));
		return 0;
	}
	for (pos = 0, n = 0; n < (int)hdr->build_id_len && pos + 3 < name_len; n++)
		pos += snprintf(name + pos, name_len - pos, "%02x", hdr->build_id[n]);
	snprintf(name + pos, name_len - pos, ".idx");
	return 0;
}

/* The cache's index directory. */
static int open_dir(struct bp_cache_dir *dir, char *why, size_t len)
{
	return bp_cache_dir__open_user_sub(INDEX_DIR, dir, why, len);
}

static bool same_id(const struct bp_index_file_id *a, const struct bp_index_file_id *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Why the index hdr heads was made for another file than want's; NULL. */
static const char *stale(const struct bp_index_header *hdr, const struct bp_index_header *want)
{
	if (hdr->build_id_len != want->build_id_len ||
	    memcmp(hdr->build_id, want->build_id, want->build_id_len))
		return "it was made for another build (build ID)";
	if (!same_id(&hdr->binary, &want->binary))
		return "the binary changed since it was made (device, inode, size or times)";
	if (hdr->has_debug_file != want->has_debug_file ||
	    (want->has_debug_file && !same_id(&hdr->debug, &want->debug)))
		return "the debug file changed since it was made";
	return NULL;
}

/*
 * The header and the sums of the index open as fd into idx, checked: its
 * payload is read block by block as look-ups need it (index_format.c), into
 * memory mapped for the whole file whose untouched pages cost nothing.
 */
static int read_header(int fd, size_t size, struct bp_dwarf_index *idx, char *why, size_t len)
{
	const struct bp_index_header *h;
	int err;

	if (size < sizeof(*h)) {
		snprintf(why, len, "a file of %zu bytes (truncated?)", size);
		return -EINVAL;
	}
	idx->size = size;
	idx->mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (idx->mem == MAP_FAILED) {
		idx->mem = NULL;
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	idx->mapped = true;
	h = idx->mem;
	err = bp_cache_dir__transfer(fd, idx->mem, 0, sizeof(*h), false);
	/* the sums, up to the payload (bp_index__validate checks the rest) */
	if (!err && (h->payload_off < sizeof(*h) || h->payload_off > size)) {
		snprintf(why, len, "a malformed header (truncated?)");
		return -EINVAL;
	}
	if (!err)
		err = bp_cache_dir__transfer(fd, idx->mem, sizeof(*h),
					     h->payload_off - sizeof(*h), false);
	if (err) {
		snprintf(why, len, "cannot read it: %s", strerror(-err));
		return err;
	}
	err = bp_index__validate(idx, size, false, why, len);
	if (err)
		return err;
	idx->loaded = calloc(h->nblocks + 1, 1);
	if (!idx->loaded) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int bp_index_file__read(const struct bp_index_header *want, const char *name,
			struct bp_dwarf_index *idx, char *path, size_t path_len,
			char *why, size_t len)
{
	struct bp_cache_dir dir;
	const char *old;
	struct stat st;
	int fd, err;

	memset(idx, 0, sizeof(*idx));
	idx->fd = -1;
	snprintf(path, path_len, "%s", name);
	err = open_dir(&dir, why, len);
	if (err)
		return err;
	snprintf(path, path_len, "%s/%s", dir.path, name);
	fd = openat(dir.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		if (err != -ENOENT)
			snprintf(why, len, "%s", errno == ELOOP ? "a symbolic link" :
				 strerror(errno));
		goto out;
	}
	if (!bp_cache_dir__file_trusted(fd, name, &st, why, len)) {
		err = -EPERM;
		goto out;
	}
	if ((uint64_t)st.st_size > MAX_INDEX_SIZE) {
		snprintf(why, len, "a file of %lld bytes", (long long)st.st_size);
		err = -EINVAL;
		goto out;
	}
	err = read_header(fd, st.st_size, idx, why, len);
	if (!err && (old = stale(idx->hdr, want))) {
		snprintf(why, len, "%s", old);
		err = -ESTALE;
	}
	if (!err) {
		snprintf(idx->name, sizeof(idx->name), "%s", name);
		/* kept open: blocks are read from it as needed */
		idx->fd = fd;
		fd = -1;
	}
out:
	if (fd >= 0)
		close(fd);
	bp_cache_dir__close(&dir);
	if (err) {
		if (idx->mem)
			munmap(idx->mem, idx->size);
		free(idx->loaded);
		memset(idx, 0, sizeof(*idx));
		idx->fd = -1;
	}
	return err;
}

int bp_index_file__write(const struct bp_dwarf_index *idx, const char *name,
			 char *path, size_t path_len, char *why, size_t len)
{
	struct bp_cache_dir dir;
	char tmp[96];
	int fd, err;

	err = open_dir(&dir, why, len);
	if (err)
		return err;
	snprintf(path, path_len, "%s/%s", dir.path, name);
	fd = bp_cache_dir__create_temp(&dir, ".idx", tmp, sizeof(tmp), why, len);
	if (fd < 0) {
		bp_cache_dir__close(&dir);
		return fd;
	}
	err = bp_cache_dir__transfer(fd, idx->mem, 0, idx->size, true);
	if (err)
		snprintf(why, len, "cannot write %s/%s: %s", dir.path, tmp, strerror(-err));
	err = bp_cache_dir__commit(&dir, fd, tmp, name, !err, why, len) ?: err;
	if (!err)
		bp_cache_dir__prune(&dir, ".idx", PRUNE_DAYS * 86400L);
	bp_cache_dir__close(&dir);
	return err;
}

void bp_index_file__remove(const char *name)
{
	struct bp_cache_dir dir;
	char why[PATH_MAX + 128];

	if (!name[0] || open_dir(&dir, why, sizeof(why)))
		return;
	unlinkat(dir.fd, name, 0);
	bp_cache_dir__close(&dir);
}
