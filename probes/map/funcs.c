// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel functions that update and delete elements of a map, by what
 * calls them:
 *
 *  - map->ops->map_update_elem / ->map_delete_elem (ops.c finds them for
 *    the very map): BPF programs' bpf_map_update_elem() and
 *    bpf_map_delete_elem() (the verifier calls them directly), and the
 *    bpf() syscall's BPF_MAP_UPDATE_ELEM / BPF_MAP_DELETE_ELEM and their
 *    batches (generic_map_update_batch and generic_map_delete_batch call
 *    them per element);
 *  - the paths that bypass the ops: bpf() updates of per-CPU maps, which
 *    take every CPU's value (bpf_percpu_hash_update(),
 *    bpf_percpu_array_update()), and BPF_MAP_LOOKUP_AND_DELETE_ELEM on hash
 *    maps (each type's *_lookup_and_delete_elem()).
 *
 * Only the types whose ops bpfprobe knows the callers of are traced:
 * hash, array, their per-CPU and LRU kinds. Each function is checked in
 * kallsyms and kernel BTF: it must exist and take (struct bpf_map *, key
 * pointer[, value pointer, u64 flags]).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "probes/kernel/kallsyms.h"
#include "probes/kernel/kernel.h"
#include "probes/map/map.h"

#define CALL_BASE	"__bpf_call_base"
#define MAX_FUNCS	4

#define VIA_UPDATE	"BPF programs' bpf_map_update_elem() and the bpf() syscall (BPF_MAP_UPDATE_ELEM, BPF_MAP_UPDATE_BATCH)"
#define VIA_UPDATE_PCPU	"BPF programs' bpf_map_update_elem() (the value of the CPU it runs on)"
#define VIA_DELETE	"BPF programs' bpf_map_delete_elem() and the bpf() syscall (BPF_MAP_DELETE_ELEM, BPF_MAP_DELETE_BATCH)"
#define VIA_SYS_PCPU	"the bpf() syscall on a per-CPU map (BPF_MAP_UPDATE_ELEM, BPF_MAP_UPDATE_BATCH: every CPU's value)"
#define VIA_LOOKUP_DEL	"the bpf() syscall's BPF_MAP_LOOKUP_AND_DELETE_ELEM"

static const uint32_t known_types[] = {
	BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_PERCPU_HASH,
	BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_LRU_HASH, BPF_MAP_TYPE_LRU_PERCPU_HASH,
};

/* A function that bypasses the ops, called by name in kernel/bpf/. */
struct bypass {
	uint32_t type;
	enum bp_map_op op;
	const char *name;
	bool value_percpu;
	const char *via;
};

static const struct bypass bypasses[] = {
	{ BPF_MAP_TYPE_PERCPU_HASH, BP_MAP_UPDATE, "bpf_percpu_hash_update", true, VIA_SYS_PCPU },
	{ BPF_MAP_TYPE_LRU_PERCPU_HASH, BP_MAP_UPDATE, "bpf_percpu_hash_update", true, VIA_SYS_PCPU },
	{ BPF_MAP_TYPE_PERCPU_ARRAY, BP_MAP_UPDATE, "bpf_percpu_array_update", true, VIA_SYS_PCPU },
	{ BPF_MAP_TYPE_HASH, BP_MAP_DELETE, "htab_map_lookup_and_delete_elem", false, VIA_LOOKUP_DEL },
	{ BPF_MAP_TYPE_PERCPU_HASH, BP_MAP_DELETE, "htab_percpu_map_lookup_and_delete_elem", false,
	  VIA_LOOKUP_DEL },
	{ BPF_MAP_TYPE_LRU_HASH, BP_MAP_DELETE, "htab_lru_map_lookup_and_delete_elem", false,
	  VIA_LOOKUP_DEL },
	{ BPF_MAP_TYPE_LRU_PERCPU_HASH, BP_MAP_DELETE, "htab_lru_percpu_map_lookup_and_delete_elem",
	  false, VIA_LOOKUP_DEL },
};

static bool known_type(uint32_t type)
{
	for (size_t i = 0; i < sizeof(known_types) / sizeof(known_types[0]); i++)
		if (known_types[i] == type)
			return true;
	return false;
}

static bool is_percpu(uint32_t type)
{
	return type == BPF_MAP_TYPE_PERCPU_HASH || type == BPF_MAP_TYPE_PERCPU_ARRAY ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static const char *op_name(enum bp_map_op op)
{
	return op == BP_MAP_UPDATE ? "update" : "delete";
}

/* --- BTF ------------------------------------------------------------------ */

static const struct btf_type *resolved(const struct btf *btf, __u32 id)
{
	int r = id ? btf__resolve_type(btf, id) : 0;

	return r > 0 ? btf__type_by_id(btf, r) : NULL;
}

/* A pointer to anything (void included); to struct bpf_map when map. */
static bool is_pointer(const struct btf *btf, __u32 id, bool map)
{
	const struct btf_type *t = resolved(btf, id), *target;

	if (!t || !btf_is_ptr(t))
		return false;
	if (!map)
		return true;
	target = resolved(btf, t->type);
	return target && btf_is_struct(target) &&
	       !strcmp(btf__name_by_offset(btf, target->name_off), "bpf_map");
}

static bool is_u64(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = resolved(btf, id);

	return t && btf_is_int(t) && t->size == 8;
}

int bp_map_funcs__id_offset(const struct btf *vmlinux)
{
	__s32 id = btf__find_by_name_kind(vmlinux, "bpf_map", BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(vmlinux, id) : NULL;
	const struct btf_member *m;

	if (!t)
		return -ENOENT;
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(vmlinux, m->name_off), "id") &&
		    !btf_member_bitfield_size(t, i))
			return btf_member_bit_offset(t, i) / 8;
	return -ENOENT;
}

/* The function's FUNC in kernel BTF, its parameters as f expects. */
static int check_btf(const struct bp_map_kernel *k, struct bp_map_func *f, struct bp_diag *d)
{
	const struct btf_type *fn, *proto;
	const struct btf_param *p;
	__u32 ids[MAX_FUNCS];
	int n = bp_kbtf__find_funcs(k->vmlinux, f->name, ids, MAX_FUNCS);
	bool ok;

	if (n <= 0) {
		bp_diag__set(d, "kernel function %s (called by %s) has no BTF entry in /sys/kernel/btf/vmlinux, so its parameters cannot be checked nor an fentry program attached to it",
			     f->name, f->via);
		return -ENOENT;
	}
	if (!bp_kbtf__same_protos(k->vmlinux, ids, n)) {
		bp_diag__set(d, "kernel BTF has %d functions called %s with different prototypes: bpfprobe cannot tell which one %s calls",
			     n, f->name, f->via);
		return -EINVAL;
	}
	fn = btf__type_by_id(k->vmlinux, ids[0]);
	proto = btf__type_by_id(k->vmlinux, fn->type);
	p = btf_params(proto);
	ok = btf_vlen(proto) > f->map_arg && btf_vlen(proto) > f->key_arg &&
	     btf_vlen(proto) > f->value_arg && btf_vlen(proto) > f->flags_arg &&
	     is_pointer(k->vmlinux, p[f->map_arg].type, true) &&
	     is_pointer(k->vmlinux, p[f->key_arg].type, false) &&
	     (f->value_arg < 0 || is_pointer(k->vmlinux, p[f->value_arg].type, false)) &&
	     (f->flags_arg < 0 || is_u64(k->vmlinux, p[f->flags_arg].type));
	if (!ok) {
		bp_diag__set(d, "kernel function %s (called by %s) does not take (struct bpf_map *map, void *key%s) on this kernel (%s): bpfprobe does not know where it gets the key%s",
			     f->name, f->via, f->op == BP_MAP_UPDATE ? ", void *value, u64 flags" : "",
			     k->release, f->op == BP_MAP_UPDATE ? ", value and flags" : "");
		return -EINVAL;
	}
	f->btf_id = ids[0];
	return 0;
}

/* --- kallsyms ------------------------------------------------------------- */

static void init_func(struct bp_map_func *f, enum bp_map_op op, const char *via)
{
	memset(f, 0, sizeof(*f));
	f->op = op;
	f->via = via;
	f->map_arg = 0;
	f->key_arg = 1;
	f->value_arg = op == BP_MAP_UPDATE ? 2 : -1;
	f->flags_arg = op == BP_MAP_UPDATE ? 3 : -1;
}

static void set_unique(const struct bp_map_kernel *k, struct bp_map_func *f)
{
	const struct bp_ksym *syms;

	f->unique = bp_kallsyms__find(k->ksyms, f->name, NULL, &syms) == 1;
}

/* The ops' function at addr, named by kallsyms. */
static int name_ops_func(const struct bp_map_kernel *k, struct bp_map_func *f, uint64_t addr,
			 const char *helper, struct bp_diag *d)
{
	const struct bp_ksym *syms;
	int n = bp_kallsyms__at(k->ksyms, addr, &syms), i;

	for (i = 0; i < n && (syms[i].module || strchr(syms[i].name, '.')); i++)
		;
	if (i == n) {
		bp_diag__set(d, "the kernel function the map's ops call for %s (at 0x%llx) has %s in /proc/kallsyms",
			     op_name(f->op), (unsigned long long)addr,
			     n ? "only a compiler-made clone's name" : "no name");
		return -ENOENT;
	}
	if (!strcmp(syms[i].name, helper)) {
		bp_diag__set(d, "the verifier did not turn %s() into a direct call of the map's own function (it does with the BPF JIT on: sysctl net.core.bpf_jit_enable=1), so bpfprobe cannot tell which function %ss this map's elements",
			     helper, op_name(f->op));
		return -EOPNOTSUPP;
	}
	snprintf(f->name, sizeof(f->name), "%s", syms[i].name);
	f->addr = addr;
	set_unique(k, f);
	return 0;
}

/* A bypass of the ops by name; 1 when this kernel has none (warned). */
static int find_bypass(const struct bp_map_kernel *k, const struct bypass *b,
		       struct bp_map_func *f, struct bp_diag *d)
{
	const struct bp_ksym *syms;

	init_func(f, b->op, b->via);
	f->value_percpu = b->value_percpu;
	snprintf(f->name, sizeof(f->name), "%s", b->name);
	if (bp_kallsyms__find(k->ksyms, b->name, "vmlinux", &syms) < 1) {
		bp_diag__warn(d, NULL, "%ss through %s are not seen: this kernel (%s) has no function %s",
			      op_name(b->op), b->via, k->release, b->name);
		return 1;
	}
	f->addr = syms[0].addr;
	set_unique(k, f);
	return 0;
}

int bp_map_funcs__find(const struct bp_map_kernel *k, const struct bp_map_target *t,
		       enum bp_map_op op, struct bp_map_func **out, struct bp_diag *d)
{
	const struct bp_ksym *syms;
	struct bp_map_func *fs;
	uint64_t addr[2];
	int n = 0, err;
	char tbuf[32];

	if (!known_type(t->info.type)) {
		bp_diag__set(d, "map %u '%s' is a %s map: bpfprobe knows which kernel functions update and delete elements only of hash, array, percpu_hash, percpu_array, lru_hash and lru_percpu_hash maps (kernel %s)",
			     t->info.id, t->info.name,
			     bp_map_type__name(t->info.type, tbuf, sizeof(tbuf)), k->release);
		return -EOPNOTSUPP;
	}
	if (bp_kallsyms__find(k->ksyms, CALL_BASE, "vmlinux", &syms) != 1 || !syms[0].addr) {
		bp_diag__set(d, "no %s in /proc/kallsyms (or its address is hidden: kernel.kptr_restrict): the functions the map's ops call cannot be found",
			     CALL_BASE);
		return -ENOENT;
	}
	err = bp_map_ops__resolve(t, syms[0].addr, &addr[0], &addr[1], d);
	if (err)
		return err;
	fs = calloc(MAX_FUNCS, sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	init_func(&fs[0], op, op == BP_MAP_UPDATE ?
		  (is_percpu(t->info.type) ? VIA_UPDATE_PCPU : VIA_UPDATE) : VIA_DELETE);
	err = name_ops_func(k, &fs[0], op == BP_MAP_UPDATE ? addr[0] : addr[1],
			    op == BP_MAP_UPDATE ? "bpf_map_update_elem" : "bpf_map_delete_elem", d);
	if (!err)
		err = check_btf(k, &fs[n++], d);
	for (size_t i = 0; !err && i < sizeof(bypasses) / sizeof(bypasses[0]); i++) {
		if (bypasses[i].type != t->info.type || bypasses[i].op != op)
			continue;
		err = find_bypass(k, &bypasses[i], &fs[n], d);
		if (!err)
			err = check_btf(k, &fs[n++], d);
		else if (err == 1)
			err = 0;
	}
	if (err) {
		free(fs);
		return err;
	}
	*out = fs;
	return n;
}
