// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A generated object's BTF (trace_gen.h), as clang would emit it for
 *
 *	struct bp_trace_0_args { int len; char name[64]; __u64 err; };
 *	int bp_trace_0(void *ctx, struct bp_trace_0_args *a);
 *	struct { __uint(type, BPF_MAP_TYPE_RINGBUF); __uint(max_entries, N); }
 *		trace_events SEC(".maps");
 *
 * The record struct is what the loader reads the record ABI from; the
 * maps' definitions are libbpf's BTF-defined maps (an attribute is a
 * pointer to an array whose length is the value, or to the key's or
 * value's type).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include "trace/trace_gen.h"

static const char *int_name(unsigned int size, bool is_signed)
{
	switch (size) {
	case 1: return is_signed ? "signed char" : "unsigned char";
	case 2: return is_signed ? "short" : "unsigned short";
	case 4: return is_signed ? "int" : "unsigned int";
	default: return is_signed ? "long" : "unsigned long";
	}
}

/* The integer type of that size and sign, added once. */
static int int_type(struct btf *btf, unsigned int size, bool is_signed)
{
	const char *name = int_name(size, is_signed);
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_INT);

	if (id > 0)
		return id;
	return btf__add_int(btf, name, size, is_signed ? BTF_INT_SIGNED : 0);
}

static int char_type(struct btf *btf)
{
	int id = btf__find_by_name_kind(btf, "char", BTF_KIND_INT);

	return id > 0 ? id : btf__add_int(btf, "char", 1, BTF_INT_SIGNED);
}

/* bpfprobe_stack_t (bpfprobe/bpf.h), added once */
static int stack_type(struct btf *btf)
{
	int id = btf__find_by_name_kind(btf, "bpfprobe_stack_t", BTF_KIND_TYPEDEF);
	int u64 = id > 0 ? id : int_type(btf, 8, false);

	if (id > 0 || u64 < 0)
		return u64;
	return btf__add_typedef(btf, "bpfprobe_stack_t", u64);
}

static int member_type(struct btf *btf, const struct bp_trace_member *m)
{
	int elem, index;

	switch (m->kind) {
	case BP_TRACE_SINT:
		return int_type(btf, m->size, true);
	case BP_TRACE_UINT:
	case BP_TRACE_HEX:
		return int_type(btf, m->size, false);
	case BP_TRACE_STACK:
		return stack_type(btf);
	case BP_TRACE_PTR:
		return btf__add_ptr(btf, 0);	/* void * */
	default:
		elem = char_type(btf);
		index = int_type(btf, 4, false);
		if (elem < 0 || index < 0)
			return elem < 0 ? elem : index;
		return btf__add_array(btf, index, elem, m->size);
	}
}

int bp_trace__btf_record(struct btf *btf, const char *name, const struct bp_trace_member *m,
			 int n, int err_off, uint32_t size)
{
	int types[BP_TRACE_MAX_ARGS + 1], sid, err;

	/* the members' types first: a struct's fields follow it directly */
	for (int i = 0; i < n; i++) {
		types[i] = member_type(btf, &m[i]);
		if (types[i] < 0)
			return types[i];
	}
	types[n] = int_type(btf, 8, false);
	if (types[n] < 0)
		return types[n];
	sid = btf__add_struct(btf, name, size);
	if (sid < 0)
		return sid;
	for (int i = 0; i < n; i++) {
		err = btf__add_field(btf, m[i].name, types[i], m[i].off * 8, 0);
		if (err)
			return err;
	}
	if (err_off >= 0) {
		err = btf__add_field(btf, "err", types[n], err_off * 8, 0);
		if (err)
			return err;
	}
	return sid;
}

