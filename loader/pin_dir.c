// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Session directories of the pin root, read and removed through the
 * descriptors of the directories themselves (openat with O_NOFOLLOW): a
 * symlink planted in the root leads nowhere, and a directory is taken for
 * a session only when bpfprobe's metadata in a program pinned there says
 * so, so another tool's pins under the root are left alone.
 */
#define _GNU_SOURCE
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
#include "loader/metadata.h"
#include "loader/pin_dir.h"
#include "util/dirlock.h"
#include "util/log.h"

/* What bpfprobe pins in a session (loader/pin.c: pin_fd). */
static bool pin_name(const char *n)
{
	return !strncmp(n, "link_", 5) || !strncmp(n, "prog_", 5) || !strncmp(n, "map_", 4);
}

/* Whether the program pinned at path (a link's program, for a link) carries
 * bpfprobe's metadata with pin=name. */
static bool names_session(const char *path, bool is_link, const char *name)
{
	struct bp_meta m = {};
	int fd = bpf_obj_get(path), prog_fd = fd, map_fd;
	const char *pin;
	bool yes = false;

	if (fd < 0)
		return false;
	if (is_link) {
		struct bpf_link_info li = {};
		__u32 len = sizeof(li);

		prog_fd = bpf_obj_get_info_by_fd(fd, &li, &len) ? -1 : bpf_prog_get_fd_by_id(li.prog_id);
		close(fd);
		if (prog_fd < 0)
			return false;
	}
	map_fd = bp_meta__find_map(prog_fd);
	close(prog_fd);
	if (map_fd < 0)
		return false;
	if (!bp_meta__read_map(map_fd, &m)) {
		pin = bp_meta__get(&m, "pin", 0);
		yes = pin && !strcmp(pin, name);
	}
	bp_meta__free(&m);
	close(map_fd);
	return yes;
}

struct session {
	int root_fd;
	int fd;
	char **pins;		/* bpfprobe's entries: regular (pinned) files named like ours */
	int npins;
	int others;		/* anything else */
	bool ours;		/* a program in it says pin=name */
};

static void session_close(struct session *s)
{
	for (int i = 0; i < s->npins; i++)
		free(s->pins[i]);
	free(s->pins);
	if (s->fd >= 0)
		close(s->fd);
	if (s->root_fd >= 0)
		close(s->root_fd);
}

static int scan(struct session *s, const char *name)
{
	struct dirent *de;
	int dfd = dup(s->fd);
	DIR *d = dfd < 0 ? NULL : fdopendir(dfd);

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return -errno;
	}
	while ((de = readdir(d))) {
		char path[64 + NAME_MAX];
		struct stat st;
		char **n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(s->fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode) ||
		    !pin_name(de->d_name)) {
			s->others++;
			continue;
		}
		n = realloc(s->pins, (s->npins + 1) * sizeof(*n));
		if (!n || !(n[s->npins] = strdup(de->d_name))) {
			s->pins = n ? n : s->pins;
			closedir(d);
			return -ENOMEM;
		}
		s->pins = n;
		s->npins++;
		/* through our descriptor: the very directory we opened */
		snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", s->fd, de->d_name);
		if (!s->ours && strncmp(de->d_name, "map_", 4))
			s->ours = names_session(path, !strncmp(de->d_name, "link_", 5), name);
	}
	closedir(d);
	return 0;
}

/* Opens and reads root/entry; -ENOTDIR for a symlink or a non-directory. */
static int session_open(struct session *s, const char *root, const char *entry, const char *name)
{
	struct statfs sfs;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->root_fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->root_fd < 0)
		return -errno;
	s->fd = openat(s->root_fd, entry, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->fd < 0)
		return errno == ELOOP || errno == ENOTDIR ? -ENOTDIR : -errno;
	if (fstatfs(s->fd, &sfs) || sfs.f_type != BPF_FS_MAGIC)
		return -EPERM;
	return scan(s, name);
}

int bp_pin_dir__is_session(const char *root, const char *entry, const char *name)
{
	struct session s;
	int err = session_open(&s, root, entry, name);

	if (err == -ENOTDIR || err == -EPERM)
		err = 0;
	else if (!err)
		err = s.ours;
	session_close(&s);
	return err;
}

