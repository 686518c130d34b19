// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The "bpfprobe_meta" map bound to every program bpfprobe loads (see
 * metadata.h): its text format, and writing it at load, attach and pin.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "loader/metadata.h"
#include "loader/object.h"
#include "probes/maps.h"
#include "util/log.h"

static bool key_ok(const char *key)
{
	if (!*key)
		return false;
	for (const char *p = key; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || *p == '_'))
			return false;
	return true;
}

int bp_meta__add(struct bp_meta *m, const char *key, const char *val)
{
	char *k, *v;

	if (m->n >= BP_META_MAX_KEYS)
		return -E2BIG;
	k = strdup(key);
	v = strdup(val ? val : "");
	if (!k || !v) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	m->key[m->n] = k;
	m->val[m->n] = v;
	m->n++;
	return 0;
}

int bp_meta__set(struct bp_meta *m, const char *key, const char *val)
{
	for (int i = 0; i < m->n; i++) {
		char *v;

		if (strcmp(m->key[i], key))
			continue;
		v = strdup(val ? val : "");
		if (!v)
			return -ENOMEM;
		free(m->val[i]);
		m->val[i] = v;
		return 0;
	}
	return bp_meta__add(m, key, val);
}

const char *bp_meta__get(const struct bp_meta *m, const char *key, int nth)
{
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->key[i], key) && nth-- == 0)
			return m->val[i];
	return NULL;
}

void bp_meta__free(struct bp_meta *m)
{
	for (int i = 0; i < m->n; i++) {
		free(m->key[i]);
		free(m->val[i]);
	}
	m->n = 0;
}

int bp_meta__format(const struct bp_meta *m, char *buf, size_t len)
{
	size_t pos = 0;

#define PUT(c) do { if (pos + 1 >= len) return -E2BIG; buf[pos++] = (c); } while (0)
	for (const char *p = BP_META_MAGIC; *p; p++)
		PUT(*p);
	for (int i = 0; i < m->n; i++) {
		if (!key_ok(m->key[i]))
			return -EINVAL;
		for (const char *p = m->key[i]; *p; p++)
			PUT(*p);
		PUT('=');
		for (const char *p = m->val[i]; *p; p++) {
			if (*p == '\\' || *p == '\n') {
				PUT('\\');
				PUT(*p == '\n' ? 'n' : '\\');
			} else {
				PUT(*p);
			}
		}
		PUT('\n');
	}
#undef PUT
	buf[pos] = '\0';
	return pos;
}

/* One "key=value" line (without its newline) into m. */
static int parse_line(const char *line, size_t n, struct bp_meta *m)
{
	const char *eq = memchr(line, '=', n);
	char *key, *val, *o;
	int err;

	if (!eq || eq == line)
		return -EINVAL;
	key = strndup(line, eq - line);
	val = malloc(n - (eq - line));
	if (!key || !val) {
		free(key);
		free(val);
		return -ENOMEM;
	}
	o = val;
	for (const char *p = eq + 1; p < line + n; p++) {
		if (*p == '\\' && p + 1 < line + n) {
			p++;
			*o++ = *p == 'n' ? '\n' : *p;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	err = key_ok(key) ? bp_meta__add(m, key, val) : -EINVAL;
	free(key);
	free(val);
	return err;
}

int bp_meta__parse(const char *buf, size_t len, struct bp_meta *m)
{
	size_t magic = strlen(BP_META_MAGIC);
	const char *p, *end;

	end = memchr(buf, '\0', len);
	if (!end)
		end = buf + len;
	if ((size_t)(end - buf) < magic || memcmp(buf, BP_META_MAGIC, magic))
		return -EINVAL;
	for (p = buf + magic; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = (nl ? nl : end) - p;
		int err;

		if (n) {
			err = parse_line(p, n, m);
			if (err) {
				bp_meta__free(m);
				return err;
			}
		}
		p += n + 1;
	}
	return 0;
}

int bp_meta__find_map(int prog_fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info), ids[64];
	int err;

	info.nr_map_ids = sizeof(ids) / sizeof(ids[0]);
	info.map_ids = (__u64)(unsigned long)ids;
	err = bpf_obj_get_info_by_fd(prog_fd, &info, &len);
	if (err)
		return -errno;
	if (info.nr_map_ids > sizeof(ids) / sizeof(ids[0]))
		info.nr_map_ids = sizeof(ids) / sizeof(ids[0]);
	for (__u32 i = 0; i < info.nr_map_ids; i++) {
		struct bpf_map_info mi = {};
		__u32 mlen = sizeof(mi);
		int fd = bpf_map_get_fd_by_id(ids[i]);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &mi, &mlen) && mi.type == BPF_MAP_TYPE_ARRAY &&
		    !strcmp(mi.name, BP_META_MAP_NAME) && mi.value_size == BP_META_VALUE_SIZE)
			return fd;
		close(fd);
	}
	return -ENOENT;
}

