// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The cache key is a hash of clang's preprocessed output (so an edited
 * header invalidates an entry as surely as an edited source), the flags,
 * and the compiler's identity: the path it resolves to, that file's inode
 * and times, and what `clang --version` prints. Preprocessing costs a
 * fraction of a full compile; `--version` runs beside it.
 *
 * clang writes to descriptors bpfprobe opened (its stdout): the
 * preprocessed text and the object into pipes. bpfprobe writes the
 * object into a file created with O_EXCL|O_NOFOLLOW in the cache
 * directory and renamed into place, so a half-written object is never
 * cached and no path is followed; when the cache cannot take it (a full or
 * read-only file system), elsewhere (compile_cache.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/compile_cache.h"
#include "cli/compile_c.h"
#include "util/fnv.h"
#include "util/log.h"

#ifndef BP_CLANG
#define BP_CLANG "clang"
#endif

/* Where the distribution keeps asm/ headers (Debian's multiarch tuple) and
 * libbpf's __TARGET_ARCH_ name, for the machine bpfprobe is built for. */
#if defined(__x86_64__) && defined(__ILP32__)
#define MULTIARCH "x86_64-linux-gnux32"
#define TARGET_ARCH "x86"
#elif defined(__x86_64__)
#define MULTIARCH "x86_64-linux-gnu"
#define TARGET_ARCH "x86"
#elif defined(__i386__)
#define MULTIARCH "i386-linux-gnu"
#define TARGET_ARCH "x86"
#elif defined(__aarch64__)
#define MULTIARCH "aarch64-linux-gnu"
#define TARGET_ARCH "arm64"
#elif defined(__arm__) && defined(__ARM_PCS_VFP)
#define MULTIARCH "arm-linux-gnueabihf"
#define TARGET_ARCH "arm"
#elif defined(__arm__)
#define MULTIARCH "arm-linux-gnueabi"
#define TARGET_ARCH "arm"
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MULTIARCH "powerpc64le-linux-gnu"
#define TARGET_ARCH "powerpc"
#elif defined(__s390x__)
#define MULTIARCH "s390x-linux-gnu"
#define TARGET_ARCH "s390"
#elif defined(__riscv) && __riscv_xlen == 64
#define MULTIARCH "riscv64-linux-gnu"
#define TARGET_ARCH "riscv"
#elif defined(__loongarch64)
#define MULTIARCH "loongarch64-linux-gnu"
#define TARGET_ARCH "loongarch"
#else
#define MULTIARCH NULL
#define TARGET_ARCH NULL
#endif

bool bp_is_c_source(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && !strcmp(path + n - 2, ".c");
}

/* A word of extra that would change what clang outputs, or where. */
static const char *refused_word(const char *const *extra)
{
	static const char *const bad[] = { "-o", "-c", "-E", "-S", "-M", "-MM",
					   "-fsyntax-only", "-" };

	for (; extra && *extra; extra++) {
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			if (!strcmp(*extra, bad[i]))
				return *extra;
		/* -oFILE; clang's -objcmt-* options are not ours to refuse */
		if (!strncmp(*extra, "-o", 2) && strncmp(*extra, "-obj", 4))
			return *extra;
	}
	return NULL;
}

/* The compiler and what tells one build of it from another. */
struct compiler {
	char path[PATH_MAX];	/* what is run: BP_CLANG as found in PATH */
	char real[PATH_MAX];	/* the file it resolves to */
	struct stat st;
};

static int find_compiler(struct compiler *cc)
{
	const char *name = BP_CLANG, *path = getenv("PATH");

	if (strchr(name, '/')) {
		snprintf(cc->path, sizeof(cc->path), "%s", name);
	} else {
		const char *p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";

		cc->path[0] = '\0';
		while (*p) {
			size_t n = strcspn(p, ":");
			struct stat st;

			snprintf(cc->path, sizeof(cc->path), "%.*s%s%s", (int)n, p, n ? "/" : "",
				 name);
			if (!stat(cc->path, &st) && S_ISREG(st.st_mode) && !access(cc->path, X_OK))
				break;
			cc->path[0] = '\0';
			p += n + (p[n] == ':');
		}
		if (!cc->path[0]) {
			bp_err("cannot find %s in PATH (install clang)\n", name);
			return -ENOENT;
		}
	}
	if (!realpath(cc->path, cc->real) || stat(cc->real, &cc->st)) {
		bp_err("cannot run %s: %s (install clang)\n", cc->path, strerror(errno));
		return -errno;
	}
	return 0;
}

/* Starts argv with stdout on out_fd, close_fd closed. Returns the pid or -errno. */
static pid_t spawn(const struct compiler *cc, const char *const argv[], int out_fd,
		   int close_fd)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (close_fd >= 0)
			close(close_fd);
		if (out_fd >= 0 && out_fd != STDOUT_FILENO &&
		    dup2(out_fd, STDOUT_FILENO) < 0)
			_exit(126);
		execv(cc->path, (char *const *)argv);
		fprintf(stderr, "bpfprobe: cannot run %s: %s (install clang)\n", cc->path,
			strerror(errno));
		_exit(127);
	}
	return pid;
}

