// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests for probes/dwarf/loclist.c: location lists with gcc's
 * DW_OP_GNU_uninit, which Debian's libdw 0.188 refuses as a whole.
 *
 * The expression decoder on bytes written here (DW_OP_GNU_uninit at the
 * end, before DW_OP_piece and DW_OP_stack_value; 0xf0 bytes inside
 * operands, which must stay), then the lists of the hand-written DWARF of
 * build/targets/argx_dw-* (tests/targets/argx/dw/dw5.s in DWARF 5: every
 * DW_LLE_* kind, DW_FORM_loclistx and DW_FORM_sec_offset; dw.s in DWARF
 * 4's .debug_loc), read through the same attribute libdw refuses: the
 * entry at each address, every range, the ops and their byte offsets.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>

#include "probes/dwarf/loclist.h"
#include "tests/unit/test.h"

/* ---- one expression --------------------------------------------------------- */

static const struct bp_loclist_unit unit64 = { .version = 5, .addr_size = 8, .offset_size = 4 };

/* Decodes bytes; returns what bp_loclist__decode did. */
static int decode(const unsigned char *b, size_t len, Dwarf_Op *ops, size_t *nops,
		  bool *uninit, char *err, size_t errlen)
{
	*nops = 0;
	err[0] = '\0';
	return bp_loclist__decode(&unit64, b, len, ops, 16, nops, uninit, err, errlen);
}

/* op i is atom with operand number at byte offset off */
static void check_op(const Dwarf_Op *ops, size_t nops, size_t i, unsigned int atom,
		     uint64_t number, uint64_t off)
{
	CHECK(i < nops, "op %zu of %zu", i, nops);
	if (i >= nops)
		return;
	CHECK(ops[i].atom == atom && ops[i].number == number && ops[i].offset == off,
	      "op %zu: 0x%x %llu at %llu, want 0x%x %llu at %llu", i, ops[i].atom,
	      (unsigned long long)ops[i].number, (unsigned long long)ops[i].offset, atom,
	      (unsigned long long)number, (unsigned long long)off);
}

static void test_decode(void)
{
	/* gcc's shapes: after a register, before pieces */
	static const unsigned char reg[] = { 0x50, 0xf0 };
	static const unsigned char pieces[] = { 0x5d, 0xf0, 0x93, 8, 0x53, 0xf0, 0x93, 8 };
	/* 0xf0 as operand bytes: a ULEB128 (240 = 0xf0 0x01), a SLEB128,
	 * a 1-byte constant that ends the expression but for the op */
	static const unsigned char uconst[] = { 0x70, 0, 0x23, 0xf0, 0x01, 0x9f, 0xf0 };
	static const unsigned char sbreg[] = { 0x77, 0xf0, 0x01, 0xf0 };
	static const unsigned char c1[] = { 0x08, 0xf0, 0xf0, 0x9f };
	static const unsigned char c8[] = { 0x0e, 0xf0, 0xf0, 0xf0, 0xf0, 0xf0, 0xf0, 0xf0, 0xf0,
					    0x9f };
	/* an implicit pointer (4-byte DIE offset, SLEB offset) and an
	 * entry value whose block holds 0xf0 bytes */
	static const unsigned char implicit[] = { 0xa0, 0xf0, 0, 0, 0, 0x7f, 0xf0 };
	static const unsigned char entry[] = { 0xa3, 2, 0x7f, 0xf0, 0x9f };
	static const unsigned char clean[] = { 0x55 };
	static const unsigned char only[] = { 0xf0 };
	static const unsigned char unknown[] = { 0x55, 0xf1 };
	static const unsigned char cut[] = { 0x0e, 1, 2 };
	static const unsigned char cut_uleb[] = { 0x23, 0xf0 };
	Dwarf_Op ops[16];
	char err[160];
	size_t nops;
	bool uninit;

	CHECK_INT(decode(reg, sizeof(reg), ops, &nops, &uninit, err, sizeof(err)), 0);
	CHECK_INT(nops, 1);
	check_op(ops, nops, 0, DW_OP_reg0, 0, 0);
	CHECK(uninit, "reg: uninit not noted");

	CHECK_INT(decode(pieces, sizeof(pieces), ops, &nops, &uninit, err, sizeof(err)), 0);
	CHECK_INT(nops, 4);
	check_op(ops, nops, 0, DW_OP_reg13, 0, 0);
	check_op(ops, nops, 1, DW_OP_piece, 8, 2);
	check_op(ops, nops, 2, DW_OP_reg3, 0, 4);
	check_op(ops, nops, 3, DW_OP_piece, 8, 6);
	CHECK(uninit, "pieces: uninit not noted");

	CHECK_INT(decode(uconst, sizeof(uconst), ops, &nops, &uninit, err, sizeof(err)), 0);
	CHECK_INT(nops, 3);
	check_op(ops, nops, 0, DW_OP_breg0, 0, 0);
	check_op(ops, nops, 1, DW_OP_plus_uconst, 240, 2);
	check_op(ops, nops, 2, DW_OP_stack_value, 0, 5);

	CHECK_INT(decode(sbreg, sizeof(sbreg), ops, &nops, &uninit, err, sizeof(err)), 0);
	CHECK_INT(nops, 1);
	check_op(ops, nops, 0, DW_OP_breg7, 240, 0);
	CHECK(uninit, "sbreg: uninit not noted");

	/* const1u 0xf0, then the op, then stack_value */
	CHECK_INT(decode(c1, sizeof(c1), ops, &nops, &uninit, err, sizeof(err)), 0);
	CHECK_INT(nops, 2);
	check_op(ops, nops, 0, DW_OP_const1u, 0xf0, 0);
	check_op(ops, nops, 1, DW_OP_stack_value, 0, 3);
	CHECK(uninit, "c1: uninit not noted");

	CHECK_INT(decode(c8, sizeof(c8), ops, &nops, &uninit, err, sizeof(err)), 0);
	CHECK_INT(nops, 2);
	check_op(ops, nops, 0, DW_OP_const8u, 0xf0f0f0f0f0f0f0f0ULL, 0);
	check_op(ops, nops, 1, DW_OP_stack_value, 0, 9);
	CHECK(!uninit, "c8: no DW_OP_GNU_uninit there");

	CHECK_INT(decode(implicit, sizeof(implicit), ops, &nops, &uninit, err, sizeof(err)), 0);
	CHECK_INT(nops, 1);
	check_op(ops, nops, 0, DW_OP_implicit_pointer, 0xf0, 0);
	if (nops)
		CHECK((int64_t)ops[0].number2 == -1, "implicit pointer offset %lld",
		      (long long)ops[0].number2);
	CHECK(uninit, "implicit: uninit not noted");

	/* the block as libdw points to it: its length byte in the bytes */
	CHECK_INT(decode(entry, sizeof(entry), ops, &nops, &uninit, err, sizeof(err)), 0);
	CHECK_INT(nops, 2);
	check_op(ops, nops, 0, DW_OP_entry_value, 2, 0);
	if (nops)
		CHECK(ops[0].number2 == (uintptr_t)&entry[1], "entry value block at %p, want %p",
		      (void *)(uintptr_t)ops[0].number2, (void *)&entry[1]);
	check_op(ops, nops, 1, DW_OP_stack_value, 0, 4);
	CHECK(!uninit, "entry: its block's 0xf0 is no op");

	CHECK_INT(decode(clean, sizeof(clean), ops, &nops, &uninit, err, sizeof(err)), 0);
	CHECK(nops == 1 && !uninit, "clean: %zu ops, uninit %d", nops, uninit);
	/* nothing but the mark: no location */
	CHECK_INT(decode(only, sizeof(only), ops, &nops, &uninit, err, sizeof(err)), 0);
	CHECK(nops == 0 && uninit, "only: %zu ops, uninit %d", nops, uninit);

	/* what cannot be decoded says so, naming the op */
	CHECK_INT(decode(unknown, sizeof(unknown), ops, &nops, &uninit, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "DW_OP_GNU_encoded_addr") && strstr(err, "byte 1"), "%s", err);
	CHECK_INT(decode(cut, sizeof(cut), ops, &nops, &uninit, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "DW_OP_const8u") && strstr(err, "past the end"), "%s", err);
	CHECK_INT(decode(cut_uleb, sizeof(cut_uleb), ops, &nops, &uninit, err, sizeof(err)),
		  -EINVAL);
	CHECK_INT(bp_loclist__decode(&unit64, pieces, sizeof(pieces), ops, 3, &nops, &uninit,
				     err, sizeof(err)), -E2BIG);
}

/* ---- the lists of argx_dw ---------------------------------------------------- */

struct bin {
	int fd;
	Dwarf *dw;
};

static bool bin_open(struct bin *b, const char *path)
{
	b->fd = open(path, O_RDONLY);
	b->dw = b->fd >= 0 ? dwarf_begin(b->fd, DWARF_C_READ) : NULL;
	CHECK(b->dw, "%s: cannot read its DWARF (build the test targets)", path);
	return b->dw;
}

static void bin_close(struct bin *b)
{
	if (b->dw)
		dwarf_end(b->dw);
	if (b->fd >= 0)
		close(b->fd);
}

/* The DW_AT_location of variable var of function fn, and fn's code. */
static bool var_loc(struct bin *b, const char *fn, const char *var, Dwarf_Attribute *attr,
		    Dwarf_Addr *lo, Dwarf_Addr *hi)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Die cu, die, child;

	while (!dwarf_nextcu(b->dw, off, &next, &hsize, NULL, NULL, NULL)) {
		if (dwarf_offdie(b->dw, off + hsize, &cu) && !dwarf_child(&cu, &die)) {
			do {
				if (dwarf_tag(&die) != DW_TAG_subprogram || !dwarf_diename(&die) ||
				    strcmp(dwarf_diename(&die), fn) || dwarf_child(&die, &child))
					continue;
				do {
					if (dwarf_diename(&child) && !strcmp(dwarf_diename(&child), var) &&
					    dwarf_attr(&child, DW_AT_location, attr) &&
					    !dwarf_lowpc(&die, lo) && !dwarf_highpc(&die, hi))
						return true;
				} while (!dwarf_siblingof(&child, &child));
			} while (!dwarf_siblingof(&die, &die));
		}
		off = next;
	}
	CHECK(0, "no variable %s in %s", var, fn);
	return false;
}

