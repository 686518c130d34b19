// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Kernel BTF type names by object and type id (see btf_name.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "sysinfo/btf_name.h"

struct btf_entry {
	uint32_t obj_id;
	struct btf *btf;	/* NULL: failed to load */
	struct btf_entry *next;
};

struct bp_btf_names {
	struct btf *vmlinux;
	bool vmlinux_tried;
	struct btf_entry *list;
};

struct bp_btf_names *bp_btf_names__new(void)
{
	return calloc(1, sizeof(struct bp_btf_names));
}

void bp_btf_names__free(struct bp_btf_names *n)
{
	if (!n)
		return;
	while (n->list) {
		struct btf_entry *e = n->list;

		n->list = e->next;
		if (e->btf != n->vmlinux)
			btf__free(e->btf);
		free(e);
	}
	btf__free(n->vmlinux);
	free(n);
}

static struct btf *vmlinux(struct bp_btf_names *n)
{
	if (!n->vmlinux_tried) {
		n->vmlinux_tried = true;
		n->vmlinux = btf__load_vmlinux_btf();
		if (libbpf_get_error(n->vmlinux))
			n->vmlinux = NULL;
	}
	return n->vmlinux;
}

static struct btf *load(struct bp_btf_names *n, uint32_t obj_id)
{
	struct bpf_btf_info info = {};
	__u32 len = sizeof(info);
	char name[64] = "";
	int fd;

	fd = bpf_btf_get_fd_by_id(obj_id);
	if (fd < 0)
		return NULL;
	info.name = (__u64)(unsigned long)name;
	info.name_len = sizeof(name);
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		close(fd);
		return NULL;
	}
	close(fd);
	if (info.kernel_btf && !strcmp(name, "vmlinux"))
		return vmlinux(n);
	if (info.kernel_btf)	/* a module: split BTF on vmlinux */
		return vmlinux(n) ? btf__load_from_kernel_by_id_split(obj_id, vmlinux(n)) : NULL;
	return btf__load_from_kernel_by_id(obj_id);
}

static struct btf *get(struct bp_btf_names *n, uint32_t obj_id)
{
	struct btf_entry *e;

	for (e = n->list; e; e = e->next)
		if (e->obj_id == obj_id)
			return e->btf;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->obj_id = obj_id;
	e->btf = load(n, obj_id);
	if (e->btf && libbpf_get_error(e->btf))
		e->btf = NULL;
	e->next = n->list;
	n->list = e;
	return e->btf;
}

char *bp_btf_names__get(struct bp_btf_names *n, uint32_t obj_id, uint32_t type_id)
{
	static const char tp_prefix[] = "btf_trace_";
	const struct btf_type *t;
	struct btf *btf;
	const char *s;

	if (!type_id)
		return NULL;
	btf = obj_id ? get(n, obj_id) : vmlinux(n);
	if (!btf)
		return NULL;
	t = btf__type_by_id(btf, type_id);
	if (!t)
		return NULL;
	s = btf__name_by_offset(btf, t->name_off);
	if (!s || !*s)
		return NULL;
	if (!strncmp(s, tp_prefix, sizeof(tp_prefix) - 1))
		s += sizeof(tp_prefix) - 1;
	return strdup(s);
}
