// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests for the DWARF resolver (probes/resolve*.c) against the test
 * targets build/targets/{args,types}-{gcc,clang}-{O0,O2}.
 *
 * Every expectation below was checked by hand against llvm-dwarfdump and
 * objdump output of the four builds (gcc 12, clang 14): e.g. gcc -O0 keeps
 * neg_args's c at DW_OP_fbreg -24 off a DW_OP_call_frame_cfa frame base,
 * which past the prologue (CFA = rbp+16) is rbp-8, while clang -O0 keeps it
 * at fbreg -18 off an rbp frame base. Runtime values are the e2e tests' job.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <gelf.h>

#include "prologue/arch.h"
#include "prologue/arch_x86_64.h"
#include "probes/binary/libpath.h"
#include "probes/resolve.h"
#include "probes/spec.h"
#include "util/log.h"
#include "tests/unit/test.h"
#include "tests/unit/resolve_fixture.h"

/* ---- helpers ------------------------------------------------------------ */

/* Target name's cur build must resolve to npoints points; the caller
 * frees them. */
static struct bp_point *resolve_ok(const char *name, const char *rest, int npoints)
{
	return resolve_ok_in(target(name), rest, npoints);
}

/* The function's entry: a spec without arguments probes exactly there. */
static uint64_t entry_of(const char *name, const char *func)
{
	struct bp_point *pts = resolve_ok(name, func, 1);
	uint64_t addr = pts ? pts->addr : 0;

	bp_points__free(pts, 1);
	return addr;
}

/* An entry value away from the entry: reg's value at the entry of the
 * function, found by the frame's CFA (companion probe at the entry). */
static void check_entry_value(const struct bp_point *p, const char *what, int reg)
{
	const struct bp_fetch *f = &p->plan.args[0];
	const struct bp_expr *x = &f->expr;

	CHECK(f->base == BP_BASE_EXPR, "%s: base %d", what, f->base);
	CHECK(x->nops >= 2 && x->ops[x->nops - 1].op == BP_XOP_ENTRY_REG &&
	      x->ops[x->nops - 1].reg == reg, "%s: not an entry value of %s", what,
	      bp_arch__reg_name(reg));
	CHECK(bp_plan__needs_entry_values(&p->plan), "%s: no companion probe", what);
}

/* Checks base register, the dereference offsets, size and sign. */
static void check_fetch_v(const struct bp_fetch *f, const char *what, int reg,
			  int size, bool is_signed, int nderef, const int *offs)
{
	int i;

	CHECK(f->base == BP_BASE_REG, "%s: base %d", what, f->base);
	CHECK(f->reg == reg, "%s: reg %s, want %s", what, bp_arch__reg_name(f->reg),
	      bp_arch__reg_name(reg));
	CHECK(f->add == 0, "%s: add %lld", what, (long long)f->add);
	CHECK(f->size == size, "%s: size %d, want %d", what, f->size, size);
	CHECK(f->is_signed == is_signed, "%s: signed %d", what, f->is_signed);
	CHECK(f->nderef == nderef, "%s: %d derefs, want %d", what, f->nderef, nderef);
	for (i = 0; i < nderef && i < f->nderef; i++)
		CHECK(f->deref_off[i] == offs[i], "%s: deref %d at %d, want %d", what, i,
		      f->deref_off[i], offs[i]);
	/* exec= probes read the process's memory on every dereference */
	CHECK(f->user_mask == (1U << nderef) - 1, "%s: user_mask 0x%x", what, f->user_mask);
	CHECK(!f->bit_size, "%s: bitfield", what);
}

#define check_fetch(f, what, reg, size, sign, ...) do {				\
	const int offs_[] = { 0, ##__VA_ARGS__ };				\
	check_fetch_v(f, what, reg, size, sign,					\
		      (int)(sizeof(offs_) / sizeof(offs_[0])) - 1, offs_ + 1);	\
} while (0)

/* The argument's memory: prefix of the plan that reaches the frame slot
 * at O0 (rbp + slot) or nothing at O2 (register). */