/* The entry at addr: nwant ops (atoms), uninit as wanted. */
static void check_at(Dwarf_Attribute *attr, const char *what, Dwarf_Addr addr, int want_n,
		     const unsigned int *atoms, size_t natoms, bool uninit)
{
	struct bp_loclist_ops buf;
	Dwarf_Op *ops;
	size_t nops = 0, i;
	int n;

	n = bp_loclist__at(attr, addr, &ops, &nops, &buf);
	CHECK(n == want_n, "%s at 0x%llx: %d, want %d (%s)", what, (unsigned long long)addr, n,
	      want_n, buf.err);
	if (n != 1)
		return;
	CHECK(nops == natoms, "%s: %zu ops, want %zu", what, nops, natoms);
	for (i = 0; i < nops && i < natoms; i++)
		CHECK(ops[i].atom == atoms[i], "%s: op %zu is 0x%x, want 0x%x", what, i,
		      ops[i].atom, atoms[i]);
	CHECK(buf.uninit == uninit, "%s: uninit %d, want %d", what, buf.uninit, uninit);
}

/* Every entry: its range, 2 * nranges bounds. */
static void check_ranges(Dwarf_Attribute *attr, const char *what, const Dwarf_Addr *want,
			 int nranges)
{
	struct bp_loclist_ops buf;
	Dwarf_Addr base = 0, start, end;
	ptrdiff_t off = 0;
	Dwarf_Op *ops;
	size_t nops;
	int n = 0;

	while ((off = bp_loclist__next(attr, off, &base, &start, &end, &ops, &nops, &buf)) > 0) {
		if (n < nranges)
			CHECK(start == want[2 * n] && end == want[2 * n + 1],
			      "%s: range %d [0x%llx, 0x%llx), want [0x%llx, 0x%llx)", what, n,
			      (unsigned long long)start, (unsigned long long)end,
			      (unsigned long long)want[2 * n], (unsigned long long)want[2 * n + 1]);
		n++;
	}
	CHECK(off == 0, "%s: %lld (%s)", what, (long long)off, buf.err);
	CHECK(n == nranges, "%s: %d ranges, want %d", what, n, nranges);
}

