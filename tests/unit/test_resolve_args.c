// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests for the arguments of issue 3, at the plan level: $params,
 * globals and statics (the address and the anchor of the load bias),
 * structs passed by value (pieces, register bits), bitfields, constants,
 * entry values, multi-op expressions, shifts and conversions, and the
 * errors for what cannot be read (with the ranges where it can).
 *
 * Targets: build/targets/argx-{gcc,clang}-{O0,O2}[-nopie] and argx_lib-*
 * (compiler DWARF, checked by hand with llvm-dwarfdump), and argx_dw-*
 * whose DWARF is written by hand (tests/targets/argx/dw/dw.s), so those
 * plans are exact. Addresses of globals are checked against the ELF
 * symbol table, read here with libelf independently of the resolver.
 * The values these plans fetch are checked by tests/e2e/argx.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <gelf.h>

#include "prologue/arch.h"
#include "prologue/arch_x86_64.h"
#include "probes/resolve.h"
#include "probes/spec.h"
#include "util/log.h"
#include "tests/unit/test.h"
#include "tests/unit/resolve_fixture.h"

/* One point of SEC text "exec=PATH;REST", or NULL after a CHECK failure. */
static struct bp_point *one(const char *path, const char *rest)
{
	return resolve_ok_in(path, rest, 1);
}

/* The value of symbol name (the first whose name is name, or ends in
 * .name / starts with name. for function statics) in path's .symtab. */
static uint64_t symbol(const char *path, const char *name)
{
	size_t len = strlen(name), i, n;
	Elf_Scn *scn = NULL;
	uint64_t value = 0;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && !value && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		data = elf_getdata(scn, NULL);
		for (i = 0; data && !value && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *s;

			if (!gelf_getsym(data, i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_OBJECT)
				continue;
			s = elf_strptr(elf, sh.sh_link, sym.st_name);
			n = s ? strlen(s) : 0;
			if (s && (!strcmp(s, name) ||
				  (n > len && s[n - len - 1] == '.' && !strcmp(s + n - len, name)) ||
				  (!strncmp(s, name, len) && s[len] == '.')))
				value = sym.st_value;
		}
	}
	elf_end(elf);
	close(fd);
	CHECK(value, "no symbol '%s' in %s", name, path);
	return value;
}

static void check_reg_fetch(const struct bp_fetch *f, const char *what, int reg,
			    int64_t add, int size, bool is_signed, int bit_off, int bit_size)
{
	CHECK(f->base == BP_BASE_REG && f->reg == reg, "%s: base %d reg %s, want %s",
	      what, f->base, bp_arch__reg_name(f->reg), bp_arch__reg_name(reg));
	CHECK(f->add == add, "%s: add %lld, want %lld", what, (long long)f->add,
	      (long long)add);
	CHECK(!f->nderef, "%s: %d derefs", what, f->nderef);
	CHECK(f->size == size && f->is_signed == is_signed, "%s: %c%d, want %c%d", what,
	      f->is_signed ? 's' : 'u', f->size * 8, is_signed ? 's' : 'u', size * 8);
	CHECK(f->bit_off == bit_off && f->bit_size == bit_size,
	      "%s: bits %d+%d, want %d+%d", what, f->bit_off, f->bit_size, bit_off, bit_size);
}

static void check_const(const struct bp_fetch *f, const char *what, int64_t v,
			int size, bool is_signed)
{
	CHECK(f->base == BP_BASE_CONST && !f->nderef, "%s: base %d, %d derefs", what,
	      f->base, f->nderef);
	CHECK(f->add == v, "%s: %lld, want %lld", what, (long long)f->add, (long long)v);
	CHECK(f->size == size && f->is_signed == is_signed, "%s: %c%d", what,
	      f->is_signed ? 's' : 'u', f->size * 8);
}