int bp_pin_dir__remove(const char *root, const char *entry, const char *name, bool empty_ok)
{
	struct session s;
	int err = session_open(&s, root, entry, name);

	if (err == -ENOTDIR) {
		bp_err("%s/%s is a symbolic link or not a directory, not a bpfprobe session: left as it is\n",
		       root, entry);
		goto out;
	}
	if (err == -EPERM) {
		bp_err("%s/%s is not on the BPF filesystem, not a bpfprobe session: left as it is\n",
		       root, entry);
		goto out;
	}
	if (err) {
		bp_err("cannot read %s/%s: %s\n", root, entry, strerror(-err));
		goto out;
	}
	if (!s.ours && !(empty_ok && !s.npins && !s.others)) {
		bp_err("%s/%s is not a bpfprobe session (no program pinned in it carries bpfprobe's metadata naming '%s'): left as it is\n",
		       root, entry, name);
		err = -EPERM;
		goto out;
	}
	for (int i = 0; i < s.npins; i++)
		if (unlinkat(s.fd, s.pins[i], 0) && !err)
			err = -errno;
	if (err) {
		bp_err("cannot remove the pins of %s/%s: %s\n", root, entry, strerror(-err));
	} else if (unlinkat(s.root_fd, entry, AT_REMOVEDIR)) {
		err = -errno;
		if (err == -ENOTEMPTY || err == -EEXIST)
			bp_err("%s/%s: removed bpfprobe's pins, kept the %d entries bpfprobe did not make there (and the directory)\n",
			       root, entry, s.others);
		else
			bp_err("cannot remove %s/%s: %s\n", root, entry, strerror(-err));
	}
out:
	session_close(&s);
	return err;
}

/* NAME of _new-NAME-PID / _old-NAME-PID into buf; false when not one. */
static bool staging_name(const char *entry, bool *old, char *buf, size_t len)
{
	const char *start, *dash;

	if (!strncmp(entry, BP_PIN_STAGING_NEW, strlen(BP_PIN_STAGING_NEW)))
		*old = false;
	else if (!strncmp(entry, BP_PIN_STAGING_OLD, strlen(BP_PIN_STAGING_OLD)))
		*old = true;
	else
		return false;
	start = entry + strlen(BP_PIN_STAGING_NEW);
	dash = strrchr(start, '-');
	if (!dash || dash == start || (size_t)(dash - start) >= len)
		return false;
	snprintf(buf, len, "%.*s", (int)(dash - start), start);
	return true;
}

static void reclaim_one(const char *root, const char *entry)
{
	char path[PATH_MAX], final[PATH_MAX], name[NAME_MAX + 1];
	struct stat st;
	bool old;
	int lock;

	if (!staging_name(entry, &old, name, sizeof(name)))
		return;
	snprintf(path, sizeof(path), "%s/%s", root, entry);
	lock = bp_dirlock__try(path);
	if (lock < 0)
		return;		/* its bpfprobe is still at work, or it is gone */
	snprintf(final, sizeof(final), "%s/%s", root, name);
	if (old && lstat(final, &st) && errno == ENOENT &&
	    bp_pin_dir__is_session(root, entry, name) == 1) {
		if (!rename(path, final))
			bp_err("restored pinned session '%s' from %s, where a `load --pin %s --replace` that was killed had moved it\n",
			       name, path, name);
	} else if (!bp_pin_dir__remove(root, entry, name, true)) {
		if (old)
			bp_err("removed %s: the pinned session '%s' that a `load --pin %s --replace` that was killed was replacing (the new one is in place)\n",
			       path, name, name);
		else
			bp_err("removed %s: what a `load --pin %s` that was killed had pinned before it could finish (its probes detach)\n",
			       path, name);
	}
	close(lock);
}

void bp_pin_dir__reclaim(const char *root)
{
	char **entries = NULL, **n;
	int count = 0;
	struct dirent *de;
	DIR *d = opendir(root);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] != '_')
			continue;
		n = realloc(entries, (count + 1) * sizeof(*n));
		if (!n || !(n[count] = strdup(de->d_name))) {
			entries = n ? n : entries;
			break;
		}
		entries = n;
		count++;
	}
	closedir(d);
	/* the _old- ones first: a session put back before its replacement's
	 * staging directory goes */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < count; i++)
			if (!strncmp(entries[i], pass ? BP_PIN_STAGING_NEW : BP_PIN_STAGING_OLD,
				     strlen(BP_PIN_STAGING_NEW)))
				reclaim_one(root, entries[i]);
	for (int i = 0; i < count; i++)
		free(entries[i]);
	free(entries);
}
