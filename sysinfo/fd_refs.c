// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Owners of BPF objects from /proc/PID/fd and /proc/PID/fdinfo (see fd_refs.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "sysinfo/fd_refs.h"

int bp_fdinfo__field(const char *text, const char *key, unsigned long long *val)
{
	size_t klen = strlen(key);

	for (const char *line = text; line && *line;) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			char *end;

			*val = strtoull(line + klen + 1, &end, 10);
			return end == line + klen + 1 ? -EINVAL : 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -ENOENT;
}

static int add_ref(struct bp_fd_refs *r, const struct bp_fd_ref *ref)
{
	struct bp_fd_ref *n = realloc(r->v, (r->n + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	r->v = n;
	r->v[r->n++] = *ref;
	return 0;
}

static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

static void read_comm(pid_t pid, char comm[16])
{
	char path[64], buf[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (read_small(path, buf, sizeof(buf)) <= 0) {
		strcpy(comm, "?");
		return;
	}
	buf[strcspn(buf, "\n")] = '\0';
	buf[15] = '\0';	/* TASK_COMM_LEN */
	memcpy(comm, buf, 16);
}

static int fdinfo_ids(struct bp_fd_ref *ref)
{
	unsigned long long v;
	char path[64], text[1024];

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", ref->pid, ref->fd);
	if (read_small(path, text, sizeof(text)) <= 0)
		return -ENOENT;
	if (bp_fdinfo__field(text, "prog_id", &v))
		return -ENOENT;
	ref->prog_id = v;
	if (ref->kind == BP_FD_PROG)
		ref->id = v;
	else if (!bp_fdinfo__field(text, "link_id", &v))
		ref->id = v;
	return 0;
}

static int perf_query(struct bp_fd_ref *ref)
{
	__u64 off = 0, addr = 0;
	__u32 prog_id = 0, fd_type = 0, len;
	char buf[PATH_MAX] = "";

	len = sizeof(buf);
	if (bpf_task_fd_query(ref->pid, ref->fd, 0, buf, &len, &prog_id, &fd_type, &off, &addr))
		return -errno;	/* ENOENT: no program on this event */
	ref->prog_id = prog_id;
	return bp_attach__from_task_fd(prog_id, fd_type, buf, off, addr, &ref->att);
}

static int scan_fd(struct bp_fd_refs *r, pid_t pid, const char *comm, int dfd, const char *name)
{
	struct bp_fd_ref ref = { .pid = pid };
	char target[128];
	ssize_t n;
	int err;

	n = readlinkat(dfd, name, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	if (!strcmp(target, "anon_inode:bpf-prog"))
		ref.kind = BP_FD_PROG;
	else if (!strcmp(target, "anon_inode:bpf-link") || !strcmp(target, "anon_inode:bpf_link"))
		ref.kind = BP_FD_LINK;
	else if (!strcmp(target, "anon_inode:[perf_event]"))
		ref.kind = BP_FD_PERF;
	else
		return 0;
	ref.fd = atoi(name);
	memcpy(ref.comm, comm, sizeof(ref.comm));
	err = ref.kind == BP_FD_PERF ? perf_query(&ref) : fdinfo_ids(&ref);
	if (err)
		return err == -ENOMEM ? err : 0;
	err = add_ref(r, &ref);
	if (err)
		bp_attach__free(&ref.att);
	return err;
}

static int scan_pid(struct bp_fd_refs *r, pid_t pid)
{
	char path[64], comm[16];
	struct dirent *de;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	if (!d)
		return 0;	/* gone, or a kernel thread */
	read_comm(pid, comm);
	while (!err && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			err = scan_fd(r, pid, comm, dirfd(d), de->d_name);
	closedir(d);
	return err;
}

int bp_fd_refs__scan(struct bp_fd_refs *r)
{
	pid_t self = getpid();
	struct dirent *de;
	DIR *d;
	int err = 0;

	memset(r, 0, sizeof(*r));
	d = opendir("/proc");
	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		pid_t pid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = atoi(de->d_name);
		if (pid != self)
			err = scan_pid(r, pid);
	}
	closedir(d);
	if (err)
		bp_fd_refs__free(r);
	return err;
}

void bp_fd_refs__free(struct bp_fd_refs *r)
{
	for (int i = 0; i < r->n; i++)
		bp_attach__free(&r->v[i].att);
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
