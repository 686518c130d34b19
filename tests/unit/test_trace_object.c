// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests for `bpfprobe trace`'s generated objects (trace/trace_elf.c,
 * trace_btf.c, trace_insns.c), read back by libbpf without loading: one
 * program per SPEC, named and sectioned by it, whose BTF prototype is the
 * record ABI's with the record's members at their offsets and types; the
 * ring buffer and the per-CPU arrays as BTF-defined maps; every map load
 * relocated against its map; the license.
 */
#define _GNU_SOURCE		/* memfd_create */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "trace/trace.h"
#include "tests/unit/test.h"

static struct bp_trace_point one_point = { .label = "f", .binary = "/bin/x" };

/* Program 0: int a, unsigned char b, a pointer, char s[64], err;
 * program 1: no argument, err alone. */
static void fill(struct bp_trace *t, struct bp_trace_prog *p, bool count)
{
	memset(t, 0, sizeof(*t));
	memset(p, 0, 2 * sizeof(*p));
	t->progs = p;
	t->nprogs = 2;
	t->count = count;
	t->strlen = 64;
	t->ring_size = 1 << 20;
	t->npoints = 2;
	p[0].sec = "exec=/bin/x;f a b p s:string";
	snprintf(p[0].name, sizeof(p[0].name), "bp_trace_0");
	p[0].members[0] = (struct bp_trace_member){ .name = "a", .kind = BP_TRACE_SINT,
						    .off = 0, .size = 4 };
	p[0].members[1] = (struct bp_trace_member){ .name = "b", .kind = BP_TRACE_UINT,
						    .arg = 1, .off = 4, .size = 1 };
	p[0].members[2] = (struct bp_trace_member){ .name = "p", .kind = BP_TRACE_PTR,
						    .arg = 2, .off = 8, .size = 8 };
	p[0].members[3] = (struct bp_trace_member){ .name = "s", .kind = BP_TRACE_STR,
						    .arg = 3, .off = 16, .size = 64 };
	p[0].nmembers = 4;
	p[0].err_off = 80;
	p[0].rec_size = 88;
	p[0].points = &one_point;
	p[0].npoints = 1;
	p[1].sec = "exec=/bin/x;g%return";
	snprintf(p[1].name, sizeof(p[1].name), "bp_trace_1");
	p[1].err_off = 0;
	p[1].rec_size = 8;
	p[1].points = &one_point;
	p[1].npoints = 1;
}

/* The object t makes, opened by libbpf (NULL on failure). */
static struct bpf_object *open_generated(const struct bp_trace *t)
{
	int fd = memfd_create("test-trace", MFD_CLOEXEC);
	struct bpf_object *obj = NULL;
	char path[64];

