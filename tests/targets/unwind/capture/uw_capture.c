// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The sample as a probe's $ustack fetch would copy it (uw_capture.h).
 * uw_take_sample() keeps nothing of its own on the stack between the
 * label and the copy: the registers go to a global, and the copy is made
 * by a callee, whose frame lies below the sampled rsp.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "util/stack_sample.h"
#include "uw_capture.h"

#ifdef __clang__
#define NOIPA __attribute__((noinline))
#else
#define NOIPA __attribute__((noinline, noipa))
#endif

static unsigned char sample_buf[sizeof(struct bp_stack_sample) + BP_STACK_MAX_BYTES]
	__attribute__((aligned(8)));
#define sample (*(struct bp_stack_sample *)sample_buf)

static char maps_buf[1 << 16];

/* The end of the mapping holding addr, from /proc/self/maps (read with
 * plain syscalls: this may run inside a wrapped libc call), or 0. */
static unsigned long mapping_end(unsigned long addr)
{
	size_t len = 0;
	ssize_t n;
	char *p;
	int fd;

	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (len < sizeof(maps_buf) - 1 &&
	       (n = read(fd, maps_buf + len, sizeof(maps_buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	maps_buf[len] = 0;
	for (p = maps_buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char *end;
		unsigned long lo = strtoul(p, &end, 16), hi;

		if (*end != '-')
			return 0;
		hi = strtoul(end + 1, NULL, 16);
		if (addr >= lo && addr < hi)
			return hi;
	}
	return 0;
}

static int write_all(int fd, const void *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			return -1;
		p = (const char *)p + n;
		len -= n;
	}
	return 0;
}

NOIPA static int copy_and_write(const char *path)
{
	unsigned long rsp = sample.regs[1], end = mapping_end(rsp);
	static char part[4096];
	struct timespec ts;
	size_t size;
	int fd, err;

	size = end > rsp ? end - rsp : 0;
	if (size > BP_STACK_MAX_BYTES)
		size = BP_STACK_MAX_BYTES;
	memcpy(sample.stack, (const void *)rsp, size);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	sample.id = 1;
	sample.pid = getpid();
	sample.tid = syscall(SYS_gettid);
	sample.time_ns = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	sample.size = size;
	sample.flags = 0;
	/* whole or not at all: written aside, then renamed */
	if (strlen(path) + 6 > sizeof(part))
		return -1;
	strcpy(part, path);
	strcat(part, ".part");
	fd = open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	err = write_all(fd, sample_buf, sizeof(sample) + size);
	if (close(fd) || (!err && rename(part, path)))
		err = -1;
	return err;
}

NOIPA int uw_take_sample(const char *path)
{
	int err;

	if (!path || !*path)
		return 0;
	/* regs[] in stack_sample.h's order: rip rsp rbp rbx r12 r13 r14 r15 */
	asm volatile(".globl uw_sample_point\n"
		     ".hidden uw_sample_point\n"
		     "uw_sample_point:\n"
		     "1:\n\t"
		     "mov %%rsp, 8(%0)\n\t"
		     "mov %%rbp, 16(%0)\n\t"
		     "mov %%rbx, 24(%0)\n\t"
		     "mov %%r12, 32(%0)\n\t"
		     "mov %%r13, 40(%0)\n\t"
		     "mov %%r14, 48(%0)\n\t"
		     "mov %%r15, 56(%0)\n\t"
		     "lea 1b(%%rip), %%rax\n\t"
		     "mov %%rax, 0(%0)\n"
		     : : "r"(sample.regs) : "rax", "memory");
	err = copy_and_write(path);
	/* not a tail call: the callee must not reuse this frame */
	asm volatile("" : : : "memory");
	return err;
}
