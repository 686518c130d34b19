// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/printk_pipe.h"
#include "util/log.h"
#include "util/tracefs.h"

#define INSTANCE_PREFIX "bpfprobe."
#define EVENT_ENABLE "events/bpf_trace/bpf_trace_printk/enable"
#define MARKER "bpf_trace_printk: "

struct bp_printk_pipe {
	char dir[PATH_MAX];
	int fd;
	char buf[65536];
	size_t len;
};

/* Instances left by a bpfprobe that was killed: their owner is gone. */
static void remove_stale_instances(const char *root)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/instances", root);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		long pid;

		if (strncmp(de->d_name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)))
			continue;
		pid = strtol(de->d_name + strlen(INSTANCE_PREFIX), NULL, 10);
		if (pid > 0 && kill(pid, 0) < 0 && errno == ESRCH) {
			snprintf(path, sizeof(path), "%s/instances/%s", root, de->d_name);
			rmdir(path);
		}
	}
	closedir(d);
}

struct bp_printk_pipe *bp_printk_pipe__open(void)
{
	const char *root = bp_tracefs__root();
	struct bp_printk_pipe *pp;
	char path[PATH_MAX + 32];
	int err;

	if (!root)
		return NULL;
	remove_stale_instances(root);
	pp = calloc(1, sizeof(*pp));
	if (!pp)
		return NULL;
	pp->fd = -1;
	snprintf(pp->dir, sizeof(pp->dir), "%s/instances/" INSTANCE_PREFIX "%d", root, getpid());
	if (mkdir(pp->dir, 0700) && errno != EEXIST) {
		bp_err("cannot create the tracefs instance %s: %s\n", pp->dir, strerror(errno));
		free(pp);
		return NULL;
	}
	err = bp_tracefs__write(pp->dir, EVENT_ENABLE, "1");
	if (err) {
		bp_err("cannot enable bpf_trace_printk in %s: %s\n", pp->dir, strerror(-err));
		goto fail;
	}
	snprintf(path, sizeof(path), "%s/trace_pipe", pp->dir);
	pp->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (pp->fd < 0) {
		bp_err("cannot open %s: %s\n", path, strerror(errno));
		goto fail;
	}
	return pp;
fail:
	bp_printk_pipe__close(pp);
	return NULL;
}

int bp_printk_pipe__fd(const struct bp_printk_pipe *pp)
{
	return pp->fd;
}

static void emit_line(char *line, FILE *out)
{
	char *msg = strstr(line, MARKER);

	if (!msg)
		return;
	fprintf(out, "%s\n", msg + strlen(MARKER));
}

int bp_printk_pipe__drain(struct bp_printk_pipe *pp, FILE *out)
{
	int lines = 0;

	for (;;) {
		ssize_t n = read(pp->fd, pp->buf + pp->len, sizeof(pp->buf) - 1 - pp->len);
		char *start, *nl;

		if (n <= 0)
			break;
		pp->len += n;
		pp->buf[pp->len] = '\0';
		start = pp->buf;
		while ((nl = strchr(start, '\n'))) {
			*nl = '\0';
			emit_line(start, out);
			lines++;
			start = nl + 1;
		}
		pp->len -= start - pp->buf;
		memmove(pp->buf, start, pp->len);
		if (pp->len == sizeof(pp->buf) - 1)
			pp->len = 0;	/* a line longer than the buffer: drop it */
	}
	fflush(out);
	return lines;
}

void bp_printk_pipe__close(struct bp_printk_pipe *pp)
{
	if (!pp)
		return;
	if (pp->fd >= 0)
		close(pp->fd);
	bp_tracefs__write(pp->dir, EVENT_ENABLE, "0");
	rmdir(pp->dir);
	free(pp);
}
