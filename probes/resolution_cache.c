// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The resolution cache's entries (see resolution_cache.h). An entry is one
 * file: a fixed header (format, this build's ID, the identities of the
 * binary and of its debug file, the body's size and sum) and a body (the
 * binary's path, the debug file's, the SEC text, BPFPROBE_DEBUGINFO_PATH,
 * the kernel's release, then the points as point_codec.h writes them). Its name is a hash of the
 * key; the key itself is in the body and compared whole, so two keys with
 * one name only replace each other.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <elf.h>
#include <elfutils/libdwelf.h>

#include "probes/binary/debuginfo.h"
#include "probes/binary/index.h"
#include "probes/point_codec.h"
#include "probes/resolution_cache.h"
#include "util/cache_dir.h"
#include "util/fnv.h"
#include "util/build_id.h"

#define CACHE_SUBDIR	"resolutions"
#define SUFFIX		".res"
#define MAGIC		"BPRESv02"
#define BYTE_ORDER_MARK	0x01020304u
/* no resolution comes near this: a larger file is not ours */
#define MAX_ENTRY_SIZE	(64u << 20)
#define PRUNE_DAYS	30

struct entry_header {
	char magic[8];
	uint32_t byte_order;
	uint32_t npoints;
	uint64_t checksum;	/* bp_index__block_sum of the body */
	uint64_t body_size;
	uint32_t self_id_len;	/* the build ID of the bpfprobe that made it */
	uint8_t self_id[BP_BUILD_ID_MAX];
	uint32_t has_debug_file;	/* the DWARF was in another file */
	struct bp_index_file_id binary, debug;
	uint32_t build_id_len;	/* the binary's; 0: it has none */
	uint8_t build_id[BP_INDEX_BUILD_ID_MAX];
};

/* What an entry is for, and the name of its file. */
struct entry_key {
	const char *binary, *spec_text;
	const char *debuginfo_path;	/* NULL: unset */
	/* the running kernel's release: what is said about a resolution
	 * may depend on it (features it lacks) */
	char release[65];
	const uint8_t *self_id;
	size_t self_id_len;
	char name[32];
};

static int make_key(struct entry_key *k, const char *binary, const char *spec_text,
		    char *why, size_t len)
{
	uint64_t h = BP_FNV1A_INIT;
	struct utsname u;

	k->self_id_len = bp_self__build_id(&k->self_id);
	if (!k->self_id_len) {
		snprintf(why, len, "this bpfprobe has no build ID to key them by");
		return -EOPNOTSUPP;
	}
	k->binary = binary;
	k->spec_text = spec_text;
	k->debuginfo_path = getenv("BPFPROBE_DEBUGINFO_PATH");
	if (uname(&u)) {
		int err = -errno;

		snprintf(why, len, "cannot know the kernel's release: %s", strerror(-err));
		return err;
	}
	snprintf(k->release, sizeof(k->release), "%s", u.release);
	/* each with its NUL: ("ab", "c") and ("a", "bc") differ */
	h = bp_fnv1a(h, binary, strlen(binary) + 1);
	h = bp_fnv1a(h, spec_text, strlen(spec_text) + 1);
	if (k->debuginfo_path)
		h = bp_fnv1a(h, k->debuginfo_path, strlen(k->debuginfo_path) + 1);
	h = bp_fnv1a(h, k->release, strlen(k->release) + 1);
	h = bp_fnv1a(h, k->self_id, k->self_id_len);
	snprintf(k->name, sizeof(k->name), "%016" PRIx64 SUFFIX, h);
	return 0;
}

static bool same_str(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/* path opened again when it is still the file id names (an fd), else -1
 * with why. */
static int still(const char *what, const char *path, const struct bp_index_file_id *id,
		 char *why, size_t len)
{
	int fd = bp_index_file__reopen(path, id);

	if (fd == -ESTALE)
		snprintf(why, len, "%s %s changed since it was made (device, inode, size or times)",
			 what, path);
	else if (fd < 0)
		snprintf(why, len, "cannot open %s %s: %s", what, path, strerror(-fd));
	return fd < 0 ? -1 : fd;
}

/* The entry's points, checked against k and the files as they are now. */
static int parse(const void *buf, size_t size, const struct entry_key *k,
		 struct bp_point **pts, int *n, int *binary_fd, char *why, size_t len)
{
	const struct entry_header *h = buf;
	struct bp_bytes_reader r = { .p = (const unsigned char *)buf + sizeof(*h) };
	char *binary = NULL, *debug = NULL, *text = NULL, *dpath = NULL, *release = NULL;
	uint8_t build_id[BP_INDEX_BUILD_ID_MAX];
	int err = -EINVAL, fd, bfd = -1, got;

	if (memcmp(h->magic, MAGIC, sizeof(h->magic)) || h->byte_order != BYTE_ORDER_MARK ||
	    h->build_id_len > BP_INDEX_BUILD_ID_MAX) {
		snprintf(why, len, "not an entry of this format");
		return -EINVAL;
	}
	if (h->self_id_len != k->self_id_len || memcmp(h->self_id, k->self_id, k->self_id_len)) {
		snprintf(why, len, "made by another build of bpfprobe");
		return -ESTALE;
	}
	r.size = size - sizeof(*h);
	if (h->body_size != r.size || bp_index__block_sum(r.p, r.size, 0) != h->checksum) {
		snprintf(why, len, "corrupt (its size or sum is wrong)");
		return -EINVAL;
	}
	if (!bp_bytes__get_str(&r, &binary) || !bp_bytes__get_str(&r, &debug) ||
	    !bp_bytes__get_str(&r, &text) || !bp_bytes__get_str(&r, &dpath) ||
	    !bp_bytes__get_str(&r, &release) || !binary || !text || !release ||
	    !h->has_debug_file != !debug) {
		snprintf(why, len, "malformed");
		goto out;
	}
	err = -ESTALE;
	if (!same_str(binary, k->binary) || !same_str(text, k->spec_text) ||
	    !same_str(dpath, k->debuginfo_path) || !same_str(release, k->release)) {
		snprintf(why, len, "made for another SEC text, binary, kernel release or BPFPROBE_DEBUGINFO_PATH");
		goto out;
	}
	bfd = still("the binary", binary, &h->binary, why, len);
	if (bfd < 0)
		goto out;
	got = bp_build_id__of_file(bfd, build_id, sizeof(build_id));
	if (debug) {
		fd = still("its debug file", debug, &h->debug, why, len);
		if (fd < 0)
			goto out;
		close(fd);
	}
	/* the same times and size, yet rewritten within one clock tick: the
	 * build ID tells (as for the DWARF index) */
	if (got != (int)h->build_id_len || memcmp(build_id, h->build_id, h->build_id_len)) {
		snprintf(why, len, "the binary %s is another build now (build ID)", binary);
		goto out;
	}
	if (h->npoints > INT32_MAX || bp_points__decode(&r, (int)h->npoints, pts) ||
	    r.off != r.size) {
		bp_points__free(*pts, *pts ? (int)h->npoints : 0);
		*pts = NULL;
		snprintf(why, len, "malformed (its points)");
		err = -EINVAL;
		goto out;
	}
	*n = (int)h->npoints;
	*binary_fd = bfd;
	bfd = -1;
	err = 0;
out:
	if (bfd >= 0)
		close(bfd);
	free(binary);
	free(debug);
	free(text);
	free(dpath);
	free(release);
	return err;
}

int bp_resolution_cache__read(const char *binary, const char *spec_text,
			      struct bp_point **pts, int *n, int *binary_fd,
			      char *path, size_t path_len, char *why, size_t len)
{
	struct bp_cache_dir dir;
	struct entry_key k;
	void *buf = NULL;
	struct stat st;
	int fd = -1, err;

	*pts = NULL;
	*n = 0;
	snprintf(path, path_len, "%s", "");
	err = make_key(&k, binary, spec_text, why, len);
	if (err)
		return err;
	err = bp_cache_dir__open_user_sub(CACHE_SUBDIR, &dir, why, len);
	if (err)
		return err;
	snprintf(path, path_len, "%s/%s", dir.path, k.name);
	fd = openat(dir.fd, k.name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		if (err != -ENOENT)
			snprintf(why, len, "%s", errno == ELOOP ? "a symbolic link" : strerror(errno));
		goto out;
	}
	if (!bp_cache_dir__file_trusted(fd, k.name, &st, why, len)) {
		err = -EPERM;
		goto out;
	}
	if (st.st_size < (off_t)sizeof(struct entry_header) || st.st_size > MAX_ENTRY_SIZE) {
		snprintf(why, len, "a file of %lld bytes", (long long)st.st_size);
		err = -EINVAL;
		goto out;
	}
	buf = malloc(st.st_size);
	err = buf ? bp_cache_dir__transfer(fd, buf, 0, st.st_size, false) : -ENOMEM;
	if (err)
		snprintf(why, len, "cannot read it: %s", strerror(-err));
	else
		err = parse(buf, st.st_size, &k, pts, n, binary_fd, why, len);
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	bp_cache_dir__close(&dir);
	return err;
}

/* Why di's points are not kept, or NULL. */
static const char *not_kept(const struct bp_debuginfo *di, const struct bp_point *pts, int n)
{
	const char *alt;
	const void *id;

	if (n < 1 || !bp_points__encodable(pts, n))
		return "they are not user-space probe points";
	if (!di->dwarf)
		return "they were resolved without DWARF";
	if (dwelf_dwarf_gnu_debugaltlink(di->dwarf, &alt, &id) > 0)
		return "its DWARF has a DWZ alternate file";
	return NULL;
}

static bool pruned;

int bp_resolution_cache__write(const struct bp_debuginfo *di, const char *spec_text,
			       const struct bp_point *pts, int n, char *path, size_t path_len,
			       char *why, size_t len)
{
	struct bp_index_header ih = {};
	struct entry_header h = {};
	struct bp_bytes b = {};
	struct bp_cache_dir dir;
	const char *debug = NULL, *no;
	struct entry_key k;
	char tmp[96], iname[128];
	int fd, err;

	snprintf(path, path_len, "%s", "");
	no = not_kept(di, pts, n);
	if (no) {
		snprintf(why, len, "%s", no);
		return -EOPNOTSUPP;
	}
	err = make_key(&k, di->path, spec_text, why, len) ?:
	      bp_index_file__identify(di, &ih, iname, sizeof(iname), why, len);
	if (err)
		return err;
	/* the DWARF in another file (identify has its identity): its path */
	if (ih.has_debug_file)
		dwfl_module_info(di->mod, NULL, NULL, NULL, NULL, NULL, NULL, &debug);
	if (debug && debug[0] != '/') {
		snprintf(why, len, "the path of its debug file is not absolute");
		return -EOPNOTSUPP;
	}
	memcpy(h.magic, MAGIC, sizeof(h.magic));
	h.byte_order = BYTE_ORDER_MARK;
	h.npoints = n;
	h.self_id_len = k.self_id_len;
	memcpy(h.self_id, k.self_id, k.self_id_len);
	h.has_debug_file = !!debug;
	h.binary = ih.binary;
	h.debug = ih.debug;
	h.build_id_len = ih.build_id_len;
	memcpy(h.build_id, ih.build_id, ih.build_id_len);
	err = bp_bytes__put(&b, &h, sizeof(h)) ?: bp_bytes__put_str(&b, k.binary) ?:
	      bp_bytes__put_str(&b, debug) ?: bp_bytes__put_str(&b, k.spec_text) ?:
	      bp_bytes__put_str(&b, k.debuginfo_path) ?: bp_bytes__put_str(&b, k.release) ?:
	      bp_points__encode(pts, n, &b);
	if (!err && b.len > MAX_ENTRY_SIZE)
		err = -E2BIG;
	if (err) {
		snprintf(why, len, "%s", err == -E2BIG ? "they would take more than 64 MiB" :
			 strerror(-err));
		bp_bytes__free(&b);
		return err;
	}
	h.body_size = b.len - sizeof(h);
	h.checksum = bp_index__block_sum(b.data + sizeof(h), h.body_size, 0);
	memcpy(b.data, &h, sizeof(h));

	err = bp_cache_dir__open_user_sub(CACHE_SUBDIR, &dir, why, len);
	if (err) {
		bp_bytes__free(&b);
		return err;
	}
	snprintf(path, path_len, "%s/%s", dir.path, k.name);
	fd = bp_cache_dir__create_temp(&dir, SUFFIX, tmp, sizeof(tmp), why, len);
	if (fd >= 0) {
		err = bp_cache_dir__transfer(fd, b.data, 0, b.len, true);
		if (err)
			snprintf(why, len, "cannot write %s/%s: %s", dir.path, tmp, strerror(-err));
		err = bp_cache_dir__commit(&dir, fd, tmp, k.name, !err, why, len) ?: err;
		/* once per process: an object's every SEC may keep one */
		if (!err && !__atomic_exchange_n(&pruned, true, __ATOMIC_RELAXED))
			bp_cache_dir__prune(&dir, SUFFIX, PRUNE_DAYS * 86400L);
	} else {
		err = fd;
	}
	bp_cache_dir__close(&dir);
	bp_bytes__free(&b);
	return err;
}
