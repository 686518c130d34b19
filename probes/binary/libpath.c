// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Finding the file an exec= names: a path as is, a program in PATH like
 * execvp, and a shared library by bare name (exec=libc.so.6) the way the
 * dynamic loader does for a program without RPATH/RUNPATH:
 *   1. LD_LIBRARY_PATH (of bpfprobe's environment, which a workload
 *      started with -- CMD inherits);
 *   2. /etc/ld.so.cache, written by ldconfig;
 *   3. the system directories (Debian's multiarch ones, then /lib, /usr/lib).
 * Like ld.so, a file of another ELF class or machine (a 32-bit library in
 * a LD_LIBRARY_PATH directory) is passed over. Not modelled: glibc-hwcaps
 * subdirectories (the cache's hwcap entries are used only when there is
 * no plain one) and a process's own RPATH/RUNPATH.
 *
 * In another process's root (util/proc_root.h: a chroot, a container) the
 * same lookups happen as that process would make them: its files, its
 * root's /etc/ld.so.cache and library directories, its own PATH and
 * LD_LIBRARY_PATH (from /proc/PID/environ), its current directory.
 */
#define _GNU_SOURCE		/* asprintf */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probes/binary/libpath.h"
#include "util/proc_root.h"

#define CACHE_MAGIC_OLD		"ld.so-1.7.0"
#define CACHE_MAGIC_NEW		"glibc-ld.so.cache"
#define CACHE_VERSION_NEW	"1.1"
/* flags & FLAG_TYPE_MASK of an entry for a glibc ELF library */
#define FLAG_TYPE_MASK		0x00ff
#define FLAG_ELF_LIBC6		0x0003

/* The layouts of glibc's sysdeps/generic/dl-cache.h. */
struct cache_old {
	char magic[sizeof(CACHE_MAGIC_OLD) - 1];
	uint32_t nlibs;
};

struct entry_old {
	int32_t flags;
	uint32_t key, value;
};

struct cache_new {
	char magic[sizeof(CACHE_MAGIC_NEW) - 1];
	char version[sizeof(CACHE_VERSION_NEW) - 1];
	uint32_t nlibs;
	uint32_t len_strings;
	uint8_t flags;
	uint8_t pad[3];
	uint32_t extension_offset;
	uint32_t unused[3];
};

struct entry_new {
	int32_t flags;
	uint32_t key, value;	/* string offsets from the cache_new header */
	uint32_t osversion;
	uint64_t hwcap;
};

#ifndef __BYTE_ORDER__
#error "need __BYTE_ORDER__"
#endif

static const char *const default_dirs[] = {
#if defined(__x86_64__)
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
#elif defined(__aarch64__)
	"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
#endif
	"/lib", "/usr/lib", NULL,
};

/* The file operations, in root (NULL: ours). */
static int fs_stat(const struct bp_proc_root *root, const char *path, struct stat *st)
{
	if (root)
		return bp_proc_root__stat(root, path, st);
	return stat(path, st) ? -errno : 0;
}

static int fs_open(const struct bp_proc_root *root, const char *path)
{
	int fd;

	/* never blocking: a FIFO a name leads to */
	if (root)
		return bp_proc_root__open_file(root, path, O_RDONLY | O_NONBLOCK);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static char *fs_realpath(const struct bp_proc_root *root, const char *path)
{
	return root ? bp_proc_root__realpath(root, path) : realpath(path, NULL);
}

/* Whether path is an ELF shared object or executable of our own class and
 * machine, like the ones ld.so would map into a process of ours. */
static bool is_native_elf(const struct bp_proc_root *root, const char *path)
{
	unsigned char ident[EI_NIDENT];
	Elf64_Half machine;
	struct stat st;
	bool ok = false;
	int fd;

	if (fs_stat(root, path, &st) || !S_ISREG(st.st_mode))
		return false;
	fd = fs_open(root, path);
	if (fd < 0)
		return false;
	/* e_machine sits at the same offset in both classes */
	if (pread(fd, ident, sizeof(ident), 0) == sizeof(ident) &&
	    !memcmp(ident, ELFMAG, SELFMAG) &&
	    pread(fd, &machine, sizeof(machine), EI_NIDENT + 2) == sizeof(machine)) {
#if defined(__LP64__)
		ok = ident[EI_CLASS] == ELFCLASS64;
#else
		ok = ident[EI_CLASS] == ELFCLASS32;
#endif
#if defined(__x86_64__)
		ok = ok && machine == EM_X86_64;
#elif defined(__aarch64__)
		ok = ok && machine == EM_AARCH64;
#endif
	}
	close(fd);
	return ok;
}

static char *try_dir(const struct bp_proc_root *root, const char *dir, size_t dirlen,
		     const char *name)
{
	char buf[PATH_MAX];

	if (!dirlen) {	/* an empty LD_LIBRARY_PATH entry: the cwd, like ld.so */
		dir = ".";
		dirlen = 1;
	}
	if (dirlen + 1 + strlen(name) + 1 > sizeof(buf))
		return NULL;
	memcpy(buf, dir, dirlen);
	buf[dirlen] = '/';
	strcpy(buf + dirlen + 1, name);
	return is_native_elf(root, buf) ? fs_realpath(root, buf) : NULL;
}

/* Directories separated by ':' or ';' (ld.so takes both). */
static char *search_list(const struct bp_proc_root *root, const char *list, const char *name)
{
	const char *p = list, *end;
	char *found;

	if (!list)
		return NULL;
	for (;;) {
		end = p + strcspn(p, ":;");
		found = try_dir(root, p, end - p, name);
		if (found || !*end)
			return found;
		p = end + 1;
	}
}

/* A NUL-terminated string at off of a cache of size len, or NULL. */
static const char *cache_str(const char *base, size_t len, uint32_t off)
{
	if (off >= len || !memchr(base + off, '\0', len - off))
		return NULL;
	return base + off;
}

/*
 * The libraries the new-format part (at hdr, len bytes to the file's end)
 * names name: a plain one first, one in a glibc-hwcaps directory else.
 */
static char *search_new(const struct bp_proc_root *root, const char *hdr, size_t len,
			const char *name)
{
	const struct cache_new *c = (const void *)hdr;
	const struct entry_new *e = (const void *)(c + 1);
	char *found = NULL, *hw = NULL;
	const char *key, *value;
	uint32_t i;

	if (len < sizeof(*c) || memcmp(c->magic, CACHE_MAGIC_NEW, sizeof(c->magic)) ||
	    memcmp(c->version, CACHE_VERSION_NEW, sizeof(c->version)))
		return NULL;
	if (c->nlibs > (len - sizeof(*c)) / sizeof(*e))
		return NULL;
	for (i = 0; i < c->nlibs && !found; i++) {
		if ((e[i].flags & FLAG_TYPE_MASK) != FLAG_ELF_LIBC6)
			continue;
		key = cache_str(hdr, len, e[i].key);
		value = cache_str(hdr, len, e[i].value);
		if (!key || !value || strcmp(key, name) || !is_native_elf(root, value))
			continue;
		if (!e[i].hwcap)
			found = fs_realpath(root, value);
		else if (!hw)
			hw = fs_realpath(root, value);
	}
	if (found) {
		free(hw);
		return found;
	}
	return hw;
}

/* The old format stands alone (no longer written) or is followed by the
 * new one, 8-byte aligned. */
static char *search_cache(const struct bp_proc_root *root, const char *map, size_t len,
			  const char *name)
{
	const struct cache_old *old = (const void *)map;
	size_t off;

	if (len >= sizeof(*old) && !memcmp(old->magic, CACHE_MAGIC_OLD, sizeof(old->magic))) {
		if (old->nlibs > (len - sizeof(*old)) / sizeof(struct entry_old))
			return NULL;
		off = sizeof(*old) + old->nlibs * sizeof(struct entry_old);
		off = (off + 7) & ~(size_t)7;
		if (off >= len)
			return NULL;
		return search_new(root, map + off, len - off, name);
	}
	return search_new(root, map, len, name);
}

static char *search_cache_file(const struct bp_proc_root *root, const char *path,
			       const char *name)
{
	struct stat st;
	char *found = NULL;
	void *map;
	int fd;

	fd = fs_open(root, path);
	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			found = search_cache(root, map, st.st_size, name);
			munmap(map, st.st_size);
		}
	}
	close(fd);
	return found;
}