/* A global read at its address (+ off): one user-memory read. */
static void check_global(const struct bp_point *pt, int i, const char *what,
			 uint64_t addr, int size, bool is_signed)
{
	const struct bp_fetch *f = &pt->plan.args[i];

	CHECK(f->base == BP_BASE_ADDR, "%s: base %d", what, f->base);
	CHECK((uint64_t)f->add + (uint64_t)(int64_t)f->deref_off[0] == addr,
	      "%s: at 0x%llx + %d, want 0x%llx", what, (unsigned long long)f->add,
	      f->deref_off[0], (unsigned long long)addr);
	CHECK(f->nderef == 1 && f->user_mask == 1, "%s: %d derefs, mask %x", what,
	      f->nderef, f->user_mask);
	CHECK(f->size == size && f->is_signed == is_signed, "%s: %c%d", what,
	      f->is_signed ? 's' : 'u', f->size * 8);
	/* the bias: the probe point's own address, from ip or the function's */
	CHECK(f->anchor == pt->addr, "%s: anchor 0x%llx, point at 0x%llx", what,
	      (unsigned long long)f->anchor, (unsigned long long)pt->addr);
	CHECK(f->anchor_kind == (pt->is_return ? BP_ANCHOR_FUNC_IP : BP_ANCHOR_IP),
	      "%s: anchor kind %d at %s", what, f->anchor_kind,
	      pt->is_return ? "a return" : "an entry");
}

/* ---- the parser ----------------------------------------------------------- */

static void test_parse(void)
{
	struct bp_spec spec;
	char err[256];

	CHECK_INT(bp_spec__parse("exec=/x;f $params y", &spec, err, sizeof(err)), 0);
	CHECK_INT(spec.nargs, 2);
	if (spec.nargs == 2) {
		CHECK_STR(spec.args[0].var, "$params");
		CHECK(!spec.args[0].global, "$params is no global");
	}
	bp_spec__free(&spec);

	CHECK_INT(bp_spec__parse("exec=/x;f v=@g->p[2].x:s16@user", &spec, err, sizeof(err)), 0);
	if (spec.nargs == 1) {
		CHECK_STR(spec.args[0].var, "g");
		CHECK_STR(spec.args[0].name, "v");
		CHECK(spec.args[0].global && spec.args[0].user && spec.args[0].has_type,
		      "flags");
		CHECK_INT(spec.args[0].nsteps, 3);
	}
	bp_spec__free(&spec);

	CHECK_INT(bp_spec__parse("exec=/x;f @g", &spec, err, sizeof(err)), 0);
	if (spec.nargs == 1)
		CHECK_STR(spec.args[0].name, "@g");
	bp_spec__free(&spec);

	CHECK_INT(bp_spec__parse("exec=/x;f%return $params", &spec, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "$params") && strstr(err, "FUNC%return"), "%s", err);
	bp_spec__free(&spec);
	CHECK_INT(bp_spec__parse("exec=/x;f $params:u8", &spec, err, sizeof(err)), -EINVAL);
	bp_spec__free(&spec);
	/* :string parses; the loader decides what the ABI does with it */
	CHECK_INT(bp_spec__parse("exec=/x;f p:string", &spec, err, sizeof(err)), 0);
	if (spec.nargs == 1)
		CHECK(spec.args[0].string && !spec.args[0].has_type, "p:string");
	bp_spec__free(&spec);
	CHECK_INT(bp_spec__parse("exec=/x;f @", &spec, err, sizeof(err)), -EINVAL);
	bp_spec__free(&spec);
}

/* ---- $params --------------------------------------------------------------- */

static void test_params(void)
{
	const char *argx = target("argx");
	struct bp_point *p;

	p = one(argx, "func=three $params");
	if (p) {
		CHECK_INT(p->plan.nargs, 3);
		CHECK_STR(p->arg_name[0], "a");
		CHECK_STR(p->arg_name[1], "b");
		CHECK_STR(p->arg_name[2], "c");
		CHECK(p->type_name[2] && !strncmp(p->type_name[2], "short", 5), "c: %s", p->type_name[2]);
		if (!cur->O0) {
			check_reg_fetch(&p->plan.args[0], "a", BP_REG_RDI, 0, 4, true, 0, 0);
			check_reg_fetch(&p->plan.args[2], "c", BP_REG_RDX, 0, 2, true, 0, 0);
		}
	}
	bp_points__free(p, 1);

	/* the parameters, then what follows */
	p = one(argx, "func=two $params @g_counter");
	if (p) {
		CHECK_INT(p->plan.nargs, 3);
		CHECK_STR(p->arg_name[0], "u");
		CHECK_STR(p->arg_name[1], "v");
		CHECK_STR(p->arg_name[2], "@g_counter");
		CHECK(p->plan.args[0].size == 1 && !p->plan.args[0].is_signed, "u: u8");
		check_global(p, 2, "@g_counter", symbol(argx, "g_counter"), 8, true);
	}
	bp_points__free(p, 1);

	p = one(argx, "func=none $params");
	if (p)
		CHECK_INT(p->plan.nargs, 0);
	bp_points__free(p, 1);

	expect_err(argx, "func=four $params", -E2BIG, "four in ", "$params expands to 4 parameters (a, b, c, d)",
		   "at most 3", "R3..R5");
	expect_err(argx, "func=three $params @g_counter", -E2BIG, "3 parameters (a, b, c)",
		   "4 arguments in all");
}

