// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A process's view of the files exec= names (view.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "probes/binary/libpath.h"
#include "probes/view.h"
#include "util/proc_root.h"

struct bp_view {
	struct bp_proc_root root;
	char debug_dir[PATH_MAX + 40];
};

int bp_view__open(pid_t pid, struct bp_view **out, char *why, size_t len)
{
	struct bp_view *v = calloc(1, sizeof(*v));
	struct stat st;
	int err;

	*out = NULL;
	if (!v) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	err = bp_proc_root__open(&v->root, pid, why, len);
	if (err) {
		free(v);
		return err;
	}
	if (!v->root.ours) {
		/* a path of ours: the root's own when we reach it */
		snprintf(v->debug_dir, sizeof(v->debug_dir), "%s/usr/lib/debug",
			 v->root.host[0] && strcmp(v->root.host, "/") ? v->root.host : v->root.dir);
		if (stat(v->debug_dir, &st) || !S_ISDIR(st.st_mode))
			v->debug_dir[0] = '\0';
	}
	*out = v;
	return 0;
}

void bp_view__free(struct bp_view *v)
{
	if (!v)
		return;
	bp_proc_root__close(&v->root);
	free(v);
}

pid_t bp_view__pid(const struct bp_view *v)
{
	return v->root.pid;
}

bool bp_view__ours(const struct bp_view *v)
{
	return v->root.ours;
}

bool bp_view__alive(const struct bp_view *v)
{
	return bp_proc_root__alive(&v->root);
}

void bp_view__key(const struct bp_view *v, dev_t *dev, ino_t *ino, ino_t *mnt_ns)
{
	*dev = v->root.st.st_dev;
	*ino = v->root.st.st_ino;
	*mnt_ns = v->root.mnt_ns;
}

const char *bp_view__debug_dir(const struct bp_view *v)
{
	return v->debug_dir[0] ? v->debug_dir : NULL;
}

int bp_view__find(const struct bp_view *v, const char *exec, char **seen_as, char **host,
		  char *why, size_t len)
{
	char where[PATH_MAX + 128];
	int err;

	err = bp_find_binary_in(&v->root, exec, seen_as, host);
	if (!err)
		return 0;
	bp_proc_root__describe(&v->root, where, sizeof(where));
	if (err == -ENOENT && !bp_proc_root__alive(&v->root))
		snprintf(why, len, "binary '%s' cannot be looked up: process %d has exited",
			 exec, (int)v->root.pid);
	else if (err == -ENOENT)
		snprintf(why, len, "binary '%s' not found in %s%s", exec, where,
			 strchr(exec, '/') ? "" :
			 " (a bare name is looked up in its PATH and, like its dynamic loader, in its LD_LIBRARY_PATH, /etc/ld.so.cache, /lib and /usr/lib)");
	else if (err == -EXDEV)
		snprintf(why, len, "binary '%s' is in %s, but no path of bpfprobe's reaches that file",
			 exec, where);
	else
		snprintf(why, len, "binary '%s' in %s: %s", exec, where, strerror(-err));
	return err;
}
