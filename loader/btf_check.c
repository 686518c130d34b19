// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * An object's .BTF, checked before libbpf reads it. libbpf 1.1 (Debian's)
 * trusts the type graph once the sizes add up: a member whose type id is
 * past the last type makes its map parsing dereference NULL, a typedef of
 * itself makes it loop. So: the header and sections in bounds, every type
 * whole, of a known kind, its names in the string section, every type id
 * it refers to a type (a function's a prototype), and no chain of
 * typedefs and modifiers that never ends.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>
#include "loader/object.h"
#include "util/log.h"

#define MAX_CHAIN 32

struct btf_view {
	const unsigned char *types;	/* the type section */
	const char *strs;
	__u32 types_len, strs_len;
	__u32 n;			/* types, numbered 1..n */
	__u32 *off;			/* off[id - 1]: where type id starts */
};

static __u32 rd32(const unsigned char *p)
{
	__u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static unsigned int kind_of(__u32 info)
{
	return (info >> 24) & 0x1f;
}

/* Bytes after struct btf_type that a type of this kind and vlen holds;
 * -1 for a kind we do not know. */
static long extra_len(unsigned int kind, __u32 vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return 12;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_DATASEC:
	case BTF_KIND_ENUM64:
		return 12L * vlen;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		return 8L * vlen;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

static const unsigned char *type_at(const struct btf_view *v, __u32 id)
{
	return v->types + v->off[id - 1];
}

/* The chain kinds libbpf follows to the type underneath. */
static bool chain_kind(unsigned int kind)
{
	return kind == BTF_KIND_TYPEDEF || kind == BTF_KIND_VOLATILE || kind == BTF_KIND_CONST ||
	       kind == BTF_KIND_RESTRICT || kind == BTF_KIND_TYPE_TAG;
}

/* Pass 1: where each type starts; each whole and of a known kind. */
static int index_types(struct btf_view *v, char *why, size_t len)
{
	__u32 pos = 0, cap = 0;

	while (pos < v->types_len) {
		__u32 info;
		long extra;

		if (v->types_len - pos < 12) {
			snprintf(why, len, "type %u is cut off by the end of the type section", v->n + 1);
			return -ENOEXEC;
		}
		info = rd32(v->types + pos + 4);
		extra = extra_len(kind_of(info), info & 0xffff);
		if (extra < 0) {
			snprintf(why, len, "type %u is of unknown kind %u", v->n + 1, kind_of(info));
			return -ENOEXEC;
		}
		if ((unsigned long)(v->types_len - pos - 12) < (unsigned long)extra) {
			snprintf(why, len, "type %u (kind %u, %u members) is cut off by the end of the type section",
				 v->n + 1, kind_of(info), info & 0xffff);
			return -ENOEXEC;
		}
		if (v->n == cap) {
			__u32 *o = realloc(v->off, (cap ? cap * 2 : 256) * sizeof(*o));

			if (!o)
				return -ENOMEM;
			v->off = o;
			cap = cap ? cap * 2 : 256;
		}
		v->off[v->n++] = pos;
		pos += 12 + extra;
	}
	return 0;
}

static int check_name(const struct btf_view *v, __u32 id, __u32 name_off, char *why, size_t len)
{
	if (name_off < v->strs_len)
		return 0;
	snprintf(why, len, "type %u has a name at offset %u, past the string section (%u bytes)", id,
		 name_off, v->strs_len);
	return -ENOEXEC;
}

static int check_ref(const struct btf_view *v, __u32 id, __u32 ref, bool void_ok, char *why,
		     size_t len)
{
	if (ref <= v->n && (ref || void_ok))
		return 0;
	snprintf(why, len, "type %u refers to type %u, %s", id, ref,
		 ref ? "past the last type" : "void, where a type must be");
	return -ENOEXEC;
}

/* Pass 2: names and references of type id. */
static int check_type(const struct btf_view *v, __u32 id, char *why, size_t len)
{
	const unsigned char *t = type_at(v, id), *m = t + 12;
	__u32 info = rd32(t + 4), vlen = info & 0xffff, ref = rd32(t + 8);
	unsigned int kind = kind_of(info);
	int err = check_name(v, id, rd32(t), why, len);

	switch (kind) {
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return err ? err : check_ref(v, id, ref, true, why, len);
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return err ? err : check_ref(v, id, ref, false, why, len);
	case BTF_KIND_FUNC:
		if (!err)
			err = check_ref(v, id, ref, false, why, len);
		if (!err && kind_of(rd32(type_at(v, ref) + 4)) != BTF_KIND_FUNC_PROTO) {
			snprintf(why, len, "function type %u has type %u, not a function prototype", id,
				 ref);
			err = -ENOEXEC;
		}
		return err;
	case BTF_KIND_ARRAY:
		if (!err)
			err = check_ref(v, id, rd32(m), false, why, len);
		return err ? err : check_ref(v, id, rd32(m + 4), false, why, len);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (__u32 i = 0; i < vlen && !err; i++, m += 12) {
			err = check_name(v, id, rd32(m), why, len);
			if (!err)
				err = check_ref(v, id, rd32(m + 4), false, why, len);
		}
		return err;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		for (__u32 i = 0; i < vlen && !err; i++, m += kind == BTF_KIND_ENUM ? 8 : 12)
			err = check_name(v, id, rd32(m), why, len);
		return err;
	case BTF_KIND_FUNC_PROTO:
		if (!err)
			err = check_ref(v, id, ref, true, why, len);
		for (__u32 i = 0; i < vlen && !err; i++, m += 8) {
			err = check_name(v, id, rd32(m), why, len);
			/* void: the "..." of a variadic prototype, last */
			if (!err)
				err = check_ref(v, id, rd32(m + 4), i == vlen - 1, why, len);
		}
		return err;
	case BTF_KIND_DATASEC:
		for (__u32 i = 0; i < vlen && !err; i++, m += 12)
			err = check_ref(v, id, rd32(m), false, why, len);
		return err;
	default:
		return err;
	}
}

/* No typedef/modifier chain from id loops. */
static int check_chain(const struct btf_view *v, __u32 id, char *why, size_t len)
{
	__u32 cur = id;

	for (int i = 0; i < MAX_CHAIN; i++) {
		const unsigned char *t;

		if (!cur)
			return 0;
		t = type_at(v, cur);
		if (!chain_kind(kind_of(rd32(t + 4))))
			return 0;
		cur = rd32(t + 8);
	}
	snprintf(why, len, "type %u starts a chain of typedefs and modifiers longer than %d (a loop?)",
		 id, MAX_CHAIN);
	return -ENOEXEC;
}

static int check_header(const unsigned char *data, size_t size, struct btf_view *v, char *why,
			size_t len)
{
	struct btf_header h;
	size_t body;

	if (size < sizeof(h)) {
		snprintf(why, len, "the section is %zu bytes, shorter than the BTF header", size);
		return -ENOEXEC;
	}
	memcpy(&h, data, sizeof(h));
	if (h.magic != BTF_MAGIC || h.version != BTF_VERSION) {
		snprintf(why, len, "magic 0x%x version %u, want 0x%x version %u (this machine's byte order)",
			 h.magic, h.version, BTF_MAGIC, BTF_VERSION);
		return -ENOEXEC;
	}
	if (h.hdr_len < sizeof(h) || h.hdr_len > size) {
		snprintf(why, len, "header length %u out of the section's %zu bytes", h.hdr_len, size);
		return -ENOEXEC;
	}
	body = size - h.hdr_len;
	if (h.type_off > body || body - h.type_off < h.type_len || h.str_off > body ||
	    body - h.str_off < h.str_len || h.type_off % 4) {
		snprintf(why, len, "types at %u+%u or strings at %u+%u out of the %zu bytes after the header",
			 h.type_off, h.type_len, h.str_off, h.str_len, body);
		return -ENOEXEC;
	}
	v->types = data + h.hdr_len + h.type_off;
	v->types_len = h.type_len;
	v->strs = (const char *)data + h.hdr_len + h.str_off;
	v->strs_len = h.str_len;
	if (!v->strs_len || v->strs[0] || v->strs[v->strs_len - 1]) {
		snprintf(why, len, "the string section does not start and end with a NUL byte");
		return -ENOEXEC;
	}
	return 0;
}

int bp_btf__check_raw(const void *data, size_t size, const char *path)
{
	struct btf_view v = {};
	char why[256];
	int err;

	err = check_header(data, size, &v, why, sizeof(why));
	if (!err)
		err = index_types(&v, why, sizeof(why));
	for (__u32 id = 1; id <= v.n && !err; id++)
		err = check_type(&v, id, why, sizeof(why));
	for (__u32 id = 1; id <= v.n && !err; id++)
		err = check_chain(&v, id, why, sizeof(why));
	free(v.off);
	if (err == -ENOEXEC)
		bp_err("'%s' is corrupt: its .BTF section is damaged: %s\n", path, why);
	return err;
}