/* ---- globals ---------------------------------------------------------------- */

static void check_globals_in(const char *path)
{
	struct bp_point *p;
	uint64_t s_val;

	p = one(path, "func=use_globals @g_counter s_val calls");
	if (p) {
		check_global(p, 0, "@g_counter", symbol(path, "g_counter"), 8, true);
		check_global(p, 2, "calls", symbol(path, "calls"), 4, true);
		CHECK_STR(p->type_name[1], "int");
	}
	s_val = p ? (uint64_t)p->plan.args[1].add : 0;
	bp_points__free(p, 1);

	/* other.c's s_val is another variable: each function sees its own */
	p = one(path, "func=other_get s_val");
	if (p)
		CHECK(s_val && (uint64_t)p->plan.args[0].add != s_val,
		      "s_val of other.c at 0x%llx, of main.c at 0x%llx",
		      (unsigned long long)p->plan.args[0].add, (unsigned long long)s_val);
	bp_points__free(p, 1);

	/* at the return: the function's entry anchors the bias */
	p = one(path, "func=use_globals%return $retval @g_counter calls");
	if (p) {
		CHECK(p->is_return, "not a return probe");
		check_global(p, 1, "@g_counter", symbol(path, "g_counter"), 8, true);
		check_global(p, 2, "calls", symbol(path, "calls"), 4, true);
	}
	bp_points__free(p, 1);

	/* member chains from globals */
	p = one(path, "func=ptr_bf @s_struct.b g_vals[3] g_ptr->y");
	if (p) {
		check_global(p, 0, "@s_struct.b", symbol(path, "s_struct") + 4, 2, true);
		check_global(p, 1, "g_vals[3]", symbol(path, "g_vals") + 24, 8, true);
		CHECK(p->plan.args[2].nderef == 2 && p->plan.args[2].deref_off[1] == 4,
		      "g_ptr->y: %d derefs", p->plan.args[2].nderef);
	}
	bp_points__free(p, 1);
}

static void test_globals(void)
{
	const char *argx = target("argx");

	check_globals_in(argx);
	check_globals_in(target_sfx("argx", "-nopie"));
	/* a local or parameter is gone at the return */
	expect_err(argx, "func=use_globals%return n", -EINVAL, "argument 'n'",
		   "only fetch $retval and variables at fixed addresses");
	expect_err(argx, "func=three @nosuch", -ENOENT, "argument '@nosuch'",
		   "no global or static variable 'nosuch'");
	expect_err(argx, "func=three nosuch", -ENOENT, "argument 'nosuch'",
		   "no parameter, local or global variable 'nosuch'", "parameters: a, b, c");
	/* @ skips the function's own names */
	expect_err(argx, "func=three @a", -ENOENT, "no global or static variable 'a'");
}

static void test_globals_lib(void)
{
	const char *lib = target_sfx("argx_lib", ".so");
	struct bp_point *p;

	p = one(lib, "func=lib_bump n @lib_counter lib_obj.b");
	if (p) {
		check_global(p, 1, "@lib_counter", symbol(lib, "lib_counter"), 8, true);
		check_global(p, 2, "lib_obj.b", symbol(lib, "lib_obj") + 8, 8, true);
	}
	bp_points__free(p, 1);
	p = one(lib, "func=lib_bump%return $retval lib_static lib_calls");
	if (p) {
		check_global(p, 1, "lib_static", symbol(lib, "lib_static"), 4, true);
		check_global(p, 2, "lib_calls", symbol(lib, "lib_calls"), 4, true);
	}
	bp_points__free(p, 1);
}

/* ---- structs by value, bitfields, floats, constants ------------------------ */