#define ATOMS(...) (const unsigned int[]){ __VA_ARGS__ }, \
	sizeof((const unsigned int[]){ __VA_ARGS__ }) / sizeof(unsigned int)

static void test_lists_in(const char *path)
{
	Dwarf_Attribute x, pr, k, w, y;
	Dwarf_Addr lo, hi, lo4, hi4, at1;
	struct bin b;
	Dwarf_Op *ops;
	size_t nops;

	if (!bin_open(&b, path))
		goto out;
	if (!var_loc(&b, "dw_uninit", "x", &x, &lo, &hi) ||
	    !var_loc(&b, "dw_uninit", "pr", &pr, &lo, &hi) ||
	    !var_loc(&b, "dw_uninit", "k", &k, &lo, &hi) ||
	    !var_loc(&b, "dw_uninit", "w", &w, &lo, &hi) ||
	    !var_loc(&b, "dw_uninit4", "y", &y, &lo4, &hi4))
		goto out;
	/* leaq -240(%rdi), %rax is 7 bytes */
	at1 = lo + 7;
	CHECK(x.form == DW_FORM_loclistx && pr.form == DW_FORM_sec_offset,
	      "forms 0x%x 0x%x", x.form, pr.form);
	/* why this file exists: libdw refuses the entry */
	if (dwarf_getlocation_addr(&x, lo, &ops, &nops, 1) >= 0)
		printf("NOTE %s: this libdw reads DW_OP_GNU_uninit; the fallback is not exercised\n",
		       test_cur_name);

	/* x: base_addressx + offset_pair, then an 0xf0 operand byte */
	check_at(&x, "x", lo, 1, ATOMS(DW_OP_reg5), true);
	check_at(&x, "x", at1, 1, ATOMS(DW_OP_breg0, DW_OP_plus_uconst, DW_OP_stack_value), true);
	check_at(&x, "x", hi, 0, NULL, 0, false);
	check_ranges(&x, "x", (const Dwarf_Addr[]){ lo, at1, at1, hi }, 2);
	/* pr: startx_length, start_end; the mark before each piece */
	check_at(&pr, "pr", lo, 1, ATOMS(DW_OP_reg5, DW_OP_piece, DW_OP_reg4, DW_OP_piece), true);
	check_at(&pr, "pr", at1 + 1, 1,
		 ATOMS(DW_OP_reg5, DW_OP_piece, DW_OP_reg4, DW_OP_piece), true);
	check_ranges(&pr, "pr", (const Dwarf_Addr[]){ lo, at1, at1, hi }, 2);
	/* k: base_address + offset_pair, startx_endx; 240 both times */
	check_at(&k, "k", lo, 1, ATOMS(DW_OP_const1u, DW_OP_stack_value), true);
	check_at(&k, "k", at1, 1, ATOMS(DW_OP_constu, DW_OP_stack_value), true);
	check_ranges(&k, "k", (const Dwarf_Addr[]){ lo, at1, at1, hi }, 2);
	{
		struct bp_loclist_ops buf;

		if (bp_loclist__at(&k, lo, &ops, &nops, &buf) == 1 && nops)
			CHECK_INT(ops[0].number, 240);
		if (bp_loclist__at(&k, at1, &ops, &nops, &buf) == 1 && nops) {
			CHECK_INT(ops[0].number, 240);
			/* constu 0xf0 0x01, then the mark: stack_value at 4 */
			CHECK(nops == 2 && ops[1].offset == 4, "k: stack_value at %llu",
			      (unsigned long long)ops[nops - 1].offset);
		}
	}
	/* w: start_length, then the default location (clean: libdw's) */
	check_at(&w, "w", lo, 1, ATOMS(DW_OP_reg5), true);
	check_at(&w, "w", at1, 1, ATOMS(DW_OP_reg4), false);
	check_ranges(&w, "w", (const Dwarf_Addr[]){ lo, at1, 0, (Dwarf_Addr)-1 }, 2);
	/* DWARF 4: a base address selection entry, then pairs */
	check_at(&y, "y", lo4, 1, ATOMS(DW_OP_breg5, DW_OP_plus_uconst, DW_OP_stack_value), true);
	check_at(&y, "y", lo4 + 7, 1, ATOMS(DW_OP_reg0), true);
	check_ranges(&y, "y", (const Dwarf_Addr[]){ lo4, lo4 + 7, lo4 + 7, hi4 }, 2);
out:
	bin_close(&b);
}

static const char *const builds[] = { "gcc-O0", "gcc-O2", "clang-O0", "clang-O2" };
static const char *cur_build;

static void test_lists(void)
{
	char path[128];

	snprintf(path, sizeof(path), "build/targets/argx_dw-%s", cur_build);
	test_lists_in(path);
}

int main(void)
{
	size_t i;

	RUN(test_decode);
	for (i = 0; i < sizeof(builds) / sizeof(builds[0]); i++) {
		static char name[4][64];

		cur_build = builds[i];
		snprintf(name[i], sizeof(name[i]), "test_lists[%s]", cur_build);
		RUN_AS(test_lists, name[i]);
	}
	return TEST_EXIT();
}
