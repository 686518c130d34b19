// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Kernel BTF types: qualifiers peeled, kinds, C-like names (kernel.h). */
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

#include "probes/kernel/kernel.h"

#define MAX_TYPE_DEPTH	32

/* --- types ---------------------------------------------------------------- */

static bool is_modifier(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return true;
	default:
		return false;
	}
}

/* Strips typedefs, qualifiers and type tags: 0 is void. */
__u32 bp_kbtf__peel(const struct btf *btf, __u32 id)
{
	int depth;

	for (depth = 0; id && depth < MAX_TYPE_DEPTH; depth++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!t || !is_modifier(t))
			break;
		id = t->type;
	}
	return id;
}

/* The kind of a peeled type id; 0 (BTF_KIND_UNKN) for void. */
int bp_kbtf__kind(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;

	return t ? btf_kind(t) : BTF_KIND_UNKN;
}

bool bp_kbtf__is_record(int kind)
{
	return kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION;
}

static const char *type_str(const struct btf *btf, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(btf, t->name_off);

	return n && *n ? n : NULL;
}

static bool ends_with_star(const char *s)
{
	size_t n = strlen(s);

	return n && s[n - 1] == '*';
}

/* C-like names, as probes/dwarf/types.c writes them: "struct file *", "int[4]". */
static void type_name(const struct btf *btf, __u32 id, char *buf, size_t len, int depth)
{
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;
	char inner[256];
	const char *n, *kw = NULL;

	if (!t) {
		snprintf(buf, len, "void");
		return;
	}
	if (depth > MAX_TYPE_DEPTH) {
		snprintf(buf, len, "...");
		return;
	}
	n = type_str(btf, t);
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
		kw = "struct";
		break;
	case BTF_KIND_UNION:
		kw = "union";
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		kw = "enum";
		break;
	case BTF_KIND_FWD:
		kw = btf_kflag(t) ? "union" : "struct";
		break;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT: {
		const char *q = btf_is_const(t) ? "const" :
				btf_is_volatile(t) ? "volatile" : "restrict";

		type_name(btf, t->type, inner, sizeof(inner), depth + 1);
		if (ends_with_star(inner) || btf_is_restrict(t))
			snprintf(buf, len, "%s %s", inner, q);
		else
			snprintf(buf, len, "%s %s", q, inner);
		return;
	}
	case BTF_KIND_TYPE_TAG:
		type_name(btf, t->type, buf, len, depth + 1);
		return;
	case BTF_KIND_PTR: {
		const struct btf_type *target = btf__type_by_id(btf, t->type);

		if (target && btf_is_func_proto(target)) {
			type_name(btf, target->type, inner, sizeof(inner), depth + 1);
			snprintf(buf, len, "%s (*)(...)", inner);
			return;
		}
		type_name(btf, t->type, inner, sizeof(inner), depth + 1);
		snprintf(buf, len, "%s%s*", inner, ends_with_star(inner) ? "" : " ");
		return;
	}
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);

		type_name(btf, a->type, inner, sizeof(inner), depth + 1);
		snprintf(buf, len, "%s[%u]", inner, a->nelems);
		return;
	}
	case BTF_KIND_FUNC_PROTO:
		type_name(btf, t->type, inner, sizeof(inner), depth + 1);
		snprintf(buf, len, "%s (...)", inner);
		return;
	default:
		break;
	}
	if (kw)
		snprintf(buf, len, "%s %s", kw, n ? n : "<anonymous>");
	else
		snprintf(buf, len, "%s", n ? n : "?");
}

void bp_kbtf__type_name(const struct btf *btf, __u32 id, char *buf, size_t len)
{
	if (len)
		type_name(btf, id, buf, len, 0);
}