static void test_by_value(void)
{
	const char *argx = target("argx");
	struct bp_point *p;

	if (cur->O0) {
		/* stored to the frame by the prologue: plain memory */
		p = one(argx, "func=by_pt p.x p.y");
		if (p)
			CHECK(p->plan.args[0].nderef == 1 && p->plan.args[1].nderef == 1 &&
			      p->plan.args[1].deref_off[0] == p->plan.args[0].deref_off[0] + 4,
			      "p.x, p.y in memory");
		bp_points__free(p, 1);
		return;
	}
	/* 16 bytes in rdi:rsi (DW_OP_reg5 DW_OP_piece 8 DW_OP_reg4 DW_OP_piece 8) */
	p = one(argx, "func=by_pair p.x p.y");
	if (p) {
		check_reg_fetch(&p->plan.args[0], "p.x", BP_REG_RDI, 0, 8, true, 0, 0);
		check_reg_fetch(&p->plan.args[1], "p.y", BP_REG_RSI, 0, 8, true, 0, 0);
	}
	bp_points__free(p, 1);

	/* 8 bytes in rdi: y is its high half */
	p = one(argx, "func=by_pt p.x");
	if (p)
		check_reg_fetch(&p->plan.args[0], "p.x", BP_REG_RDI, 0, 4, true, 0, 0);
	bp_points__free(p, 1);
	if (cur->clang) {
		/* clang describes y at the entry as missing, then in rax */
		expect_err(argx, "func=by_pt p.y", -ENOENT, "argument 'p.y'", "optimized out at",
			   "bytes 4..7", "DW_OP_piece", "available at", "(by_pt+0x7..");
		p = one(argx, "func=by_pt+7 p.y");
		if (p)
			check_reg_fetch(&p->plan.args[0], "p.y", BP_REG_RAX, 0, 4, true, 0, 0);
		bp_points__free(p, 1);
	} else {
		p = one(argx, "func=by_pt p.y");
		if (p)
			check_reg_fetch(&p->plan.args[0], "p.y", BP_REG_RDI, 0, 8, true, 32, 32);
		bp_points__free(p, 1);
		/* b (2 bytes at 4) and c (1 at 6) of the first eightbyte */
		p = one(argx, "func=by_mix m.b m.c m.d");
		if (p) {
			check_reg_fetch(&p->plan.args[0], "m.b", BP_REG_RDI, 0, 8, true, 32, 16);
			check_reg_fetch(&p->plan.args[1], "m.c", BP_REG_RDI, 0, 8, true, 48, 8);
			check_reg_fetch(&p->plan.args[2], "m.d", BP_REG_RSI, 0, 8, true, 0, 0);
		}
		bp_points__free(p, 1);
	}

	/* bitfields of a struct in a register */
	p = one(argx, "func=by_bf b.lo b.mid b.hi");
	if (p) {
		check_reg_fetch(&p->plan.args[0], "b.lo", BP_REG_RDI, 0, 8, false, 0, 4);
		check_reg_fetch(&p->plan.args[1], "b.mid", BP_REG_RDI, 0, 8, true, 4, 7);
		check_reg_fetch(&p->plan.args[2], "b.hi", BP_REG_RDI, 0, 8, false, 11, 21);
	}
	bp_points__free(p, 1);

	/* a double in xmm0: nowhere readable in this function */
	expect_err(argx, "func=fpa d", -EOPNOTSUPP, "argument 'd'",
		   "in floating-point register xmm0 at", "(fpa+0x0)",
		   "floating-point registers are not readable", "readable nowhere in fpa");

	/* a constant parameter (clang: DW_AT_const_value; gcc: in the
	 * .constprop clone's DWARF) */
	p = one(argx, "func=cprop k v");
	if (p)
		check_const(&p->plan.args[0], "k", 7, 8, true);
	bp_points__free(p, 1);
}

/* ---- hand-written DWARF ------------------------------------------------------ */