#define check_arg(f, what, reg_o2, slot_o0, size, sign, ...) do {		\
	if (cur->O0)								\
		check_fetch(f, what, BP_REG_RBP, size, sign, slot_o0, ##__VA_ARGS__); \
	else									\
		check_fetch(f, what, reg_o2, size, sign, ##__VA_ARGS__);	\
} while (0)

/* Independently of libdw: the symbol's value and its file offset. */
static bool elf_symbol(const char *path, const char *name, uint64_t *value,
		       uint64_t *offset)
{
	bool found = false;
	Elf_Scn *scn = NULL;
	size_t i, n;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && !found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		data = elf_getdata(scn, NULL);
		for (i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;

			if (gelf_getsym(data, i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
			    !strcmp(elf_strptr(elf, sh.sh_link, sym.st_name), name)) {
				*value = sym.st_value;
				found = true;
				break;
			}
		}
	}
	if (found && !elf_getphdrnum(elf, &n)) {
		found = false;
		for (i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD &&
			    (ph.p_flags & PF_X) && *value >= ph.p_vaddr &&
			    *value < ph.p_vaddr + ph.p_filesz) {
				*offset = *value - ph.p_vaddr + ph.p_offset;
				found = true;
			}
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}

/* ---- the args target ------------------------------------------------------ */

static void test_neg_args(void)
{
	struct bp_point *p = resolve_ok("args", "func=neg_args a b c", 1);
	uint64_t entry = entry_of("args", "func=neg_args");

	if (!p)
		return;
	CHECK_STR(p->func, "neg_args");
	CHECK_STR(p->cu, "tests/targets/args/main.c");
	CHECK(!p->is_return, "is_return");
	CHECK_INT(p->plan.nargs, 3);
	check_arg(&p->plan.args[0], "a", BP_REG_RDI, -4, 4, true);
	check_arg(&p->plan.args[1], "b", BP_REG_RSI, -16, 8, true);
	check_arg(&p->plan.args[2], "c", BP_REG_RDX, cur->clang ? -18 : -8, 2, true);
	CHECK_STR(p->type_name[0], "int");
	CHECK_STR(p->type_name[1], cur->clang ? "long" : "long int");
	CHECK_STR(p->type_name[2], cur->clang ? "short" : "short int");
	if (!cur->O0)
		CHECK_STR(p->loc_desc[0], "reg rdi");
	else if (cur->clang)
		CHECK_STR(p->loc_desc[0], "rbp-4 (frame)");
	else
		CHECK_STR(p->loc_desc[0], "CFA-20 (frame)");
	/* -O0 stores the parameters in the prologue: probe past it */
	if (cur->O0)
		CHECK(p->addr > entry && p->addr < entry + 32,
		      "addr 0x%llx, entry 0x%llx", (unsigned long long)p->addr,
		      (unsigned long long)entry);
	else
		CHECK(p->addr == entry, "addr 0x%llx moved from entry 0x%llx",
		      (unsigned long long)p->addr, (unsigned long long)entry);
	bp_points__free(p, 1);
}

static void test_uns_args(void)
{
	struct bp_point *p = resolve_ok("args", "func=uns_args a b c", 1);

	if (!p)
		return;
	check_arg(&p->plan.args[0], "a", BP_REG_RDI, cur->clang ? -1 : -4, 1, false);
	check_arg(&p->plan.args[1], "b", BP_REG_RSI, cur->clang ? -4 : -8, 2, false);
	check_arg(&p->plan.args[2], "c", BP_REG_RDX, cur->clang ? -8 : -12, 4, false);
	CHECK_STR(p->type_name[0], "unsigned char");
	CHECK_STR(p->type_name[2], "unsigned int");
	bp_points__free(p, 1);

	/* signed char is signed, char-sized */
	p = resolve_ok("args", "func=small_signed a", 1);
	if (p)
		check_arg(&p->plan.args[0], "a", BP_REG_RDI, cur->clang ? -1 : -4, 1, true);
	bp_points__free(p, 1);
}

static void test_handle_req(void)
{
	struct bp_point *p;

	p = resolve_ok("args", "func=handle_req req->hdr->len conn->fd req->inner.y", 1);
	if (!p)
		return;
	/* req is at rbp-8 past the prologue at O0 with both compilers */
	check_arg(&p->plan.args[0], "req->hdr->len", BP_REG_RDI, -8, 4, true, 8, 4);
	check_arg(&p->plan.args[1], "conn->fd", BP_REG_RSI, -16, 4, true, 8);
	check_arg(&p->plan.args[2], "req->inner.y", BP_REG_RDI, -8, 4, true, 20);
	CHECK_STR(p->type_name[0], "int");
	bp_points__free(p, 1);

	/* an array element, a member of an anonymous union, the pointer itself */
	p = resolve_ok("args", "func=handle_req req->arr[2] req->u_s conn", 1);
	if (!p)
		return;
	check_arg(&p->plan.args[0], "req->arr[2]", BP_REG_RDI, -8, 4, true, 40);
	check_arg(&p->plan.args[1], "req->u_s", BP_REG_RDI, -8, 2, true, 24);
	if (cur->O0)
		check_fetch(&p->plan.args[2], "conn", BP_REG_RBP, 8, false, -16);
	else
		check_fetch(&p->plan.args[2], "conn", BP_REG_RSI, 8, false);
	CHECK_STR(p->type_name[1], cur->clang ? "short" : "short int");
	CHECK_STR(p->type_name[2], "const struct conn *");
	bp_points__free(p, 1);

	p = resolve_ok("args", "func=handle_req req req->hdr req[1].id", 1);
	if (!p)
		return;
	CHECK_STR(p->type_name[0], "req_t *");
	CHECK_STR(p->type_name[1], "struct hdr *");
	/* req[1] is the next struct req: 48 bytes on */
	check_arg(&p->plan.args[2], "req[1].id", BP_REG_RDI, -8, 8, true, 48);
	bp_points__free(p, 1);
}

static void test_many_args(void)
{
	struct bp_point *p = resolve_ok("args", "func=many_args a7 a8", 1);
	uint64_t entry = entry_of("args", "func=many_args");

	if (!p)
		return;
	if (cur->O0 && cur->clang) {
		/* clang's frame base is rbp: only valid past the prologue */
		check_fetch(&p->plan.args[0], "a7", BP_REG_RBP, 8, true, 16);
		check_fetch(&p->plan.args[1], "a8", BP_REG_RBP, 4, true, 24);
		CHECK(p->addr > entry, "not moved past the prologue");
	} else {
		/* CFA-based (gcc) or rsp-based (clang -O2) stack slots of the
		 * caller: valid at the entry, where CFA = rsp+8 */
		check_fetch(&p->plan.args[0], "a7", BP_REG_RSP, 8, true, 8);
		check_fetch(&p->plan.args[1], "a8", BP_REG_RSP, 4, true, 16);
		CHECK(p->addr == entry, "moved from the entry");
		if (!cur->clang)
			CHECK_STR(p->loc_desc[0], "CFA+0 (stack)");
	}
	bp_points__free(p, 1);

	/* with a1 at O0, the probe moves and the CFA is rbp+16 there */
	p = resolve_ok("args", "func=many_args a7 a8 a1", 1);
	if (!p)
		return;
	if (cur->O0) {
		check_fetch(&p->plan.args[0], "a7", BP_REG_RBP, 8, true, 16);
		check_fetch(&p->plan.args[1], "a8", BP_REG_RBP, 4, true, 24);
		check_fetch(&p->plan.args[2], "a1", BP_REG_RBP, 8, true, -8);
	} else {
		check_fetch(&p->plan.args[0], "a7", BP_REG_RSP, 8, true, 8);
		check_fetch(&p->plan.args[2], "a1", BP_REG_RDI, 8, true);
	}
	bp_points__free(p, 1);
}

static void test_twin(void)
{
	struct bp_point *p = resolve_ok("args", "func=twin x", 2);
	struct bp_point *a, *b;

	if (!p)
		return;
	a = strstr(p[0].cu, "twin_a.c") ? &p[0] : &p[1];
	b = a == p ? &p[1] : &p[0];
	CHECK(strstr(a->cu, "twin_a.c") && strstr(b->cu, "twin_b.c"), "cus %s, %s",
	      p[0].cu, p[1].cu);
	CHECK(a->addr != b->addr, "same address");
	CHECK(!bp_plan__equal(&a->plan, &b->plan), "the twins share a plan");
	/* twin_a's twin(int x), twin_b's twin(long pad, int x) */
	check_arg(&a->plan.args[0], "twin_a x", BP_REG_RDI, -4, 4, true);
	check_arg(&b->plan.args[0], "twin_b x", BP_REG_RSI, -12, 4, true);
	bp_points__free(p, 2);
}

static void test_retval(void)
{
	struct bp_point *p = resolve_ok("args", "func=ret_neg%return $retval", 1);
	uint64_t entry = entry_of("args", "func=ret_neg");

	if (!p)
		return;
	CHECK(p->is_return, "not a return probe");
	CHECK(p->addr == entry, "a return probe sits at the entry");
	check_fetch(&p->plan.args[0], "$retval", BP_REG_RAX, 8, true);
	CHECK_STR(p->type_name[0], cur->clang ? "long" : "long int");
	bp_points__free(p, 1);
}

/* The address is the symbol's; the offset is what the program headers say. */
static void test_addresses(void)
{
	struct bp_point *p = resolve_ok("args", "func=handle_req", 1);
	uint64_t value = 0, offset = 0;

	if (!p)
		return;
	CHECK(elf_symbol(target("args"), "handle_req", &value, &offset),
	      "no symbol handle_req in %s", target("args"));
	CHECK(p->addr == value, "addr 0x%llx, symbol 0x%llx",
	      (unsigned long long)p->addr, (unsigned long long)value);
	CHECK(p->offset == offset, "offset 0x%llx, want 0x%llx",
	      (unsigned long long)p->offset, (unsigned long long)offset);
	CHECK(p->binary && p->binary[0] == '/', "binary '%s' not absolute", p->binary);
	CHECK(p->binary && strstr(p->binary, target("args")), "binary '%s'", p->binary);
	CHECK(p->plan.nargs == 0, "nargs %d", p->plan.nargs);
	bp_points__free(p, 1);

	/* +OFFS: exactly there, however the prologue looks */
	p = resolve_ok("args", "func=handle_req+4 req", 1);
	if (p) {
		CHECK(p->addr == value + 4, "addr 0x%llx", (unsigned long long)p->addr);
		CHECK(p->offset == offset + 4, "offset 0x%llx", (unsigned long long)p->offset);
	}
	bp_points__free(p, 1);
}

/* ---- the types target ------------------------------------------------------ */

static void check_bits(const struct bp_fetch *f, const char *what, int off,
		       int size, bool is_signed, int bit_off, int bit_size)
{
	CHECK(f->nderef >= 1 && f->deref_off[f->nderef - 1] == off,
	      "%s: last deref at %d, want %d", what,
	      f->nderef ? f->deref_off[f->nderef - 1] : -1, off);
	CHECK(f->size == size, "%s: size %d, want %d", what, f->size, size);
	CHECK(f->is_signed == is_signed, "%s: signed %d", what, f->is_signed);
	CHECK(f->bit_off == bit_off && f->bit_size == bit_size,
	      "%s: bits %d+%d, want %d+%d", what, f->bit_off, f->bit_size, bit_off,
	      bit_size);
}

/* gcc writes DW_AT_data_bit_offset, clang DW_AT_bit_offset: same plan */
static void test_bitfields(void)
{
	struct bp_point *p = resolve_ok("types", "func=bits f->a f->b f->c", 1);

	if (!p)
		return;
	check_bits(&p->plan.args[0], "f->a", 0, 4, false, 0, 3);
	check_bits(&p->plan.args[1], "f->b", 0, 4, true, 3, 5);
	check_bits(&p->plan.args[2], "f->c", 0, 4, false, 8, 12);
	bp_points__free(p, 1);

	/* 64-bit units: e is bits 0..39 and f bits 40..59 of the u64 at 8 */
	p = resolve_ok("types", "func=bits f->d f->e f->f", 1);
	if (!p)
		return;
	check_arg(&p->plan.args[0], "f->d", BP_REG_RDI, -8, 4, true, 4);
	check_bits(&p->plan.args[1], "f->e", 8, 8, false, 0, 40);
	check_bits(&p->plan.args[2], "f->f", 8, 8, true, 40, 20);
	bp_points__free(p, 1);
}

static void test_enums_floats(void)
{
	struct bp_point *p = resolve_ok("types", "func=colors c l p->ok", 1);

	if (!p)
		return;
	/* enum color has RED = -1: its underlying type is int */
	CHECK(p->plan.args[0].is_signed && p->plan.args[0].size == 4, "enum color");
	CHECK(!p->plan.args[1].is_signed && p->plan.args[1].size == 4, "enum level");
	CHECK(!p->plan.args[2].is_signed && p->plan.args[2].size == 1, "bool");
	CHECK_STR(p->type_name[0], "enum color");
	bp_points__free(p, 1);

	/* in memory, a float's bits are readable */
	p = resolve_ok("types", "func=fp p->x p->y", 1);
	if (p) {
		check_arg(&p->plan.args[0], "p->x", BP_REG_RDI, -24, 4, false, 0);
		check_arg(&p->plan.args[1], "p->y", BP_REG_RDI, -24, 8, false, 8);
	}
	bp_points__free(p, 1);

	if (cur->O0) {
		p = resolve_ok("types", "func=fp d f", 1);
		if (p) {
			check_fetch(&p->plan.args[0], "d", BP_REG_RBP, 8, false, -8);
			check_fetch(&p->plan.args[1], "f", BP_REG_RBP, 4, false, -12);
		}
		bp_points__free(p, 1);
	} else {
		expect_err(target("types"), "func=fp d", -EOPNOTSUPP, "argument 'd'",
			   "floating-point registers are not readable");
	}
	expect_err(target("types"), "func=fp%return $retval", -EOPNOTSUPP,
		   "floating-point", "fp");
}

static void test_nested(void)
{
	struct bp_point *p;

	p = resolve_ok("types", "func=nested o->deep o->grid[1][2] o->name[1]", 1);
	if (!p)
		return;
	/* deep: in an anonymous struct in an anonymous struct in an
	 * anonymous union at 8, itself at 8 */
	check_arg(&p->plan.args[0], "o->deep", BP_REG_RDI, -8, 2, true, 16);
	/* grid (int[2][3]) at 32: [1][2] is 32 + 12 + 8 */
	check_arg(&p->plan.args[1], "o->grid[1][2]", BP_REG_RDI, -8, 4, true, 52);
	check_arg(&p->plan.args[2], "o->name[1]", BP_REG_RDI, -8, 1, true, 25);
	bp_points__free(p, 1);

	p = resolve_ok("types", "func=nested o->list->next->val o->nodes[1].val m[1][2]", 1);
	if (!p)
		return;
	check_arg(&p->plan.args[0], "o->list->next->val", BP_REG_RDI, -8, 4, true,
		  56, 0, 8);
	check_arg(&p->plan.args[1], "o->nodes[1].val", BP_REG_RDI, -8, 4, true, 88);
	/* m is int (*)[3]: m[1] is 12 bytes on */
	check_arg(&p->plan.args[2], "m[1][2]", BP_REG_RSI, -16, 4, true, 20);
	bp_points__free(p, 1);

	p = resolve_ok("types", "func=nested pp[0]->val o->list pp", 1);
	if (!p)
		return;
	check_arg(&p->plan.args[0], "pp[0]->val", BP_REG_RDX, -24, 4, true, 0, 8);
	CHECK_STR(p->type_name[1], "struct node *");
	CHECK_STR(p->type_name[2], "struct node **");
	bp_points__free(p, 1);
}

static void test_struct_by_value(void)
{
	struct bp_point *p;

	/* b is 40 bytes: passed on the stack, read from memory */
	p = resolve_ok("types", "func=byval b.c[3] b.z b.a", 1);
	if (p) {
		int reg = cur->O0 && cur->clang ? BP_REG_RBP : BP_REG_RSP;
		int base = cur->O0 && cur->clang ? 16 : 8;

		check_fetch(&p->plan.args[0], "b.c[3]", reg, 4, true, base + 28);
		check_fetch(&p->plan.args[1], "b.z", reg, 2, true, base + 32);
		check_fetch(&p->plan.args[2], "b.a", reg, 8, true, base);
	}
	bp_points__free(p, 1);

	/* s (8 bytes) comes in rdi: only -O0 stores it to memory */
	if (cur->O0) {
		p = resolve_ok("types", "func=byval s.y", 1);
		if (p)
			check_fetch(&p->plan.args[0], "s.y", BP_REG_RBP, 4, true, -4);
		bp_points__free(p, 1);
	} else {
		/* gcc: DW_OP_reg5, clang: pieces (the second one rdi >> 32):
		 * either way the high half of rdi (tests/unit/test_resolve_args.c
		 * has more of these) */
		p = resolve_ok("types", "func=byval s.y", 1);
		if (p) {
			const struct bp_fetch *f = &p->plan.args[0];

			CHECK(f->base == BP_BASE_REG && f->reg == BP_REG_RDI && !f->nderef &&
			      f->bit_off == 32 && f->bit_size == 32 && f->is_signed,
			      "s.y: base %d reg %d nderef %d bits %d+%d signed %d", f->base,
			      f->reg, f->nderef, f->bit_off, f->bit_size, f->is_signed);
		}
		bp_points__free(p, 1);
	}
	expect_err(target("types"), "func=byval b", -EINVAL, "is a struct; name a member");
}

static void test_locals(void)
{
	struct bp_point *p = resolve_ok("types", "func=locals n acc", 1);

	if (!p)
		return;
	CHECK_STR(p->type_name[1], cur->clang ? "long" : "long int");
	if (!cur->O0 && !cur->clang)
		/* gcc -O2 knows acc is 0 at the entry */
		CHECK(p->plan.args[1].base == BP_BASE_CONST && p->plan.args[1].add == 0,
		      "acc: base %d", p->plan.args[1].base);
	bp_points__free(p, 1);
}

/* ---- errors ---------------------------------------------------------------- */

static void test_err_function(void)
{
	const char *args = target("args");

	expect_err(args, "func=handle_reqq req", -ENOENT, "function 'handle_reqq'",
		   "not found", args, "did you mean: handle_req");
	/* inlined copies are probe points by default; inlines=no leaves none */
	expect_err(target("types"), "inlines=no;func=tiny x", -ENOENT, "'tiny' is only inlined",
		   "inlines=no");
	expect_err(args, "func=neg_args+100000 a", -ERANGE, "neg_args",
		   "past the end of the function");
	/* _start comes from crt1.o, built without -g */
	expect_err(args, "func=_start x", -ENOENT, "'_start'", "no debug info");
}

static void test_err_member(void)
{
	const char *args = target("args");
	const char *types = target("types");

	expect_err(args, "func=handle_req req->lenn", -ENOENT, "argument 'req->lenn'",
		   "struct req has no member 'lenn' (members: id, hdr, inner, u_s, u_l, arr)");
	expect_err(args, "func=handle_req req->id->x", -EINVAL,
		   "'->' on non-pointer 'req->id' (type long");
	expect_err(args, "func=handle_req req.id", -EINVAL, "'.' on pointer 'req'",
		   "use '->'");
	expect_err(args, "func=handle_req req->inner", -EINVAL, "is a struct; name a member");
	expect_err(args, "func=handle_req req->arr", -EINVAL, "is an array");
	expect_err(args, "func=handle_req req->arr[4]", -ERANGE, "index 4 is out of bounds",
		   "req->arr");
	expect_err(types, "func=nested o->zz", -ENOENT, "struct outer has no member 'zz'",
		   "kind, a, b, l, deep");
	expect_err(types, "func=nested o->hid->x", -ENOENT, "struct hidden is incomplete");
	expect_err(types, "func=nested o->opaque[1]", -EINVAL, "void *");
	expect_err(types, "func=nested o->grid[1]", -EINVAL, "is an array");
	expect_err(types, "func=bits f->a.x", -EINVAL, "bitfield");
}

static void test_err_argument(void)
{
	const char *args = target("args");

	expect_err(args, "func=handle_req zz", -ENOENT, "handle_req", "'zz'",
		   "parameters: req, conn");
	expect_err(target("types"), "func=nothing%return $retval", -EINVAL,
		   "nothing returns void");
	expect_err(args, "func=ret_neg%return x", -EINVAL, "argument 'x'",
		   "only fetch $retval");
	/* clang -O2 drops the unused parameter's location altogether */
	if (!cur->O0 && cur->clang)
		expect_err(args, "func=opt_out x unused", -ENOENT, "argument 'unused'",
			   "optimized out at");
	/* gcc -O2 keeps a in rdi for 10 bytes, then only as an entry value:
	 * read from what the companion probe saved at the entry */
	if (!cur->O0 && !cur->clang) {
		struct bp_point *p = resolve_ok("args", "func=neg_args+16 a", 1);

		if (p)
			check_entry_value(p, "neg_args+16 a", BP_REG_RDI);
		bp_points__free(p, 1);
	}
}

/* ---- variant-independent ------------------------------------------------- */

/* binaries built by the tests themselves */
static char tmpdir[] = "/tmp/bpfprobe-test-resolve-XXXXXX";

static void test_err_binary(void)
{
	struct bp_point *pts;
	uint64_t value = 0, offset = 0;
	char cmd[512], nodebug[128];
	int n, ret;

	expect_err("/nonexistent/bpfprobe/app", "func=main", -ENOENT,
		   "binary '/nonexistent/bpfprobe/app' not found");
	expect_err("no-such-program-bpfprobe", "func=main", -ENOENT,
		   "binary 'no-such-program-bpfprobe' not found");

	snprintf(nodebug, sizeof(nodebug), "%s/nodebug", tmpdir);
	snprintf(cmd, sizeof(cmd), "gcc -O2 -o %s tests/targets/args/*.c", nodebug);
	ret = system(cmd);
	CHECK(ret == 0, "'%s' failed", cmd);
	if (ret)
		return;
	expect_err(nodebug, "func=neg_args a", -ENODATA, nodebug, "no debug info",
		   "-g", "dbgsym");
	/* without arguments the symbol table is enough */
	ret = resolve_in(nodebug, "func=neg_args", &pts, &n);
	CHECK(ret == 0 && n == 1, "no-DWARF neg_args: %d, %d points: %s", ret, n, msgs);
	if (!ret && n == 1) {
		CHECK(elf_symbol(nodebug, "neg_args", &value, &offset), "no symbol");
		CHECK(pts->addr == value && pts->offset == offset, "addr 0x%llx offset 0x%llx",
		      (unsigned long long)pts->addr, (unsigned long long)pts->offset);
	}
	if (!ret)
		bp_points__free(pts, n);
}

/* A spec without exec= goes to the kernel resolver (tests in
 * test_resolve_kernel.c); here only that it gets there. */
static void test_err_kernel(void)
{
	struct bp_spec spec = { .func = "no_such_kernel_function_bpfprobe" };
	struct bp_point *pts = NULL;
	int n = 0;

	msgs[0] = '\0';
	CHECK_INT(bp_resolver__resolve(resolver, &spec, &pts, &n), -ENOENT);
	CHECK(strstr(msgs, "no_such_kernel_function_bpfprobe in the kernel: no such function"),
	      "message '%s'", msgs);
}

static void test_find_binary(void)
{
	char *p;

	p = bp_find_binary("sh");
	CHECK(p && p[0] == '/' && !access(p, X_OK), "sh: %s", p ? p : "(null)");
	free(p);
	p = bp_find_binary("/bin/../bin/sh");
	CHECK(p && !strstr(p, ".."), "realpath: %s", p ? p : "(null)");
	free(p);
	p = bp_find_binary("tests/unit/test.h");
	CHECK(p && p[0] == '/' && strstr(p, "/tests/unit/test.h"), "relative: %s",
	      p ? p : "(null)");
	free(p);
	CHECK(!bp_find_binary("no-such-program-bpfprobe"), "found a missing program");
	CHECK(!bp_find_binary("tests/unit"), "a directory is no binary");
	CHECK(!bp_find_binary(""), "empty name");
}

/* DWARF 4 (.debug_loc, DW_OP_GNU_entry_value) and split DWARF (.dwo). */
static void test_dwarf_forms(void)
{
	static const char *const builds[] = { "-gdwarf-4", "-gsplit-dwarf" };
	char path[128], cmd[512];
	struct bp_point *pts;
	size_t i;
	int n, ret;

	for (i = 0; i < sizeof(builds) / sizeof(builds[0]); i++) {
		snprintf(path, sizeof(path), "%s/args%s", tmpdir, builds[i]);
		/* the .dwo files land next to the output */
		snprintf(cmd, sizeof(cmd), "gcc -g %s -O2 -o %s tests/targets/args/*.c",
			 builds[i], path);
		ret = system(cmd);
		CHECK(ret == 0, "'%s' failed", cmd);
		if (ret)
			continue;
		ret = resolve_in(path, "func=handle_req req->hdr->len", &pts, &n);
		CHECK(ret == 0 && n == 1, "%s: %d: %s", builds[i], ret, msgs);
		if (!ret && n == 1)
			check_fetch(&pts->plan.args[0], builds[i], BP_REG_RDI, 4, true, 8, 4);
		if (!ret)
			bp_points__free(pts, n);
		ret = resolve_in(path, "func=neg_args+16 a", &pts, &n);
		CHECK(ret == 0 && n == 1, "%s: %d: %s", builds[i], ret, msgs);
		if (!ret && n == 1)
			check_entry_value(pts, builds[i], BP_REG_RDI);
		if (!ret)
			bp_points__free(pts, n);
	}
}

/* glibc's malloc is __libc_malloc in DWARF: found through the symbol. */
static void test_alias(void)
{
	struct bp_point *pts;
	int n, ret;

	ret = resolve_in("/lib/x86_64-linux-gnu/libc.so.6", "func=malloc bytes", &pts, &n);
	if (ret == -ENODATA || ret == -ENOENT) {
		SKIP(test_alias, "no debug info for libc (libc6-dbg)");
		test_cur_failed = -1;	/* not a pass */
		return;
	}
	CHECK(ret == 0 && n >= 1, "malloc: %d: %s", ret, msgs);
	if (!ret && n >= 1) {
		check_fetch(&pts->plan.args[0], "bytes", BP_REG_RDI, 8, false);
		CHECK_STR(pts->func, "malloc");
	}
	if (!ret)
		bp_points__free(pts, n);
}

#define RUN_VARIANT(fn, v) do {							\
	cur = (v);								\
	RUN_IN_VARIANT(fn, (v)->name);						\
} while (0)

/* A test that SKIPs sets test_cur_failed to -1: neither PASS nor FAIL. */
#define RUN_SKIPPABLE(fn) do {							\
	test_cur_name = #fn;							\
	test_cur_failed = 0;							\
	fn();									\
	if (!test_cur_failed)							\
		printf("PASS %s\n", #fn);					\
	if (test_cur_failed > 0)						\
		test_total_failed++;						\
	fflush(stdout);								\
} while (0)

static bool have_targets(const struct variant *v)
{
	static const char *const names[] = { "args", "types" };
	bool ok = true;
	size_t i;

	cur = v;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (access(target(names[i]), R_OK)) {
			printf("FAIL test_resolve[%s]: %s is missing: make %s\n", v->name,
			       target(names[i]), target(names[i]));
			test_total_failed++;
			ok = false;
		}
	}
	return ok;
}