/* int (*)[v]: a map attribute's value, the type of its field */
static int add_attr(struct btf *btf, __u32 v, int *types, int *n)
{
	int i = int_type(btf, 4, true), arr, ptr;

	arr = i < 0 ? i : btf__add_array(btf, int_type(btf, 4, false), i, v);
	ptr = arr < 0 ? arr : btf__add_ptr(btf, arr);
	if (ptr < 0)
		return ptr;
	types[(*n)++] = ptr;
	return 0;
}

/* A map's definition struct and its VAR; returns the VAR's id. */
static int add_map(struct btf *btf, const struct bp_trace_map_def *d)
{
	static const char *const names[] = { "type", "key", "value", "max_entries" };
	int types[4], n = 0, sid, err, k = 0;
	bool has[4] = { true, d->typed, d->typed, true };

	err = add_attr(btf, d->type, types, &n);
	if (!err && d->typed) {
		int u32 = int_type(btf, 4, false), u64 = int_type(btf, 8, false);

		types[n++] = u32 < 0 ? u32 : btf__add_ptr(btf, u32);
		types[n++] = u64 < 0 ? u64 : btf__add_ptr(btf, u64);
		err = types[n - 2] < 0 ? types[n - 2] : types[n - 1] < 0 ? types[n - 1] : 0;
	}
	if (!err)
		err = add_attr(btf, d->max_entries, types, &n);
	if (err)
		return err;
	sid = btf__add_struct(btf, NULL, d->size);
	if (sid < 0)
		return sid;
	for (int i = 0; i < 4; i++) {
		if (!has[i])
			continue;
		err = btf__add_field(btf, names[i], types[k], k * 64, 0);
		if (err)
			return err;
		k++;
	}
	return btf__add_var(btf, d->name, BTF_VAR_GLOBAL_ALLOCATED, sid);
}

/* The prototype and FUNC of program i. */
static int add_prog(struct btf *btf, const struct bp_trace *t, int i)
{
	const struct bp_trace_prog *p = &t->progs[i];
	char name[64];
	int rec, ret, ctx, arg, proto, err;

	snprintf(name, sizeof(name), "%s_args", p->name);
	rec = bp_trace__btf_record(btf, name, p->members, p->nmembers, p->err_off, p->rec_size);
	if (rec < 0)
		return rec;
	ret = int_type(btf, 4, true);
	ctx = btf__add_ptr(btf, 0);
	arg = btf__add_ptr(btf, rec);
	if (ret < 0 || ctx < 0 || arg < 0)
		return ret < 0 ? ret : ctx < 0 ? ctx : arg;
	proto = btf__add_func_proto(btf, ret);
	if (proto < 0)
		return proto;
	/* the kernel wants every parameter of a FUNC named */
	err = btf__add_func_param(btf, "ctx", ctx);
	if (!err)
		err = btf__add_func_param(btf, "a", arg);
	if (err)
		return err;
	err = btf__add_func(btf, p->name, BTF_FUNC_GLOBAL, proto);
	return err < 0 ? err : 0;
}

struct btf *bp_trace__btf(const struct bp_trace *t, const struct bp_trace_map_def *defs,
			  int nmaps)
{
	struct btf *btf = btf__new_empty();
	int vars[BP_TRACE_NMAPS], sec, err = 0;
	__u32 total = 0;

	if (!btf) {
		errno = ENOMEM;
		return NULL;
	}
	for (int i = 0; i < t->nprogs && !err; i++)
		err = add_prog(btf, t, i);
	for (int i = 0; i < nmaps && !err; i++) {
		vars[i] = add_map(btf, &defs[i]);
		err = vars[i] < 0 ? vars[i] : 0;
		total = defs[i].off + defs[i].size;
	}
	if (!err) {
		sec = btf__add_datasec(btf, ".maps", total);
		err = sec < 0 ? sec : 0;
	}
	for (int i = 0; i < nmaps && !err; i++)
		err = btf__add_datasec_var_info(btf, vars[i], defs[i].off, defs[i].size);
	if (err) {
		btf__free(btf);
		errno = -err;
		return NULL;
	}
	return btf;
}