char *bp_libpath__find(const char *name, const struct bp_libpath_opts *opts)
{
	const char *const *dirs = default_dirs;
	const char *cache = BP_LD_SO_CACHE;
	const struct bp_proc_root *root = NULL;
	const char *llp = getenv("LD_LIBRARY_PATH");
	char *found, *own = NULL;

	if (!name || !*name || strchr(name, '/'))
		return NULL;
	if (opts) {
		if (opts->sz < sizeof(*opts)) {
			errno = EINVAL;
			return NULL;
		}
		root = opts->root;
		/* the process's own environment, not ours */
		if (root)
			llp = own = bp_proc__getenv(root->pid, "LD_LIBRARY_PATH");
		if (opts->use_opts) {
			llp = opts->ld_library_path;
			cache = opts->cache;
			dirs = opts->dirs;
		}
	}
	found = search_list(root, llp, name);
	if (!found && cache)
		found = search_cache_file(root, cache, name);
	for (; !found && dirs && *dirs; dirs++)
		found = try_dir(root, *dirs, strlen(*dirs), name);
	free(own);
	return found;
}

bool bp_libpath__is_lib_name(const char *name)
{
	const char *so = name ? strstr(name, ".so") : NULL;

	/* NAME.so or NAME.so.1.2.3 */
	while (so) {
		const char *p = so + 3;

		while (*p == '.' && p[1] >= '0' && p[1] <= '9') {
			p++;
			while (*p >= '0' && *p <= '9')
				p++;
		}
		if (!*p)
			return true;
		so = strstr(so + 1, ".so");
	}
	return false;
}