/* 0 when pid exited with 0, else non-zero. */
static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* A child whose stdout we read. */
struct piped {
	pid_t pid;
	int fd;
};

static int start_piped(const struct compiler *cc, const char *const argv[], struct piped *c)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	c->pid = spawn(cc, argv, fds[1], fds[0]);
	close(fds[1]);
	c->fd = fds[0];
	if (c->pid < 0) {
		close(c->fd);
		return c->pid;
	}
	return 0;
}

/* Hashes the child's stdout into *h and reaps it. Returns what reap() does. */
static int finish_hashed(struct piped *c, uint64_t *h)
{
	char buf[65536];
	ssize_t n;
	int rc;

	while ((n = read(c->fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		*h = bp_fnv1a(*h, buf, n);
	}
	close(c->fd);
	rc = reap(c->pid);
	return n < 0 ? -EIO : rc;
}

/*
 * The directory of bpfprobe's own headers (<bpfprobe/bpf.h>): include/
 * beside the directory of the running binary, which is the build tree's
 * (build/bpfprobe) and an installation's (PREFIX/sbin/bpfprobe) alike.
 * False when it is not there.
 */
static bool own_include_dir(char *buf, size_t len)
{
	char exe[PATH_MAX], *slash;
	struct stat st;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	if (snprintf(buf, len, "%s/../include/bpfprobe/bpf.h", exe) >= (int)len ||
	    stat(buf, &st) || !S_ISREG(st.st_mode))
		return false;
	buf[strlen(buf) - strlen("/bpfprobe/bpf.h")] = '\0';
	return true;
}

/* The whole command line but the part that says what to output:
 * argv[0], the defaults, extra. Returns the count, argv NULL-terminated. */
static int base_argv(const char **argv, const struct compiler *cc, const char *src,
		     const char *const *extra, char *srcdir, size_t srcdir_len,
		     char *archinc, size_t archinc_len, char *owninc, size_t owninc_len)
{
	const char *slash = strrchr(src, '/');
	struct stat st;
	int n = 0;

	if (slash)
		snprintf(srcdir, srcdir_len, "%.*s", (int)(slash - src) + (slash == src), src);
	else
		snprintf(srcdir, srcdir_len, ".");
	argv[n++] = cc->path;
	argv[n++] = "-O2";
	argv[n++] = "-g";
	argv[n++] = "-target";
	argv[n++] = "bpf";
	if (TARGET_ARCH)
		argv[n++] = "-D__TARGET_ARCH_" TARGET_ARCH;
	/* -target bpf leaves out the host's multiarch directory, where
	 * <linux/types.h> finds <asm/types.h>: after the system's */
	if (MULTIARCH) {
		snprintf(archinc, archinc_len, "/usr/include/%s", MULTIARCH);
		if (!stat(archinc, &st) && S_ISDIR(st.st_mode)) {
			argv[n++] = "-idirafter";
			argv[n++] = archinc;
		}
	}
	/* <bpfprobe/bpf.h>, after the system's */
	if (own_include_dir(owninc, owninc_len)) {
		argv[n++] = "-idirafter";
		argv[n++] = owninc;
	}
	/* #include "..." from the source's directory, never <...> */
	argv[n++] = "-iquote";
	argv[n++] = srcdir;
	for (; extra && *extra; extra++)
		argv[n++] = *extra;
	argv[n] = NULL;
	return n;
}

/* The key: compiler identity and version, flags, preprocessed text. */
static int cache_key(const struct compiler *cc, const char **argv, int n, const char *src,
		     uint64_t *key)
{
	const char *version[] = { cc->path, "--version", NULL };
	uint64_t h = BP_FNV1A_INIT, hv = BP_FNV1A_INIT;
	uint64_t id[] = { cc->st.st_dev, cc->st.st_ino, cc->st.st_size, cc->st.st_mtim.tv_sec,
			  cc->st.st_mtim.tv_nsec, cc->st.st_ctim.tv_sec, cc->st.st_ctim.tv_nsec };
	struct piped ver, pre;
	int rc, rc_ver = 0;

	h = bp_fnv1a(h, "bpfprobe-compile 2", 19);
	h = bp_fnv1a(h, cc->real, strlen(cc->real) + 1);
	h = bp_fnv1a(h, id, sizeof(id));
	for (int i = 1; i < n; i++)
		h = bp_fnv1a(h, argv[i], strlen(argv[i]) + 1);
	h = bp_fnv1a(h, src, strlen(src) + 1);
	argv[n] = "-E";
	argv[n + 1] = src;
	argv[n + 2] = NULL;
	/* --version prints a few hundred bytes: it never fills the pipe, so
	 * it may run beside the preprocessor and be read after it */
	rc = start_piped(cc, version, &ver);
	if (!rc) {
		rc = start_piped(cc, argv, &pre);
		rc = rc ? rc : finish_hashed(&pre, &h);
		rc_ver = finish_hashed(&ver, &hv);
	}
	argv[n] = NULL;
	if (rc) {
		bp_err("compiling '%s' failed (clang's messages above)\n", src);
		return -EINVAL;
	}
	if (rc_ver) {
		bp_err("'%s --version' failed\n", cc->path);
		return -EINVAL;
	}
	*key = bp_fnv1a(h, &hv, sizeof(hv));
	return 0;
}

/* A cached object is used only when it is a regular file the effective
 * user owns and nobody else may write. */
static bool usable_cached(int dirfd, const char *name)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return false;
	if (S_ISREG(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 022) && st.st_size)
		return true;
	bp_info("ignoring cache entry %s: not a regular file only uid %u may write\n", name,
		(unsigned)geteuid());
	return false;
}

/*
 * Compiles argv (base + extra) into memory: clang writes the object to a
 * pipe, so that where it is kept (compile_cache.h) can fail, and be
 * worked around, without clang failing. *obj is malloc'ed.
 */
static int compile_to_memory(const struct compiler *cc, const char **argv, int n,
			     const char *src, char **obj, size_t *size)
{
	struct piped c;
	size_t cap = 0;
	char *buf = NULL;
	ssize_t got = 0;
	int rc;

	argv[n++] = "-c";
	argv[n++] = src;
	argv[n++] = "-o";
	argv[n++] = "-";
	argv[n] = NULL;
	bp_info("compiling %s\n", src);
	*size = 0;
	rc = start_piped(cc, argv, &c);
	if (rc) {
		bp_err("cannot run %s: %s\n", cc->path, strerror(-rc));
		return rc;
	}
	for (;;) {
		if (*size == cap) {
			char *b = realloc(buf, cap ? 2 * cap : 65536);

			if (!b)
				break;
			buf = b;
			cap = cap ? 2 * cap : 65536;
		}
		got = read(c.fd, buf + *size, cap - *size);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		*size += (size_t)got;
	}
	close(c.fd);
	rc = reap(c.pid);
	if (!rc && (got || !*size))
		rc = got < 0 ? -EIO : -ENOMEM;
	if (rc) {
		free(buf);
		bp_err("compiling '%s' failed%s\n", src,
		       rc == -ENOMEM ? ": out of memory" : rc == -EIO ? ": cannot read clang's output" :
		       " (clang's messages above)");
		return -EINVAL;
	}
	*obj = buf;
	return 0;
}

static int check_source(const char *src)
{
	struct stat st;
	int fd = open(src, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		bp_err("cannot read '%s': %s\n", src, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	close(fd);
	if (!S_ISREG(st.st_mode)) {
		bp_err("'%s' is not a regular file\n", src);
		return -EINVAL;
	}
	return 0;
}

int bp_compile_c(const char *src, const char *const *extra, bool no_cache, char *out,
		 size_t len)
{
	char srcdir[PATH_MAX], archinc[64], owninc[PATH_MAX], name[32] = "compiled.o";
	const char **argv, *bad = refused_word(extra);
	struct bp_cache_dir dir = { .fd = -1 };
	struct compiler cc;
	char *obj = NULL;
	size_t nextra = 0, size;
	uint64_t key;
	int n, rc;

	if (bad) {
		bp_err("compiling '%s': clang argument '%s' is not allowed (bpfprobe chooses what clang outputs)\n",
		       src, bad);
		return -EINVAL;
	}
	rc = check_source(src);
	if (!rc)
		rc = find_compiler(&cc);
	if (rc)
		return rc;
	while (extra && extra[nextra])
		nextra++;
	argv = calloc(nextra + 24, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	n = base_argv(argv, &cc, src, extra, srcdir, sizeof(srcdir), archinc, sizeof(archinc),
		      owninc, sizeof(owninc));
	/* --no-cache: neither read nor written (no key needed) */
	if (!no_cache) {
		rc = cache_key(&cc, argv, n, src, &key);
		if (rc)
			goto out;
		snprintf(name, sizeof(name), "%016llx.o", (unsigned long long)key);
		if (!bp_compile_cache__open(&dir) && usable_cached(dir.fd, name) &&
		    snprintf(out, len, "%s/%s", dir.path, name) < (int)len) {
			bp_info("using cached object %s for %s\n", out, src);
			goto out;
		}
	}
	rc = compile_to_memory(&cc, argv, n, src, &obj, &size);
	if (!rc)
		rc = bp_compile_cache__keep(&dir, name, obj, size, out, len);
out:
	bp_cache_dir__close(&dir);
	free(obj);
	free(argv);
	return rc;
}
