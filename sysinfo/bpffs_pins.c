// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Walking a BPF filesystem for pinned programs and links (see bpffs_pins.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include "sysinfo/bpffs_pins.h"
#include "sysinfo/fd_refs.h"

#define MAX_DEPTH 8

static int add_pin(struct bp_pin_refs *r, const char *path, int fd)
{
	unsigned long long v;
	char link[64], target[64], text[1024];
	struct bp_pin_ref *n, ref = {};
	ssize_t len;
	FILE *f;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, target, sizeof(target) - 1);
	if (len <= 0)
		return 0;
	target[len] = '\0';
	/* "bpf_link" before Linux 6.x renamed it "bpf-link" */
	if (!strcmp(target, "anon_inode:bpf-link") || !strcmp(target, "anon_inode:bpf_link"))
		ref.is_link = true;
	else if (strcmp(target, "anon_inode:bpf-prog"))
		return 0;	/* maps and others */
	snprintf(link, sizeof(link), "/proc/self/fdinfo/%d", fd);
	f = fopen(link, "r");
	if (!f)
		return 0;
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len > 0 ? len : 0] = '\0';
	if (bp_fdinfo__field(text, "prog_id", &v))
		return 0;
	ref.prog_id = v;
	ref.id = v;
	if (ref.is_link && !bp_fdinfo__field(text, "link_id", &v))
		ref.id = v;
	ref.path = strdup(path);
	n = realloc(r->v, (r->n + 1) * sizeof(*n));
	if (!ref.path || !n) {
		free(ref.path);
		if (n)
			r->v = n;
		return -ENOMEM;
	}
	r->v = n;
	r->v[r->n++] = ref;
	return 0;
}

static int walk(struct bp_pin_refs *r, const char *dir, int depth)
{
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (depth > MAX_DEPTH)
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;
		int fd;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			err = walk(r, path, depth + 1);
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		fd = bpf_obj_get(path);
		if (fd < 0)
			continue;
		err = add_pin(r, path, fd);
		close(fd);
	}
	closedir(d);
	return err;
}

int bp_pin_refs__scan(struct bp_pin_refs *r, const char *root)
{
	struct statfs sfs;
	int err;

	memset(r, 0, sizeof(*r));
	if (statfs(root, &sfs) || sfs.f_type != BPF_FS_MAGIC)
		return 0;
	err = walk(r, root, 0);
	if (err)
		bp_pin_refs__free(r);
	return err;
}

void bp_pin_refs__free(struct bp_pin_refs *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->v[i].path);
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
