// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A BTF forward declaration (BTF_KIND_FWD: `struct sock;` with no members)
 * completed as the DWARF resolver completes a declared-only type
 * (probes/dwarf/type_complete.c): from the struct or union of the same
 * name in the same BTF, the base's types included for a module's or a
 * map's split BTF. BTF has no scopes; names are the whole key. Several
 * definitions of one layout are one; different ones are an error naming
 * each; none is the incomplete-type error, saying none is defined.
 *
 * The kernel's BTF is deduplicated: a forward declaration is left only
 * where no definition, or more than one, matched it, so in vmlinux this
 * mostly says which. A map's BTF comes from a BPF object, where clang
 * keeps a forward declaration of a type the object never defines.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

#include "probes/kernel/kernel.h"
#include "probes/value/value.h"

#define MAX_DEFS	8
#define MAX_LISTED	4

static const char *name_of(const struct btf *btf, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(btf, t->name_off);

	return n && *n ? n : NULL;
}

/* Two structs (or unions) of one layout: size, and members by name,
 * place, bits and type as C writes it. */
static bool same_layout(const struct btf *btf, __u32 a, __u32 b)
{
	const struct btf_type *x = btf__type_by_id(btf, a), *y = btf__type_by_id(btf, b);
	const struct btf_member *mx, *my;
	char nx[128], ny[128];
	int i;

	if (x->size != y->size || btf_vlen(x) != btf_vlen(y))
		return false;
	mx = btf_members(x);
	my = btf_members(y);
	for (i = 0; i < btf_vlen(x); i++, mx++, my++) {
		const char *a_name = btf__name_by_offset(btf, mx->name_off);
		const char *b_name = btf__name_by_offset(btf, my->name_off);

		if (strcmp(a_name ? a_name : "", b_name ? b_name : "") ||
		    btf_member_bit_offset(x, i) != btf_member_bit_offset(y, i) ||
		    btf_member_bitfield_size(x, i) != btf_member_bitfield_size(y, i))
			return false;
		if (mx->type == my->type)
			continue;
		bp_kbtf__type_name(btf, mx->type, nx, sizeof(nx));
		bp_kbtf__type_name(btf, my->type, ny, sizeof(ny));
		if (strcmp(nx, ny))
			return false;
	}
	return true;
}

int bp_kbtf__complete(const struct btf *btf, __u32 fwd, const struct bp_arg_ctx *c,
		      __u32 *out, char *from, size_t fromlen)
{
	const struct btf_type *f = btf__type_by_id(btf, fwd), *t;
	__u32 n = btf__type_cnt(btf), id, defs[MAX_DEFS];
	int want, ndefs = 0, i, k;
	char tname[128], list[256] = "";
	const char *name;
	size_t l = 0;

	bp_kbtf__type_name(btf, fwd, tname, sizeof(tname));
	name = f ? name_of(btf, f) : NULL;
	if (!name) {
		bp_arg_fail(c, "%s is only declared in BTF (no members known)", tname);
		return -ENOENT;
	}
	want = btf_kflag(f) ? BTF_KIND_UNION : BTF_KIND_STRUCT;
	for (id = 1; id < n; id++) {
		t = btf__type_by_id(btf, id);
		if (!t || btf_kind(t) != want || !t->name_off || strcmp(name_of(btf, t) ?: "", name))
			continue;
		for (k = 0; k < ndefs && !same_layout(btf, defs[k], id); k++)
			;
		if (k == ndefs && ndefs < MAX_DEFS)
			defs[ndefs++] = id;
	}
	if (!ndefs) {
		bp_arg_fail(c, "%s is only declared in BTF (no members known), and no %s of that name is defined in it",
			    tname, want == BTF_KIND_UNION ? "union" : "struct");
		return -ENOENT;
	}
	if (ndefs > 1) {
		for (i = 0; i < ndefs && i < MAX_LISTED && l < sizeof(list); i++)
			l += snprintf(list + l, sizeof(list) - l, "%stype [%u], %u bytes",
				      i ? "; " : "", defs[i], btf__type_by_id(btf, defs[i])->size);
		if (ndefs > MAX_LISTED && l < sizeof(list))
			snprintf(list + l, sizeof(list) - l, "; ...");
		bp_arg_fail(c, "%s is only declared here in BTF, and %d different definitions of it are: %s",
			    tname, ndefs, list);
		return -ENOTUNIQ;
	}
	*out = defs[0];
	if (from && fromlen)
		snprintf(from, fromlen, "%s completed from BTF type [%u]", tname, defs[0]);
	return 0;
}