static void test_dw(void)
{
	const char *dw = target("argx_dw");
	struct bp_point *p;

	/* entry values at the entry are the registers */
	p = one(dw, "func=dw_entry a b");
	if (p) {
		check_reg_fetch(&p->plan.args[0], "a", BP_REG_RDI, 0, 8, true, 0, 0);
		/* DW_OP_entry_value(DW_OP_breg4 -1) DW_OP_plus_uconst 1 */
		check_reg_fetch(&p->plan.args[1], "b", BP_REG_RSI, 0, 8, true, 0, 0);
		CHECK_STR(p->arg_name[1], "b");
	}
	bp_points__free(p, 1);
	/* an entry value later on needs the CFA, which this code lacks */
	expect_err(dw, "func=dw_entry+1 a", -ENOENT, "argument 'a'",
		   "no call frame information (CFI) at");
	expect_err(dw, "func=dw_entry gone", -ENOENT, "argument 'gone'", "no location",
		   "readable nowhere in dw_entry");

	/* DW_OP_breg5 8, DW_OP_deref, DW_OP_plus_uconst 4 */
	p = one(dw, "func=dw_chain inner end p->ptr->second");
	if (p) {
		const struct bp_fetch *f = &p->plan.args[0];

		CHECK(f->base == BP_BASE_REG && f->reg == BP_REG_RDI && f->nderef == 2 &&
		      f->deref_off[0] == 8 && f->deref_off[1] == 4 && f->size == 4 &&
		      f->is_signed && f->user_mask == 3, "inner: %d derefs (%d, %d) size %d",
		      f->nderef, f->deref_off[0], f->deref_off[1], f->size);
		/* DW_OP_breg5 16, DW_OP_stack_value: the address itself */
		check_reg_fetch(&p->plan.args[1], "end", BP_REG_RDI, 16, 8, true, 0, 0);
		CHECK(bp_fetch__equal(&p->plan.args[0], &p->plan.args[2]),
		      "inner and p->ptr->second differ");
	}
	bp_points__free(p, 1);

	/* bit piece: a is bits 32..63 of rdi, b its low half, c missing */
	p = one(dw, "func=dw_pieces s.a s.b");
	if (p) {
		check_reg_fetch(&p->plan.args[0], "s.a", BP_REG_RDI, 0, 8, true, 32, 32);
		check_reg_fetch(&p->plan.args[1], "s.b", BP_REG_RDI, 0, 4, true, 0, 0);
	}
	bp_points__free(p, 1);
	expect_err(dw, "func=dw_pieces s.c", -ENOENT, "argument 's.c'", "optimized out at",
		   "bytes 8..15", "marked missing", "readable nowhere");
	expect_err(dw, "func=dw_pieces s", -EINVAL, "is a struct; name a member");

	/* a register piece and a memory piece */
	p = one(dw, "func=dw_mixed t.x t.y");
	if (p) {
		const struct bp_fetch *y = &p->plan.args[1];

		check_reg_fetch(&p->plan.args[0], "t.x", BP_REG_RDI, 0, 4, true, 0, 0);
		CHECK(y->base == BP_BASE_REG && y->reg == BP_REG_RSI && y->nderef == 1 &&
		      !y->deref_off[0] && y->size == 4, "t.y: *(rsi)");
	}
	bp_points__free(p, 1);

	/* constants: sdata, a 16-byte block read by member, implicit value,
	 * stack values, data1 */
	p = one(dw, "func=dw_consts k blk.x blk.y");
	if (p) {
		check_const(&p->plan.args[0], "k", -42, 8, true);
		check_const(&p->plan.args[1], "blk.x", 0x1122334455667788LL, 8, true);
		check_const(&p->plan.args[2], "blk.y", -2, 8, true);
	}
	bp_points__free(p, 1);
	p = one(dw, "func=dw_consts iv sv cv");
	if (p) {
		check_const(&p->plan.args[0], "iv", 0xfffffff9LL, 4, true);
		check_const(&p->plan.args[1], "sv", 2, 8, true);
		check_const(&p->plan.args[2], "cv", -100000, 4, true);
	}
	bp_points__free(p, 1);
	p = one(dw, "func=dw_consts u8v");
	if (p)
		check_const(&p->plan.args[0], "u8v", 0xfe, 1, true);
	bp_points__free(p, 1);

	/* DW_OP_addr (+ DW_OP_plus_uconst), a file-scope global and static */
	p = one(dw, "func=dw_global gv @dw_gvar dw_static");
	if (p) {
		check_global(p, 0, "gv", symbol(dw, "dw_gvar") + 8, 8, true);
		check_global(p, 1, "@dw_gvar", symbol(dw, "dw_gvar"), 8, true);
		check_global(p, 2, "dw_static", symbol(dw, "dw_static"), 8, true);
	}
	bp_points__free(p, 1);
	p = one(dw, "func=dw_global%return $retval gv");
	if (p)
		check_global(p, 1, "gv", symbol(dw, "dw_gvar") + 8, 8, true);
	bp_points__free(p, 1);
	/* hand-made DWARF: a thread-local in a binary with no TLS segment */
	expect_err(dw, "func=dw_global tls", -ENOENT, "argument 'tls'", "thread-local",
		   "no thread-local storage segment (PT_TLS)");

	/* a double: in xmm0 at first, at rsp-8 once spilled */
	expect_err(dw, "func=dw_float d", -EOPNOTSUPP, "argument 'd'",
		   "floating-point register xmm0", "readable nowhere in dw_float");
	expect_err(dw, "func=dw_float d2", -EOPNOTSUPP, "argument 'd2'",
		   "floating-point register xmm0", "available at", "(dw_float+0x6..+0xb)");
	p = one(dw, "func=dw_float+6 d2");
	if (p) {
		const struct bp_fetch *f = &p->plan.args[0];

		CHECK(f->base == BP_BASE_REG && f->reg == BP_REG_RSP && f->nderef == 1 &&
		      f->deref_off[0] == -8 && f->size == 8 && !f->is_signed,
		      "d2: its bits at rsp-8");
	}
	bp_points__free(p, 1);

	/* shifts, masks, conversions, a narrow read */
	p = one(dw, "func=dw_shr hw lo8 sx");
	if (p) {
		check_reg_fetch(&p->plan.args[0], "hw", BP_REG_RDI, 0, 8, false, 16, 16);
		check_reg_fetch(&p->plan.args[1], "lo8", BP_REG_RDI, 0, 1, false, 0, 0);
		check_reg_fetch(&p->plan.args[2], "sx", BP_REG_RDI, 0, 4, true, 0, 0);
	}
	bp_points__free(p, 1);
	p = one(dw, "func=dw_shr ds");
	if (p) {
		const struct bp_fetch *f = &p->plan.args[0];

		CHECK(f->base == BP_BASE_REG && f->reg == BP_REG_RSI && f->nderef == 1 &&
		      f->size == 2 && !f->is_signed && !f->bit_size, "ds: u16 *(rsi)");
	}
	bp_points__free(p, 1);

	/* gcc's DW_OP_GNU_uninit, which libdw 0.188 refuses: the location is
	 * read all the same (dw5.s in DWARF 5, dw.s's y in DWARF 4) */
	p = one(dw, "func=dw_uninit x pr.x pr.y");
	if (p) {
		check_reg_fetch(&p->plan.args[0], "x", BP_REG_RDI, 0, 8, true, 0, 0);
		check_reg_fetch(&p->plan.args[1], "pr.x", BP_REG_RDI, 0, 8, true, 0, 0);
		check_reg_fetch(&p->plan.args[2], "pr.y", BP_REG_RSI, 0, 8, true, 0, 0);
	}
	bp_points__free(p, 1);
	p = one(dw, "func=dw_uninit+7 x k w");
	if (p) {
		/* DW_OP_breg0 0; DW_OP_plus_uconst 240 (an 0xf0 operand byte) */
		check_reg_fetch(&p->plan.args[0], "x", BP_REG_RAX, 240, 8, true, 0, 0);
		check_const(&p->plan.args[1], "k", 240, 8, true);
		/* the default location */
		check_reg_fetch(&p->plan.args[2], "w", BP_REG_RSI, 0, 8, true, 0, 0);
	}
	bp_points__free(p, 1);
	p = one(dw, "func=dw_uninit4 y");
	if (p)
		check_reg_fetch(&p->plan.args[0], "y", BP_REG_RDI, 240, 8, true, 0, 0);
	bp_points__free(p, 1);
}

int main(void)
{
	size_t i;

	bpfprobe_set_print(capture);
	resolver = fixture_resolver();
	RUN(test_parse);
	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		cur = &variants[i];
#define RUN_V(fn) RUN_IN_VARIANT(fn, cur->name)
		RUN_V(test_params);
		RUN_V(test_globals);
		RUN_V(test_globals_lib);
		RUN_V(test_by_value);
		RUN_V(test_dw);
	}
	bp_resolver__free(resolver);
	return TEST_EXIT();
}