	CHECK(fd >= 0, "memfd_create: %s", strerror(errno));
	if (fd < 0)
		return NULL;
	CHECK_INT(bp_trace__write_object(t, fd), 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	obj = bpf_object__open_file(path, NULL);
	CHECK(obj, "libbpf cannot open the object: %s", strerror(errno));
	close(fd);
	return obj;
}

static const struct btf_member *member(const struct btf *btf, const struct btf_type *st,
				       const char *name)
{
	for (int i = 0; i < btf_vlen(st); i++)
		if (!strcmp(btf__name_by_offset(btf, btf_members(st)[i].name_off), name))
			return &btf_members(st)[i];
	return NULL;
}

static void test_programs_and_record(void)
{
	struct bp_trace t;
	struct bp_trace_prog p[2];
	struct bpf_object *obj;
	struct bpf_program *prog;
	const struct btf_type *fn, *proto, *ptr, *st, *mt;
	const struct btf_member *m;
	struct btf *btf;
	int id;

	fill(&t, p, false);
	obj = open_generated(&t);
	if (!obj)
		return;
	prog = bpf_object__find_program_by_name(obj, "bp_trace_0");
	CHECK(prog, "no program bp_trace_0");
	if (prog)
		CHECK_STR(bpf_program__section_name(prog), p[0].sec);
	prog = bpf_object__find_program_by_name(obj, "bp_trace_1");
	CHECK(prog, "no program bp_trace_1");
	if (prog)
		CHECK_STR(bpf_program__section_name(prog), p[1].sec);
	btf = bpf_object__btf(obj);
	CHECK(btf, "no BTF");
	id = btf ? btf__find_by_name_kind(btf, "bp_trace_0", BTF_KIND_FUNC) : -1;
	CHECK(id > 0, "no FUNC bp_trace_0");
	if (id <= 0) {
		bpf_object__close(obj);
		return;
	}
	fn = btf__type_by_id(btf, id);
	proto = btf__type_by_id(btf, fn->type);
	CHECK_INT(btf_vlen(proto), 2);
	ptr = btf__type_by_id(btf, btf_params(proto)[1].type);
	CHECK(btf_is_ptr(ptr), "the second parameter is no pointer");
	st = btf__type_by_id(btf, ptr->type);
	CHECK(btf_is_struct(st), "the record is no struct");
	CHECK_STR(btf__name_by_offset(btf, st->name_off), "bp_trace_0_args");
	CHECK_INT(st->size, 88);
	m = member(btf, st, "a");
	mt = m ? btf__type_by_id(btf, m->type) : NULL;
	CHECK(mt && btf_is_int(mt) && mt->size == 4 && (btf_int_encoding(mt) & BTF_INT_SIGNED),
	      "a is no signed int");
	m = member(btf, st, "b");
	mt = m ? btf__type_by_id(btf, m->type) : NULL;
	CHECK(mt && btf_is_int(mt) && mt->size == 1 && !btf_int_encoding(mt) &&
	      btf_member_bit_offset(st, m - btf_members(st)) == 32, "b is no u8 at byte 4");
	m = member(btf, st, "p");
	mt = m ? btf__type_by_id(btf, m->type) : NULL;
	CHECK(mt && btf_is_ptr(mt), "p is no pointer");
	m = member(btf, st, "s");
	mt = m ? btf__type_by_id(btf, m->type) : NULL;
	CHECK(mt && btf_is_array(mt) && btf_array(mt)->nelems == 64 &&
	      btf_member_bit_offset(st, m - btf_members(st)) == 128, "s is no char[64] at byte 16");
	m = member(btf, st, "err");
	CHECK(m && btf_member_bit_offset(st, m - btf_members(st)) == 80 * 8, "no err at byte 80");
	bpf_object__close(obj);
}

static void test_maps(void)
{
	struct bp_trace t;
	struct bp_trace_prog p[2];
	struct bpf_object *obj;
	struct bpf_map *m;

	fill(&t, p, false);
	obj = open_generated(&t);
	if (!obj)
		return;
	m = bpf_object__find_map_by_name(obj, BP_TRACE_MAP_EVENTS);
	CHECK(m && bpf_map__type(m) == BPF_MAP_TYPE_RINGBUF &&
	      bpf_map__max_entries(m) == (1 << 20), "no 1 MiB ring buffer");
	m = bpf_object__find_map_by_name(obj, BP_TRACE_MAP_LOST);
	CHECK(m && bpf_map__type(m) == BPF_MAP_TYPE_PERCPU_ARRAY && bpf_map__max_entries(m) == 1 &&
	      bpf_map__key_size(m) == 4 && bpf_map__value_size(m) == 8, "no per-CPU lost counter");
	CHECK(!bpf_object__find_map_by_name(obj, BP_TRACE_MAP_COUNTS), "counts without count");
	bpf_object__close(obj);

	fill(&t, p, true);
	obj = open_generated(&t);
	if (!obj)
		return;
	m = bpf_object__find_map_by_name(obj, BP_TRACE_MAP_COUNTS);
	CHECK(m && bpf_map__type(m) == BPF_MAP_TYPE_PERCPU_ARRAY && bpf_map__max_entries(m) == 2,
	      "no per-CPU counter per point");
	CHECK(!bpf_object__find_map_by_name(obj, BP_TRACE_MAP_EVENTS), "a ring buffer with count");
	bpf_object__close(obj);
}

/* three map loads, whose relocations libbpf took (its open fails on one
 * that names no map), and a copy of all 88 bytes of the record */
static void test_relocations(void)
{
	struct bp_trace t;
	struct bp_trace_prog p[2];
	struct bpf_object *obj;
	struct bpf_program *prog;
	const struct bpf_insn *insn;
	int lds = 0, copies = 0;

	fill(&t, p, false);
	obj = open_generated(&t);
	if (!obj)
		return;
	prog = bpf_object__find_program_by_name(obj, "bp_trace_0");
	insn = prog ? bpf_program__insns(prog) : NULL;
	for (size_t i = 0; insn && i < bpf_program__insn_cnt(prog); i++) {
		if (insn[i].code == (BPF_LD | BPF_IMM | BPF_DW))
			lds++;
		if (insn[i].code == (BPF_LDX | BPF_DW | BPF_MEM) && insn[i].src_reg == BPF_REG_7)
			copies++;
	}
	CHECK_INT(lds, 3);	/* the ring twice (reserve, query), the lost counter */
	CHECK_INT(copies, 88 / 8);
	bpf_object__close(obj);
}

int main(void)
{
	libbpf_set_print(NULL);
	RUN(test_programs_and_record);
	RUN(test_maps);
	RUN(test_relocations);
	return TEST_EXIT();
}
