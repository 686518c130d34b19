// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * loader/btf_check.c: .BTF sections built by hand, one defect each, that
 * libbpf 1.1 crashes or hangs on (a member of a type past the last, a
 * typedef of itself), or reads out of bounds; and sound ones it accepts.
 */
#include <errno.h>
#include <stdint.h>
#include <linux/btf.h>
#include <bpfprobe/bpfprobe.h>
#include "loader/object.h"
#include "test.h"

/* A BTF section under construction: header, types, strings "\0int\0s\0x\0". */
struct blob {
	unsigned char buf[1024];
	uint32_t types[128];
	int ntypes;
};

static const char strs[] = "\0int\0s\0x";	/* names at 1, 5, 7 */

static void add(struct blob *b, uint32_t v)
{
	b->types[b->ntypes++] = v;
}

static void add_type(struct blob *b, uint32_t name, unsigned int kind, uint32_t vlen, uint32_t ref)
{
	add(b, name);
	add(b, (kind << 24) | vlen);
	add(b, ref);
}

/* Lays the blob out; returns its size. */
static size_t build(struct blob *b)
{
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(h),
		.type_off = 0, .type_len = b->ntypes * 4,
		.str_off = b->ntypes * 4, .str_len = sizeof(strs),
	};

	memcpy(b->buf, &h, sizeof(h));
	memcpy(b->buf + sizeof(h), b->types, h.type_len);
	memcpy(b->buf + sizeof(h) + h.type_len, strs, sizeof(strs));
	return sizeof(h) + h.type_len + sizeof(strs);
}

/* 1: int; 2: struct s { int x; } with member type member_type */
static void struct_with_member(struct blob *b, uint32_t member_type)
{
	add_type(b, 1, BTF_KIND_INT, 0, 4);
	add(b, 32);				/* bits */
	add_type(b, 5, BTF_KIND_STRUCT, 1, 4);
	add(b, 7);
	add(b, member_type);
	add(b, 0);
}

static int check(struct blob *b)
{
	size_t n = build(b);

	return bp_btf__check_raw(b->buf, n, "test.o");
}

static void test_sound(void)
{
	struct blob b = {};

	struct_with_member(&b, 1);
	add_type(&b, 0, BTF_KIND_PTR, 0, 2);		/* 3: struct s * */
	add_type(&b, 5, BTF_KIND_TYPEDEF, 0, 3);	/* 4: typedef */
	add_type(&b, 0, BTF_KIND_FUNC_PROTO, 2, 1);	/* 5: int (s *, ...) */
	add(&b, 0);
	add(&b, 4);
	add(&b, 0);
	add(&b, 0);
	add_type(&b, 7, BTF_KIND_FUNC, 0, 5);		/* 6: func */
	CHECK_INT(check(&b), 0);
}

static void test_member_past_last_type(void)
{
	struct blob b = {};

	struct_with_member(&b, 133);
	CHECK_INT(check(&b), -ENOEXEC);
}

static void test_typedef_loop(void)
{
	struct blob b = {};

	add_type(&b, 1, BTF_KIND_TYPEDEF, 0, 2);
	add_type(&b, 5, BTF_KIND_CONST, 0, 1);
	CHECK_INT(check(&b), -ENOEXEC);
}

static void test_func_not_proto(void)
{
	struct blob b = {};

	struct_with_member(&b, 1);
	add_type(&b, 7, BTF_KIND_FUNC, 0, 1);		/* a function of type int */
	CHECK_INT(check(&b), -ENOEXEC);
}

static void test_unknown_kind(void)
{
	struct blob b = {};

	add_type(&b, 1, 30, 0, 0);
	CHECK_INT(check(&b), -ENOEXEC);
}

static void test_type_cut_off(void)
{
	struct blob b = {};

	add_type(&b, 5, BTF_KIND_STRUCT, 3, 4);		/* 3 members, none there */
	add(&b, 7);
	CHECK_INT(check(&b), -ENOEXEC);
}

static void test_name_past_strings(void)
{
	struct blob b = {};

	add_type(&b, 4000, BTF_KIND_INT, 0, 4);
	add(&b, 32);
	CHECK_INT(check(&b), -ENOEXEC);
}

static void test_bad_header(void)
{
	struct blob b = {};
	size_t n;

	struct_with_member(&b, 1);
	n = build(&b);
	CHECK_INT(bp_btf__check_raw(b.buf, 10, "test.o"), -ENOEXEC);	/* cut header */
	b.buf[0] ^= 0xff;						/* magic */
	CHECK_INT(bp_btf__check_raw(b.buf, n, "test.o"), -ENOEXEC);
	b.buf[0] ^= 0xff;
	CHECK_INT(bp_btf__check_raw(b.buf, n - 1, "test.o"), -ENOEXEC);	/* strings cut */
	CHECK_INT(bp_btf__check_raw(b.buf, n, "test.o"), 0);
}

int main(void)
{
	bpfprobe_set_print(NULL);
	RUN(test_sound);
	RUN(test_member_past_last_type);
	RUN(test_typedef_loop);
	RUN(test_func_not_proto);
	RUN(test_unknown_kind);
	RUN(test_type_cut_off);
	RUN(test_name_past_strings);
	RUN(test_bad_header);
	return TEST_EXIT();
}