static bool is_regular_file(const struct bp_proc_root *root, const char *path, bool need_exec)
{
	struct stat st;

	if (fs_stat(root, path, &st) || !S_ISREG(st.st_mode))
		return false;
	if (!need_exec)
		return true;
	/* in another root, by its mode bits: access() would ask of ours */
	return root ? (st.st_mode & 0111) != 0 : !access(path, X_OK);
}

/* Like execvp: every PATH entry (an empty one is the current directory). */
static char *find_in_path(const struct bp_proc_root *root, const char *path, const char *name)
{
	const char *p, *end;
	char buf[PATH_MAX];
	size_t dirlen;

	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = end + 1) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		dirlen = end - p;
		if (dirlen + 1 + strlen(name) + 1 <= sizeof(buf)) {
			if (dirlen) {
				memcpy(buf, p, dirlen);
				buf[dirlen] = '/';
				strcpy(buf + dirlen + 1, name);
			} else {
				strcpy(buf, name);
			}
			if (is_regular_file(root, buf, true))
				return fs_realpath(root, buf);
		}
		if (!*end)
			return NULL;
	}
}

/* A bare name: a library name like the dynamic loader, then in PATH; any
 * other name in PATH, then as a library. */
static char *find_bare(const struct bp_proc_root *root, const char *path, const char *name)
{
	struct bp_libpath_opts o = { .sz = sizeof(o), .root = root };
	char *found;

	if (bp_libpath__is_lib_name(name)) {
		found = bp_libpath__find(name, &o);
		return found ? found : find_in_path(root, path, name);
	}
	found = find_in_path(root, path, name);
	return found ? found : bp_libpath__find(name, &o);
}

/*
 * A name with a '/' is a path (it need not be executable: shared libraries
 * are probed too). A bare name is looked up like the system would: a
 * library name (NAME.so, NAME.so.N) like the dynamic loader does
 * (libpath.c), then in PATH; any other name in PATH, then as a library.
 */
char *bp_find_binary(const char *name)
{
	if (!name || !*name)
		return NULL;
	if (strchr(name, '/'))
		return is_regular_file(NULL, name, false) ? realpath(name, NULL) : NULL;
	return find_bare(NULL, getenv("PATH"), name);
}

/* A relative path with a '/', from the process's current directory. */
static char *from_cwd(const struct bp_proc_root *root, const char *name)
{
	char *cwd = bp_proc_root__cwd(root), *path = NULL;

	if (cwd && asprintf(&path, "%s/%s", cwd, name) < 0)
		path = NULL;
	free(cwd);
	return path;
}

int bp_find_binary_in(const struct bp_proc_root *root, const char *name, char **inside,
		      char **host)
{
	char *found = NULL, *rel = NULL, *env;
	int fd, err;

	*inside = *host = NULL;
	if (!name || !*name)
		return -ENOENT;
	if (name[0] == '/') {
		if (is_regular_file(root, name, false))
			found = bp_proc_root__realpath(root, name);
	} else if (strchr(name, '/')) {
		rel = from_cwd(root, name);
		if (rel && is_regular_file(root, rel, false))
			found = bp_proc_root__realpath(root, rel);
		free(rel);
	} else {
		env = bp_proc__getenv(root->pid, "PATH");
		found = find_bare(root, env, name);
		free(env);
	}
	if (!found)
		return -ENOENT;
	fd = bp_proc_root__open_file(root, found, O_RDONLY);
	free(found);
	if (fd < 0)
		return fd;
	err = bp_proc_root__paths(root, fd, inside, host);
	close(fd);
	return err;
}
