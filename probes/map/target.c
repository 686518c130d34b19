// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The map a map=MAP names: a pin (a path under a BPF filesystem), id:N, or
 * name:NAME, the name of exactly one loaded map.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "probes/map/map.h"

#define MAX_LISTED	8

const char *bp_map_type__name(uint32_t type, char *buf, size_t len)
{
	const char *s = libbpf_bpf_map_type_str(type);

	if (s)
		return s;
	snprintf(buf, len, "type %u", type);
	return buf;
}

static int get_info(struct bp_map_target *t, const char *map, struct bp_diag *d)
{
	__u32 len = sizeof(t->info);

	memset(&t->info, 0, sizeof(t->info));
	if (bpf_obj_get_info_by_fd(t->fd, &t->info, &len)) {
		int err = -errno;

		bp_diag__set(d, "map=%s: cannot read the map's info: %s", map, strerror(-err));
		return err;
	}
	return 0;
}

static int no_permission(const char *map, int err, struct bp_diag *d)
{
	bp_diag__set(d, "map=%s: no permission to open BPF maps (%s): map tracing needs CAP_SYS_ADMIN (or CAP_BPF with CAP_PERFMON); run bpfprobe as root",
		     map, strerror(-err));
	return err;
}

static int by_id(const char *map, __u32 id, struct bp_map_target *t, struct bp_diag *d)
{
	int err;

	t->fd = bpf_map_get_fd_by_id(id);
	if (t->fd >= 0)
		return 0;
	err = -errno;
	if (err == -EPERM || err == -EACCES)
		return no_permission(map, err, d);
	if (err == -ENOENT)
		bp_diag__set(d, "map=%s: no loaded BPF map has id %u (bpftool map list shows them)",
			     map, id);
	else
		bp_diag__set(d, "map=%s: cannot open map id %u: %s", map, id, strerror(-err));
	return err;
}

static int parse_id(const char *map, const char *s, __u32 *id, struct bp_diag *d)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!*s || *end || errno || !v || v > UINT32_MAX) {
		bp_diag__set(d, "map=%s: '%s' is not a map id (id:N, N a positive number)", map, s);
		return -EINVAL;
	}
	*id = v;
	return 0;
}

/* A pinned object that is a map: its fd is a "bpf-map" anonymous inode. */
static bool fd_is_map(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return true;	/* cannot tell: the info read will */
	target[n] = '\0';
	return !strcmp(target, "anon_inode:bpf-map");
}

static int by_path(const char *map, struct bp_map_target *t, struct bp_diag *d)
{
	int err;

	t->fd = bpf_obj_get(map);
	if (t->fd < 0) {
		err = -errno;
		if (err == -EPERM || err == -EACCES)
			return no_permission(map, err, d);
		if (err == -ENOENT)
			bp_diag__set(d, "map=%s: no such file (a pinned map is a path under a BPF filesystem, e.g. /sys/fs/bpf/NAME)",
				     map);
		else if (err == -EINVAL)
			bp_diag__set(d, "map=%s: not a pinned BPF object (not in a BPF filesystem)", map);
		else
			bp_diag__set(d, "map=%s: cannot open the pin: %s", map, strerror(-err));
		return err;
	}
	if (!fd_is_map(t->fd)) {
		bp_diag__set(d, "map=%s: the pin is a BPF program or link, not a map", map);
		return -EINVAL;
	}
	return 0;
}

/* Every loaded map called name; ambiguity lists them. */
static int by_name(const char *map, const char *name, struct bp_map_target *t,
		   struct bp_diag *d)
{
	char list[512] = "", tbuf[32];
	size_t pos = 0, n = strlen(name);
	__u32 id = 0, found = 0;
	int nfound = 0, err;

	if (!n || n >= BPF_OBJ_NAME_LEN) {
		bp_diag__set(d, "map=%s: a map name has 1 to %d characters (the kernel keeps no more)",
			     map, BPF_OBJ_NAME_LEN - 1);
		return -EINVAL;
	}
	for (;;) {
		struct bpf_map_info info = {};
		__u32 len = sizeof(info);
		int fd;

		if (bpf_map_get_next_id(id, &id)) {
			err = -errno;
			if (err == -ENOENT)
				break;
			if (err == -EPERM || err == -EACCES)
				return no_permission(map, err, d);
			bp_diag__set(d, "map=%s: cannot list the loaded maps: %s", map, strerror(-err));
			return err;
		}
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;	/* gone meanwhile */
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && !strcmp(info.name, name)) {
			if (nfound < MAX_LISTED && pos < sizeof(list))
				pos += snprintf(list + pos, sizeof(list) - pos, "%s%u (%s)",
						nfound ? ", " : "", id,
						bp_map_type__name(info.type, tbuf, sizeof(tbuf)));
			else if (nfound == MAX_LISTED && pos < sizeof(list))
				pos += snprintf(list + pos, sizeof(list) - pos, ", ...");
			nfound++;
			found = id;
		}
		close(fd);
	}
	if (!nfound) {
		bp_diag__set(d, "map=%s: no loaded BPF map is named '%s'", map, name);
		return -ENOENT;
	}
	if (nfound > 1) {
		bp_diag__set(d, "map=%s: %d loaded maps are named '%s', ids %s: name one with map=id:N",
			     map, nfound, name, list);
		return -EEXIST;
	}
	return by_id(map, found, t, d);
}

int bp_map_target__find(const char *map, struct bp_map_target *t, struct bp_diag *d)
{
	__u32 id;
	int err;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (!strncmp(map, "id:", 3)) {
		err = parse_id(map, map + 3, &id, d);
		if (!err)
			err = by_id(map, id, t, d);
	} else if (!strncmp(map, "name:", 5)) {
		err = by_name(map, map + 5, t, d);
	} else if (map[0] == '/') {
		err = by_path(map, t, d);
	} else {
		bp_diag__set(d, "map=%s: MAP is a pinned map's path (/sys/fs/bpf/...), id:N or name:NAME",
			     map);
		err = -EINVAL;
	}
	if (!err)
		err = get_info(t, map, d);
	if (err)
		bp_map_target__close(t);
	return err;
}

void bp_map_target__close(struct bp_map_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
