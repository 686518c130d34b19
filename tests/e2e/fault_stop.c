// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Fault injection for the fault tests, preloaded into bpfprobe: stops the
 * process (SIGSTOP) at a chosen point so the test can SIGKILL it exactly
 * there, deterministically rather than by timing; or makes one system call
 * fail, to drive an error path that real inputs rarely reach.
 *
 * FAULT_STOP_AT:
 *   resolve:PATH      after the probed binary PATH is opened (open,
 *                     open64 or openat: the resolver reads it; nothing is
 *                     loaded yet). A libc call, as libdw is linked into
 *                     bpfprobe (Makefile: LINK) where no preload reaches.
 *   load:NAME:K       after the K-th successful BPF_PROG_LOAD of a program
 *                     whose name starts with NAME
 *   attach:K          after the K-th successful BPF_LINK_CREATE
 *   attach-uprobe:K   after the K-th that links a uprobe event or makes a
 *                     uprobe_multi link (not, say, the tracepoints that
 *                     follow the process tree)
 *   pin:K             after the K-th successful BPF_OBJ_PIN
 *   rename:K          after the K-th successful rename()
 * FAULT_STOP_FILE: where to append "stopped at WHAT" before stopping.
 * FAULT_COUNT_FILE: where to append a line "uprobe" for each uprobe event
 *   opened, "uprobe_multi" for each uprobe_multi link made (how far an
 *   attach went before it stopped).
 *
 * FAULT_FAIL_AT (the call fails with EMFILE, as when out of descriptors):
 *   perf:K            the K-th perf_event_open()
 *   perf-uprobe:K     the K-th perf_event_open() of a uprobe event
 *   perf-dummy:K      from the K-th perf_event_open() of a dummy software
 *                     event (side-band records) on, every one, with
 *                     EACCES: as perf_event_paranoid refuses them
 *   link:K            the K-th BPF_LINK_CREATE
 *   uprobe-multi:K    the K-th BPF_LINK_CREATE of a uprobe_multi link
 *   load:NAME:K       the K-th BPF_PROG_LOAD of a program named NAME...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

/* The uprobe PMU's perf type, and the fds of the uprobe events opened. */
static int uprobe_type(void)
{
	static int type = -2;
	FILE *f;

	if (type != -2)
		return type;
	type = -1;
	f = fopen("/sys/bus/event_source/devices/uprobe/type", "r");
	if (f) {
		if (fscanf(f, "%d", &type) != 1)
			type = -1;
		fclose(f);
	}
	return type;
}

static char uprobe_fds[4096];

/* BPF_TRACE_UPROBE_MULTI: Debian's 6.1 uapi headers lack it */
#define TRACE_UPROBE_MULTI 48

static int is_uprobe_link(const union bpf_attr *attr)
{
	return attr->link_create.attach_type == TRACE_UPROBE_MULTI ||
	       (attr->link_create.target_fd >= 0 &&
		attr->link_create.target_fd < (int)sizeof(uprobe_fds) &&
		uprobe_fds[attr->link_create.target_fd]);
}

static int is_uprobe_attr(const void *attr)
{
	/* struct perf_event_attr begins with __u32 type */
	return *(const unsigned int *)attr == (unsigned int)uprobe_type();
}

static void count(const char *what)
{
	const char *file = getenv("FAULT_COUNT_FILE");
	FILE *f = file ? fopen(file, "a") : NULL;

	if (f) {
		fprintf(f, "%s\n", what);
		fclose(f);
	}
}

static int is_dummy_attr(const void *attr)
{
	/* __u32 type, size; __u64 config */
	return *(const unsigned int *)attr == 1 /* PERF_TYPE_SOFTWARE */ &&
	       *(const unsigned long long *)((const char *)attr + 8) == 9 /* PERF_COUNT_SW_DUMMY */;
}

static void stop_here(const char *what)
{
	const char *file = getenv("FAULT_STOP_FILE");
	FILE *f = file ? fopen(file, "a") : NULL;

	if (f) {
		fprintf(f, "stopped at %s\n", what);
		fclose(f);
	}
	raise(SIGSTOP);
}

static int after_open(const char *path, int fd)
{
	const char *at = getenv("FAULT_STOP_AT");

	if (fd >= 0 && at && !strncmp(at, "resolve:", 8) && !strcmp(at + 8, path))
		stop_here(at);
	return fd;
}

/* the mode, when the flags say there is one */
#define OPEN_MODE(flags, mode)						\
	do {								\
		va_list ap;						\
									\
		va_start(ap, flags);					\
		if ((flags) & (O_CREAT | O_TMPFILE))			\
			mode = va_arg(ap, int);				\
		va_end(ap);						\
	} while (0)

