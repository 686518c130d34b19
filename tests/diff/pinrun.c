// SPDX-License-Identifier: GPL-2.0
/*
 * pinrun [--pid N] PROG [ARGS...]: runs PROG the way gdb runs it for the
 * differential test (tests/diff/diff_gdb.py), so that both runs are the
 * same: address space randomization off (gdb's disable-randomization),
 * the 16 bytes the kernel puts at AT_RANDOM (glibc's stack canary and
 * pointer guard) set to the same fixed bytes gdb writes there, and with
 * --pid, in a PID namespace of its own (unshare -pf --mount-proc), PROG's
 * pid N: the pid gdb's inferior had in its namespace (gdb forks a few
 * children of its own first). The child is traced only from its exec to
 * that write, then left alone; pinrun exits with its status.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elf.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

/* what diff_gdb.py's gdb script writes at AT_RANDOM too */
static const unsigned char fixed_random[16] = {
	0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
};

static int peek(pid_t pid, uint64_t addr, uint64_t *v)
{
	errno = 0;
	*v = (uint64_t)ptrace(PTRACE_PEEKDATA, pid, (void *)addr, NULL);
	return errno ? -errno : 0;
}

/* The address AT_RANDOM points to, from the new stack: argc, argv..., 0,
 * envp..., 0, then the auxiliary vector. */
static int at_random(pid_t pid, uint64_t sp, uint64_t *addr)
{
	uint64_t v, p = sp, type;
	int zeros = 0;

	if (peek(pid, p, &v))
		return -1;
	p += 8 * (v + 2);	/* past argc, argv and its NULL */
	while (zeros < 1) {
		if (peek(pid, p, &v))
			return -1;
		p += 8;
		if (!v)
			zeros++;
	}
	for (;; p += 16) {
		if (peek(pid, p, &type) || peek(pid, p + 8, &v))
			return -1;
		if (type == AT_NULL)
			return -1;
		if (type == AT_RANDOM) {
			*addr = v;
			return 0;
		}
	}
}

/* The next pid this namespace gives is want (ns_last_pid, CAP_SYS_ADMIN). */
static int next_pid(long want)
{
	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");

	if (!f || fprintf(f, "%ld", want - 1) < 0) {
		if (f)
			fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct user_regs_struct regs;
	uint64_t addr, word;
	long want = 0;
	int status, i;
	pid_t pid;

	if (argc > 2 && !strcmp(argv[1], "--pid")) {
		want = strtol(argv[2], NULL, 10);
		argv += 2;
		argc -= 2;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: pinrun [--pid N] PROG [ARGS...]\n");
		return 2;
	}
	if (want > 1 && next_pid(want)) {
		perror("pinrun: /proc/sys/kernel/ns_last_pid");
		return 2;
	}
	pid = fork();
	if (pid < 0)
		return perror("fork"), 2;
	if (!pid) {
		personality(ADDR_NO_RANDOMIZE);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(126);
		execv(argv[1], argv + 1);
		_exit(127);
	}
	if (want > 1 && pid != want) {
		fprintf(stderr, "pinrun: pid %d, not %ld\n", (int)pid, want);
		kill(pid, SIGKILL);
		return 2;
	}
	/* the exec's SIGTRAP */
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		fprintf(stderr, "pinrun: %s did not start\n", argv[1]);
		return 2;
	}
	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) || at_random(pid, regs.rsp, &addr)) {
		fprintf(stderr, "pinrun: cannot find AT_RANDOM\n");
		kill(pid, SIGKILL);
		return 2;
	}
	for (i = 0; i < 16; i += 8) {
		memcpy(&word, fixed_random + i, 8);
		if (ptrace(PTRACE_POKEDATA, pid, (void *)(addr + i), (void *)word)) {
			perror("pinrun: PTRACE_POKEDATA");
			kill(pid, SIGKILL);
			return 2;
		}
	}
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL)) {
		perror("pinrun: PTRACE_DETACH");
		return 2;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 2;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