int main(void)
{
	size_t i;

	/* never wait on a debuginfod server for the binary without DWARF */
	unsetenv("DEBUGINFOD_URLS");
	bpfprobe_set_print(capture);
	resolver = fixture_resolver();
	if (!resolver) {
		printf("FAIL test_resolve: bp_resolver__new\n");
		return 1;
	}

	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		const struct variant *v = &variants[i];

		if (!have_targets(v))
			continue;
		RUN_VARIANT(test_neg_args, v);
		RUN_VARIANT(test_uns_args, v);
		RUN_VARIANT(test_handle_req, v);
		RUN_VARIANT(test_many_args, v);
		RUN_VARIANT(test_twin, v);
		RUN_VARIANT(test_retval, v);
		RUN_VARIANT(test_addresses, v);
		RUN_VARIANT(test_bitfields, v);
		RUN_VARIANT(test_enums_floats, v);
		RUN_VARIANT(test_nested, v);
		RUN_VARIANT(test_struct_by_value, v);
		RUN_VARIANT(test_locals, v);
		RUN_VARIANT(test_err_function, v);
		RUN_VARIANT(test_err_member, v);
		RUN_VARIANT(test_err_argument, v);
	}
	RUN(test_err_kernel);
	RUN(test_find_binary);
	RUN_SKIPPABLE(test_alias);
	if (mkdtemp(tmpdir)) {
		char cmd[128];

		RUN(test_err_binary);
		RUN(test_dwarf_forms);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", tmpdir);
	} else {
		printf("FAIL test_resolve: mkdtemp: %s\n", strerror(errno));
		test_total_failed++;
	}

	bp_resolver__free(resolver);
	return TEST_EXIT();
}
