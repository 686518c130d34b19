// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Where a task's root directory is, from the kernel's BTF: the offsets the
 * exec program reads to tell a process that entered a chroot or a mount
 * namespace (prologue/follow_progs.h). Layouts differ between kernels and
 * configurations (randomized structs), so they are never assumed.
 */
#include <errno.h>
#include <string.h>
#include <bpf/btf.h>

#include "loader/follow.h"
#include "util/log.h"

/* The byte offset of member name in struct type id, looking into
 * anonymous structs and unions; -ENOENT when there is none. */
static int member_offset(const struct btf *btf, __u32 id, const char *name, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	int off;

	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_composite(t) || depth > 4)
		return -ENOENT;
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *mname = btf__name_by_offset(btf, m->name_off);
		__u32 bits = btf_member_bit_offset(t, i);

		if (bits % 8)
			continue;
		if (mname && !strcmp(mname, name))
			return bits / 8;
		if (mname && *mname)
			continue;
		off = member_offset(btf, m->type, name, depth + 1);
		if (off >= 0)
			return bits / 8 + off;
	}
	return -ENOENT;
}

static int struct_member(const struct btf *btf, const char *type, const char *name)
{
	int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);

	return id < 0 ? -ENOENT : member_offset(btf, id, name, 0);
}

int bp_task_btf__offsets(struct bp_task_offsets *o)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int mnt, dentry, err = 0;

	memset(o, 0, sizeof(*o));
	if (!btf) {
		bp_info("no kernel BTF: a followed process that enters another root is not held at its exec\n");
		return -ENOENT;
	}
	o->task_fs = struct_member(btf, "task_struct", "fs");
	o->task_parent = struct_member(btf, "task_struct", "real_parent");
	o->fs_root = struct_member(btf, "fs_struct", "root");
	mnt = struct_member(btf, "path", "mnt");
	dentry = struct_member(btf, "path", "dentry");
	/* the program compares struct path as { mnt; dentry; } */
	if (o->task_fs <= 0 || o->task_parent <= 0 || o->fs_root < 0 || mnt != 0 || dentry != 8) {
		bp_info("kernel BTF: task_struct.fs, .real_parent, fs_struct.root or struct path not as expected: a followed process that enters another root is not held at its exec\n");
		memset(o, 0, sizeof(*o));
		err = -ENOENT;
	}
	btf__free(btf);
	return err;
}