/* open and open64: the same call */
#define OPEN_WRAPPER(fn)							\
	int fn(const char *path, int flags, ...)				\
	{									\
		static int (*real)(const char *, int, ...);			\
		int mode = 0;							\
										\
		OPEN_MODE(flags, mode);						\
		if (!real)							\
			real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #fn); \
		return after_open(path, real(path, flags, mode));		\
	}
OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

int openat(int dirfd, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	int mode = 0;

	OPEN_MODE(flags, mode);
	if (!real)
		real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	return after_open(path, real(dirfd, path, flags, mode));
}

static void after_bpf(long cmd, const union bpf_attr *attr, long ret)
{
	const char *at = getenv("FAULT_STOP_AT");
	static int loads, links, ulinks, pins;
	char name[32];
	int k;

	if (!at || ret < 0)
		return;
	if (cmd == BPF_LINK_CREATE && sscanf(at, "attach-uprobe:%d", &k) == 1 &&
	    is_uprobe_link(attr) && ++ulinks == k)
		stop_here(at);
	if (cmd == BPF_PROG_LOAD && sscanf(at, "load:%31[^:]:%d", name, &k) == 2 &&
	    !strncmp(attr->prog_name, name, strlen(name)) && ++loads == k)
		stop_here(at);
	if (cmd == BPF_LINK_CREATE && sscanf(at, "attach:%d", &k) == 1 && ++links == k)
		stop_here(at);
	if (cmd == BPF_OBJ_PIN && sscanf(at, "pin:%d", &k) == 1 && ++pins == k)
		stop_here(at);
}

int rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);
	const char *at = getenv("FAULT_STOP_AT");
	static int renames;
	int ret, k;

	if (!real)
		real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
	ret = real(from, to);
	if (!ret && at && sscanf(at, "rename:%d", &k) == 1 && ++renames == k) {
		int e = errno;

		stop_here(at);
		errno = e;
	}
	return ret;
}

/* The errno this call fails with when FAULT_FAIL_AT names it, else 0. */
static int fail_here(long nr, long cmd, const union bpf_attr *attr)
{
	const char *at = getenv("FAULT_FAIL_AT");
	static int perfs, uperfs, dperfs, links, mlinks, loads;
	char name[32];
	int k;

	if (!at)
		return 0;
	if (nr == __NR_perf_event_open && sscanf(at, "perf-uprobe:%d", &k) == 1)
		return is_uprobe_attr((const void *)cmd) && ++uperfs == k ? EMFILE : 0;
	if (nr == __NR_perf_event_open && sscanf(at, "perf-dummy:%d", &k) == 1)
		return is_dummy_attr((const void *)cmd) && ++dperfs >= k ? EACCES : 0;
	if (nr == __NR_perf_event_open)
		return sscanf(at, "perf:%d", &k) == 1 && ++perfs == k ? EMFILE : 0;
	if (nr != __NR_bpf)
		return 0;
	if (cmd == BPF_LINK_CREATE && sscanf(at, "uprobe-multi:%d", &k) == 1)
		return attr->link_create.attach_type == TRACE_UPROBE_MULTI && ++mlinks == k ?
		       EMFILE : 0;
	if (cmd == BPF_LINK_CREATE)
		return sscanf(at, "link:%d", &k) == 1 && ++links == k ? EMFILE : 0;
	if (cmd == BPF_PROG_LOAD && sscanf(at, "load:%31[^:]:%d", name, &k) == 2 &&
	    !strncmp(attr->prog_name, name, strlen(name)))
		return ++loads == k ? EMFILE : 0;
	return 0;
}

/* libbpf and bpfprobe make every bpf() and perf_event_open() call through
 * libc's syscall(); forward all six argument registers unchanged */
long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	long a[6], ret;
	va_list ap;
	int err;

	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	err = fail_here(nr, a[0], (const union bpf_attr *)a[1]);
	if (err) {
		errno = err;
		return -1;
	}
	ret = real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (nr == __NR_perf_event_open && ret >= 0 && ret < (long)sizeof(uprobe_fds))
		uprobe_fds[ret] = is_uprobe_attr((const void *)a[0]);
	if (nr == __NR_perf_event_open && ret >= 0 && is_uprobe_attr((const void *)a[0])) {
		int e = errno;

		count("uprobe");
		errno = e;
	}
	if (nr == __NR_bpf && ret >= 0 && a[0] == BPF_LINK_CREATE &&
	    ((const union bpf_attr *)a[1])->link_create.attach_type == TRACE_UPROBE_MULTI) {
		int e = errno;

		count("uprobe_multi");
		errno = e;
	}
	if (nr == __NR_bpf) {
		int e = errno;	/* the caller reads the real call's errno */

		after_bpf(a[0], (const union bpf_attr *)a[1], ret);
		errno = e;
	}
	return ret;
}