int bp_meta__read_map(int map_fd, struct bp_meta *m)
{
	char *buf = calloc(1, BP_META_VALUE_SIZE);
	__u32 key = 0;
	int err;

	if (!buf)
		return -ENOMEM;
	err = bpf_map_lookup_elem(map_fd, &key, buf) ? -errno : 0;
	if (!err)
		err = bp_meta__parse(buf, BP_META_VALUE_SIZE, m);
	free(buf);
	return err;
}

static int write_map(int map_fd, const struct bp_meta *m)
{
	char *buf = calloc(1, BP_META_VALUE_SIZE);
	__u32 key = 0;
	int err;

	if (!buf)
		return -ENOMEM;
	err = bp_meta__format(m, buf, BP_META_VALUE_SIZE);
	if (err >= 0)
		err = bpf_map_update_elem(map_fd, &key, buf, BPF_ANY) ? -errno : 0;
	free(buf);
	return err;
}

int bp_meta__bind(int prog_fd, const struct bp_meta *m)
{
	/* programs never read it; only user space does */
	LIBBPF_OPTS(bpf_map_create_opts, mopts, .map_flags = BPF_F_RDONLY_PROG);
	int fd, err;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, BP_META_MAP_NAME, sizeof(__u32),
			    BP_META_VALUE_SIZE, 1, &mopts);
	if (fd < 0)
		return -errno;
	err = write_map(fd, m);
	if (!err)
		err = bpf_prog_bind_map(prog_fd, fd, NULL) ? -errno : 0;
	/* the program now holds the map: our fd is not needed */
	close(fd);
	return err;
}

static bool is_annotated(const struct bpfprobe_object *obj, const struct bpf_program *prog)
{
	for (int i = 0; i < obj->nprogs; i++)
		if (obj->progs[i].prog == prog)
			return true;
	return false;
}

static int common_keys(struct bp_meta *m, const struct bpfprobe_object *obj)
{
	char path[PATH_MAX], pid[24];
	int err;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	err = bp_meta__add(m, "object", realpath(obj->path, path) ? path : obj->path);
	if (!err && obj->source)
		err = bp_meta__add(m, "source", obj->source);
	if (!err)
		err = bp_meta__add(m, "loader_pid", pid);
	return err;
}

int bp_meta__add_map_trace(struct bp_meta *m, const struct bp_point *points, int npoints,
			   const char *op)
{
	char buf[160];
	int err;

	if (!npoints || !points[0].map.on)
		return 0;
	snprintf(buf, sizeof(buf), "%u", points[0].map.id);
	err = bp_meta__add(m, "map_id", buf);
	if (!err)
		err = bp_meta__add(m, "map_name", points[0].map.name);
	if (!err)
		err = bp_meta__add(m, "map_type", bp_map_type__name(points[0].map.type, buf,
								   sizeof(buf)));
	if (!err)
		err = bp_meta__add(m, "map_op", op);
	for (int i = 0; i < npoints && !err; i++) {
		snprintf(buf, sizeof(buf), "%s:%s", points[i].map.fentry ? "fentry" : "kprobe",
			 points[i].func);
		err = bp_meta__add(m, "map_func", buf);
	}
	return err;
}

static int instance_meta(const struct bpfprobe_object *obj, const struct bp_instance *inst,
			 struct bp_meta *m)
{
	const struct bp_program *p = inst->owner;
	int err = common_keys(m, obj);

