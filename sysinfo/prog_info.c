// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Reading one program's kernel record and its maps (see prog_info.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "sysinfo/btf_name.h"
#include "sysinfo/prog_info.h"

void bp_tag__format(const uint8_t tag[BPF_TAG_SIZE], char out[2 * BPF_TAG_SIZE + 1])
{
	for (int i = 0; i < BPF_TAG_SIZE; i++)
		sprintf(out + 2 * i, "%02x", tag[i]);
}

const char *bp_prog_type__str(uint32_t type, char *buf, size_t len)
{
	const char *s = libbpf_bpf_prog_type_str(type);

	if (s)
		return s;
	snprintf(buf, len, "type %u", type);
	return buf;
}

/* Map names, and bpfprobe's metadata if one of them is ours. */
static int read_maps(struct bp_sys_prog *p, const __u32 *ids, __u32 n)
{
	p->maps = calloc(n ? n : 1, sizeof(*p->maps));
	if (!p->maps)
		return -ENOMEM;
	for (__u32 i = 0; i < n; i++) {
		struct bp_sys_map *m = &p->maps[p->nmaps++];
		struct bpf_map_info info = {};
		__u32 len = sizeof(info);
		int fd;

		m->id = ids[i];
		fd = bpf_map_get_fd_by_id(ids[i]);
		if (fd < 0)
			continue;	/* gone meanwhile, or not ours to see */
		if (!bpf_obj_get_info_by_fd(fd, &info, &len)) {
			m->type = info.type;
			memcpy(m->name, info.name, sizeof(m->name));
			if (!p->meta.n && info.type == BPF_MAP_TYPE_ARRAY &&
			    info.value_size == BP_META_VALUE_SIZE &&
			    !strcmp(info.name, BP_META_MAP_NAME) &&
			    bp_meta__read_map(fd, &p->meta))
				bp_meta__free(&p->meta);
		}
		close(fd);
	}
	return 0;
}

int bp_sys_prog__read_fd(int fd, struct bp_sys_prog *p, struct bp_btf_names *names)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	__u32 *ids = NULL;
	int err;

	memset(p, 0, sizeof(*p));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	if (info.nr_map_ids) {
		/* second call: now with room for the map ids */
		__u32 n = info.nr_map_ids;

		ids = calloc(n, sizeof(*ids));
		if (!ids)
			return -ENOMEM;
		memset(&info, 0, sizeof(info));
		info.nr_map_ids = n;
		info.map_ids = (__u64)(unsigned long)ids;
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
			free(ids);
			return -errno;
		}
		if (info.nr_map_ids > n)
			info.nr_map_ids = n;
	}
	p->id = info.id;
	p->type = info.type;
	memcpy(p->tag, info.tag, sizeof(p->tag));
	memcpy(p->name, info.name, sizeof(p->name));
	p->load_time = info.load_time;
	p->uid = info.created_by_uid;
	p->run_cnt = info.run_cnt;
	p->run_time_ns = info.run_time_ns;
	p->recursion_misses = info.recursion_misses;
	p->attach_btf_obj_id = info.attach_btf_obj_id;
	p->attach_btf_id = info.attach_btf_id;
	if (names && info.attach_btf_id)
		p->attach_func = bp_btf_names__get(names, info.attach_btf_obj_id,
						   info.attach_btf_id);
	err = read_maps(p, ids, info.nr_map_ids);
	free(ids);
	if (err)
		bp_sys_prog__free(p);
	return err;
}

int bp_sys_prog__read_id(uint32_t id, struct bp_sys_prog *p, struct bp_btf_names *names)
{
	int fd = bpf_prog_get_fd_by_id(id), err;

	if (fd < 0)
		return -errno;
	err = bp_sys_prog__read_fd(fd, p, names);
	close(fd);
	return err;
}

void bp_sys_prog__free(struct bp_sys_prog *p)
{
	if (!p)
		return;
	free(p->attach_func);
	free(p->maps);
	bp_meta__free(&p->meta);
	p->attach_func = NULL;
	p->maps = NULL;
	p->nmaps = 0;
}
