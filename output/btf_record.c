// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Our own BTF value walker rather than btf_dump__dump_type_data(): one
 * walk feeds both the text and the JSON form, so field names and values
 * are the same in both.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "output/btf_record.h"

#define MAX_DEPTH 32

/* Skips typedefs, const/volatile/restrict and type tags. */
static const struct btf_type *resolve(const struct btf *btf, __u32 *id)
{
	const struct btf_type *t = btf__type_by_id(btf, *id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t))) {
		*id = t->type;
		t = btf__type_by_id(btf, *id);
	}
	return t;
}

/* Whether id is bpfprobe_stack_t (bpfprobe/bpf.h), through qualifiers
 * and typedefs of it. */
bool bp_btf__is_stack(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf && id ? btf__type_by_id(btf, id) : NULL;

	while (t && (btf_is_typedef(t) || btf_is_mod(t))) {
		if (btf_is_typedef(t) &&
		    !strcmp(btf__name_by_offset(btf, t->name_off), BP_STACK_TYPE_NAME))
			return btf__resolve_size(btf, id) == 8;
		t = btf__type_by_id(btf, t->type);
	}
	return false;
}

/* Little-endian load of an unsigned integer of 1..8 bytes. */
static unsigned long long load_uint(const unsigned char *p, size_t size)
{
	unsigned long long v = 0;

	for (size_t i = size; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static long long sign_extend(unsigned long long v, unsigned int bits)
{
	if (bits >= 64)
		return (long long)v;
	if (v & (1ULL << (bits - 1)))
		v |= ~0ULL << bits;
	return (long long)v;
}

/* bits [bit_off, bit_off + nbits) of p, nbits <= 64 */
static unsigned long long load_bits(const unsigned char *p, unsigned int bit_off, unsigned int nbits)
{
	unsigned int first = bit_off / 8, shift = bit_off % 8;
	unsigned int nbytes = (shift + nbits + 7) / 8;
	unsigned __int128 v = 0;

	for (unsigned int i = nbytes; i-- > 0;)
		v = v << 8 | p[first + i];
	v >>= shift;
	if (nbits < 64)
		v &= (((unsigned __int128)1) << nbits) - 1;
	return (unsigned long long)v;
}

static bool is_plain_char(const struct btf *btf, const struct btf_type *t)
{
	return btf_is_int(t) && t->size == 1 && !strcmp(btf__name_by_offset(btf, t->name_off), "char");
}

/* A char array holds text when nothing before its first NUL is a control
 * character (a tab or newline aside); bytes past 0x7f are text too, which
 * the sinks show as UTF-8 or escape. */
static size_t text_len(const unsigned char *p, size_t n, bool *is_text)
{
	size_t len = strnlen((const char *)p, n);

	*is_text = true;
	for (size_t i = 0; i < len; i++)
		if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n') || p[i] == 0x7f)
			*is_text = false;
	return len;
}

static void write_int(const struct btf_type *t, const unsigned char *p, unsigned int bit_off,
		      unsigned int nbits, struct bp_value_sink *s)
{
	__u8 enc = btf_int_encoding(t);
	unsigned long long v;

	if (nbits > 64) {	/* __int128 */
		s->ops->bytes(s, p + bit_off / 8, nbits / 8);
		return;
	}
	v = load_bits(p, bit_off, nbits);
	if (enc & BTF_INT_BOOL)
		s->ops->boolean(s, v != 0);
	else if (enc & BTF_INT_SIGNED)
		s->ops->sint(s, sign_extend(v, nbits));
	else
		s->ops->uint(s, v);
}

static void write_enum(const struct btf *btf, const struct btf_type *t, const unsigned char *p,
		       struct bp_value_sink *s)
{
	unsigned long long v = load_uint(p, t->size);
	bool sgn = btf_kflag(t);
	int n = btf_vlen(t);

	for (int i = 0; i < n; i++) {
		unsigned long long ev;
		const char *name;

		if (btf_is_enum64(t)) {
			ev = btf_enum64_value(&btf_enum64(t)[i]);
			name = btf__name_by_offset(btf, btf_enum64(t)[i].name_off);
		} else {
			ev = (unsigned long long)(__s64)btf_enum(t)[i].val;
			name = btf__name_by_offset(btf, btf_enum(t)[i].name_off);
		}
		if (t->size < 8)
			ev &= (1ULL << (t->size * 8)) - 1;
		if (ev == v) {
			s->ops->enumerator(s, name);
			return;
		}
	}
	if (sgn)
		s->ops->sint(s, sign_extend(v, t->size * 8));
	else
		s->ops->uint(s, v);
}

static void write_value(const struct btf *btf, __u32 id, const unsigned char *p, size_t avail,
			int depth, struct bp_value_sink *s);

static void write_array(const struct btf *btf, const struct btf_type *t, const unsigned char *p,
			size_t avail, int depth, struct bp_value_sink *s)
{
	const struct btf_array *a = btf_array(t);
	__u32 elem_id = a->type;
	const struct btf_type *et = resolve(btf, &elem_id);
	__s64 esz = btf__resolve_size(btf, a->type);

	if (et && is_plain_char(btf, et)) {
		size_t n = a->nelems < avail ? a->nelems : avail;
		bool is_text;
		size_t len = text_len(p, n, &is_text);

		if (is_text) {
			s->ops->str(s, (const char *)p, len);
			return;
		}
	}
	s->ops->open(s, true);
	for (__u32 i = 0; esz > 0 && i < a->nelems && (i + 1) * (size_t)esz <= avail; i++)
		write_value(btf, a->type, p + i * esz, avail - i * esz, depth + 1, s);
	s->ops->close(s, true);
}

/* The members of a struct or union; those of anonymous ones inline. */
static void write_members(const struct btf *btf, const struct btf_type *t, const unsigned char *p,
			  size_t avail, int depth, struct bp_value_sink *s)
{
	const struct btf_member *m = btf_members(t);
	int n = btf_vlen(t);

	for (int i = 0; i < n && depth <= MAX_DEPTH; i++, m++) {
		__u32 bit_off = btf_member_bit_offset(t, i);
		__u32 bits = btf_member_bitfield_size(t, i);
		const char *name = btf__name_by_offset(btf, m->name_off);
		__u32 mid = m->type;
		const struct btf_type *mt = resolve(btf, &mid);
		__s64 msz = btf__resolve_size(btf, m->type);

		if (!mt || msz < 0)
			continue;
		if (bits) {
			if ((bit_off + bits + 7) / 8 > avail)
				continue;
		} else if (bit_off / 8 + (size_t)msz > avail) {
			continue;
		}
		if ((!name || !*name) && btf_is_composite(mt) && !bits) {
			write_members(btf, mt, p + bit_off / 8, avail - bit_off / 8, depth + 1, s);
			continue;
		}
		s->ops->member(s, name ? name : "");
		if (bits && btf_is_int(mt))
			write_int(mt, p, bit_off, bits, s);
		else if (bits && btf_is_any_enum(mt))
			s->ops->uint(s, load_bits(p, bit_off, bits));
		else
			write_value(btf, m->type, p + bit_off / 8, avail - bit_off / 8, depth + 1, s);
	}
}

static void write_composite(const struct btf *btf, const struct btf_type *t, const unsigned char *p,
			    size_t avail, int depth, struct bp_value_sink *s)
{
	s->ops->open(s, false);
	write_members(btf, t, p, avail, depth, s);
	s->ops->close(s, false);
}

static void write_value(const struct btf *btf, __u32 id, const unsigned char *p, size_t avail,
			int depth, struct bp_value_sink *s)
{
	const struct btf_type *t;
	__s64 size;

	if (s->stacks && s->ops->stack && avail >= 8 && bp_btf__is_stack(btf, id)) {
		s->ops->stack(s, load_uint(p, 8));
		return;
	}
	t = resolve(btf, &id);
	size = btf__resolve_size(btf, id);
	if (!t || depth > MAX_DEPTH || size < 0 || (size_t)size > avail) {
		s->ops->bytes(s, p, avail);
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		write_int(t, p, btf_int_offset(t), btf_int_bits(t), s);
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		write_enum(btf, t, p, s);
		break;
	case BTF_KIND_PTR:
		s->ops->ptr(s, load_uint(p, size));
		break;
	case BTF_KIND_FLOAT:
		if (size == sizeof(float)) {
			float f;

			memcpy(&f, p, sizeof(f));
			s->ops->real(s, f);
		} else if (size == sizeof(double)) {
			double d;

			memcpy(&d, p, sizeof(d));
			s->ops->real(s, d);
		} else {
			s->ops->bytes(s, p, size);
		}
		break;
	case BTF_KIND_ARRAY:
		write_array(btf, t, p, avail, depth, s);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		write_composite(btf, t, p, avail, depth, s);
		break;
	default:
		s->ops->bytes(s, p, size);
		break;
	}
}

bool bp_btf_value__typed(const struct bp_typed *v)
{
	__s64 size;

	if (!v->btf || !v->type_id)
		return false;
	size = btf__resolve_size(v->btf, v->type_id);
	return size > 0 && (size_t)size <= v->size;
}

void bp_btf_value__write(const struct bp_typed *v, struct bp_value_sink *s)
{
	s->stacks = v->stacks;
	if (!bp_btf_value__typed(v)) {
		s->ops->bytes(s, v->data, v->size);
		return;
	}
	write_value(v->btf, v->type_id, v->data, v->size, 0, s);
}

__u32 bp_btf_record__type(const struct btf *btf, const char *map_name)
{
	char want[256];
	__u32 n;

	if (!btf || !map_name)
		return 0;
	snprintf(want, sizeof(want), BP_RECORD_VAR_PREFIX "%s", map_name);
	n = btf__type_cnt(btf);
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		__u32 tid, ptr;

		if (!btf_is_var(t) || strcmp(btf__name_by_offset(btf, t->name_off), want))
			continue;
		/* a pointer to the record type, or the type itself */
		tid = t->type;
		ptr = tid;
		t = resolve(btf, &ptr);
		return t && btf_is_ptr(t) ? t->type : tid;
	}
	return 0;
}

/* S when prog is int prog(void *ctx, struct S *a), else 0. */
static __u32 program_record(const struct btf *btf, const struct bpf_program *prog)
{
	int id = btf__find_by_name_kind(btf, bpf_program__name(prog), BTF_KIND_FUNC);
	const struct btf_type *fn = id > 0 ? btf__type_by_id(btf, id) : NULL;
	const struct btf_type *proto = fn ? btf__type_by_id(btf, fn->type) : NULL;
	const struct btf_type *t;
	__u32 tid;

	if (!proto || !btf_is_func_proto(proto) || btf_vlen(proto) != 2)
		return 0;
	tid = btf_params(proto)[1].type;
	t = resolve(btf, &tid);
	if (!t || !btf_is_ptr(t))
		return 0;
	tid = t->type;
	t = resolve(btf, &tid);
	return t && btf_is_struct(t) ? tid : 0;
}

__u32 bp_btf_record__abi_type(const struct bpf_object *obj)
{
	const struct btf *btf = bpf_object__btf(obj);
	struct bpf_program *prog;
	struct bpf_map *map;
	__u32 type = 0;
	int untyped = 0;

	if (!btf)
		return 0;
	bpf_object__for_each_map(map, obj) {
		enum bpf_map_type mt = bpf_map__type(map);

		if ((mt == BPF_MAP_TYPE_RINGBUF || mt == BPF_MAP_TYPE_PERF_EVENT_ARRAY) &&
		    !bp_btf_record__type(btf, bpf_map__name(map)))
			untyped++;
	}
	if (untyped != 1)
		return 0;
	bpf_object__for_each_program(prog, obj) {
		__u32 t = program_record(btf, prog);

		if (t && type && t != type)
			return 0;
		if (t)
			type = t;
	}
	return type;
}

/* Adds the leaves of type id at offset off of every CPU copy into out. */
static int sum_value(const struct btf *btf, __u32 id, const unsigned char *percpu, int ncpu,
		     size_t stride, unsigned char *out, size_t off, int depth)
{
	const struct btf_type *t = resolve(btf, &id);
	__s64 size = btf__resolve_size(btf, id);

	if (!t || size < 0 || depth > MAX_DEPTH)
		return -EOPNOTSUPP;
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		unsigned long long acc = 0;

		if (size > 8 || btf_int_offset(t) || btf_int_bits(t) != size * 8 ||
		    (btf_int_encoding(t) & (BTF_INT_BOOL | BTF_INT_CHAR)) || is_plain_char(btf, t))
			return -EOPNOTSUPP;
		/* two's complement: unsigned wrap-around adds signed values too */
		for (int c = 0; c < ncpu; c++)
			acc += load_uint(percpu + c * stride + off, size);
		for (__s64 i = 0; i < size; i++)
			out[off + i] = acc >> (8 * i);
		return 0;
	}
	case BTF_KIND_FLOAT: {
		double acc = 0;

		if (size == sizeof(double)) {
			for (int c = 0; c < ncpu; c++) {
				double d;

				memcpy(&d, percpu + c * stride + off, sizeof(d));
				acc += d;
			}
			memcpy(out + off, &acc, sizeof(acc));
			return 0;
		}
		if (size == sizeof(float)) {
			float f, facc;

			for (int c = 0; c < ncpu; c++) {
				memcpy(&f, percpu + c * stride + off, sizeof(f));
				acc += f;
			}
			facc = acc;
			memcpy(out + off, &facc, sizeof(facc));
			return 0;
		}
		return -EOPNOTSUPP;
	}
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);
		__s64 esz = btf__resolve_size(btf, a->type);

		if (esz <= 0)
			return -EOPNOTSUPP;
		for (__u32 i = 0; i < a->nelems; i++) {
			int err = sum_value(btf, a->type, percpu, ncpu, stride, out, off + i * esz,
					    depth + 1);
			if (err)
				return err;
		}
		return 0;
	}
	case BTF_KIND_STRUCT: {
		const struct btf_member *m = btf_members(t);

		for (int i = 0; i < btf_vlen(t); i++, m++) {
			int err;

			if (btf_member_bitfield_size(t, i))
				return -EOPNOTSUPP;
			err = sum_value(btf, m->type, percpu, ncpu, stride, out,
					off + btf_member_bit_offset(t, i) / 8, depth + 1);
			if (err)
				return err;
		}
		return 0;
	}
	default:
		return -EOPNOTSUPP;
	}
}

int bp_btf_value__sum(const struct btf *btf, __u32 type_id, const void *percpu, int ncpu,
		      size_t stride, void *out, size_t size)
{
	__s64 tsize;
	int err;

	if (!btf || !type_id)
		return -EOPNOTSUPP;
	tsize = btf__resolve_size(btf, type_id);
	if (tsize <= 0 || (size_t)tsize > size || (size_t)tsize > stride)
		return -EOPNOTSUPP;
	/* start from CPU 0's copy so padding bytes are defined */
	memcpy(out, percpu, size);
	err = sum_value(btf, type_id, percpu, ncpu, stride, out, 0, 0);
	if (err)
		memcpy(out, percpu, size);
	return err;
}