	if (!err)
		err = bp_meta__add(m, "program", p->name);
	if (!err)
		err = bp_meta__add(m, "instance", inst->name);
	if (!err)
		err = bp_meta__add(m, "sec", p->sec);
	for (int k = 0; k < p->spec.nargs && !err; k++)
		err = bp_meta__add(m, "arg", p->spec.args[k].text);
	/* exec= as another process sees it: its path there, ours */
	if (!err && p->npoints && p->points[0].seen_as) {
		char pid[24];

		snprintf(pid, sizeof(pid), "%d", (int)p->points[0].seen_by);
		err = bp_meta__add(m, "seen_as", p->points[0].seen_as);
		if (!err)
			err = bp_meta__add(m, "seen_by", pid);
		if (!err)
			err = bp_meta__add(m, "binary", p->points[0].binary);
	}
	if (!err && p->spec.map)
		err = bp_meta__add_map_trace(m, p->points, p->npoints, p->spec.func);
	return err;
}

static int standard_meta(const struct bpfprobe_object *obj, const struct bpf_program *prog,
			 struct bp_meta *m)
{
	int err = common_keys(m, obj);

	if (!err)
		err = bp_meta__add(m, "program", bpf_program__name(prog));
	if (!err)
		err = bp_meta__add(m, "sec", bpf_program__section_name(prog));
	/* bpfprobe attaches standard sections as libbpf does: every process */
	if (!err)
		err = bp_meta__add(m, "pid", "-1");
	return err;
}

static void bind_one(int prog_fd, const char *name, struct bp_meta *m, int err)
{
	if (!err)
		err = bp_meta__bind(prog_fd, m);
	if (err)
		bp_debug("program '%s': no metadata for bpfprobe list: %s\n", name, strerror(-err));
	bp_meta__free(m);
}

void bp_meta__bind_instance(struct bpfprobe_object *obj, const struct bp_instance *inst)
{
	struct bp_meta m = {};

	if (inst->fd >= 0)
		bind_one(inst->fd, inst->name, &m, instance_meta(obj, inst, &m));
}

void bp_meta__bind_object(struct bpfprobe_object *obj)
{
	struct bpf_program *prog;

	for (int i = 0; i < obj->ninsts; i++)
		bp_meta__bind_instance(obj, &obj->insts[i]);
	bpf_object__for_each_program(prog, obj->obj) {
		struct bp_meta m = {};

		if (is_annotated(obj, prog) || bpf_program__fd(prog) < 0)
			continue;
		bind_one(bpf_program__fd(prog), bpf_program__name(prog), &m,
			 standard_meta(obj, prog, &m));
	}
}

static void update_one(int prog_fd, const char *key, const char *val, bool append)
{
	struct bp_meta m = {};
	int fd, err;

	fd = bp_meta__find_map(prog_fd);
	if (fd < 0)
		return;
	err = bp_meta__read_map(fd, &m);
	if (!err)
		err = append ? bp_meta__add(&m, key, val) : bp_meta__set(&m, key, val);
	if (!err)
		err = write_map(fd, &m);
	if (err)
		bp_debug("cannot update metadata key '%s': %s\n", key, strerror(-err));
	bp_meta__free(&m);
	close(fd);
}

void bp_meta__update_object(struct bpfprobe_object *obj, const char *key, const char *val,
			    bool instances_only)
{
	struct bpf_program *prog;

	for (int i = 0; i < obj->ninsts; i++)
		if (obj->insts[i].fd >= 0)
			update_one(obj->insts[i].fd, key, val, false);
	if (!obj->obj || instances_only)
		return;
	bpf_object__for_each_program(prog, obj->obj)
		if (!is_annotated(obj, prog) && bpf_program__fd(prog) >= 0)
			update_one(bpf_program__fd(prog), key, val, false);
}

void bp_meta__add_instance(struct bpfprobe_object *obj, int i, const char *key, const char *val)
{
	if (i >= 0 && i < obj->ninsts && obj->insts[i].fd >= 0)
		update_one(obj->insts[i].fd, key, val, true);
}
