// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stacks by frame pointers, the pure parts: which callers a frame-pointer
 * walk's addresses give (unwind/uw_fpwalk.c) for each CFA rule a frame
 * may have, and whether a module keeps frame pointers (util/cfi_fp.c) on
 * small programs assembled here with their CFI written out: frames from
 * rbp, a frameless leaf, a short function, an outermost _start, and one
 * function that keeps no frame pointer; and the way ustack= gives each
 * point (probes/ustack_way.c). (tests/e2e/stacks_fp.sh runs them
 * against gdb.)
 */
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "probes/ustack_way.h"
#include "unwind/uw_fpwalk.h"
#include "util/cfi_fp.h"


/* --- uw_fp__frames --------------------------------------------------------- */

struct rule_at {
	uint64_t lookup;
	enum bp_cfa_rule rule;
	bool outermost;
};

struct fake_cfi {
	const struct rule_at *rules;
	int n;
	int asked;
};

static enum bp_cfa_rule fake_rule(void *ctx, uint64_t lookup, bool *outermost)
{
	struct fake_cfi *c = ctx;

	c->asked++;
	for (int i = 0; i < c->n; i++) {
		if (c->rules[i].lookup == lookup) {
			*outermost = c->rules[i].outermost;
			return c->rules[i].rule;
		}
	}
	*outermost = false;
	return BP_CFA_NONE;
}

#define NRULES(r) ((int)(sizeof(r) / sizeof((r)[0])))

static bool pcs_are(const struct uw_fp_walk *w, const uint64_t *want, int n)
{
	if (w->n != n)
		return false;
	for (int i = 0; i < n; i++)
		if (w->pcs[i] != want[i])
			return false;
	return true;
}

/* frame 0 inside a frame: every caller from rbp, to the outermost */
static void test_walk_rbp(void)
{
	static const struct rule_at rules[] = {
		{ 0x1000, BP_CFA_RBP }, { 0x1fff, BP_CFA_RBP }, { 0x2fff, BP_CFA_RBP, true },
	};
	struct fake_cfi c = { rules, NRULES(rules) };
	uint64_t ips[] = { 0x1000, 0x2000, 0x3000 };
	struct uw_fp_walk w;

	uw_fp__frames(ips, 3, 0x9999, -1, 127, fake_rule, &c, &w);
	CHECK(pcs_are(&w, ips, 3) && w.end == UW_FP_END, "n %d end %d", w.n, w.end);
}

/* frame 0 at an entry (CFA rsp+8): its caller is [rsp], which the walk
 * before 6.11 misses, and 6.11+ gives as its second address */
static void test_walk_entry(void)
{
	static const struct rule_at rules[] = {
		{ 0x1000, BP_CFA_ENTRY }, { 0x1fff, BP_CFA_RBP }, { 0x2fff, BP_CFA_RBP, true },
	};
	struct fake_cfi c = { rules, NRULES(rules) };
	uint64_t old[] = { 0x1000, 0x3000 }, new[] = { 0x1000, 0x2000, 0x3000 };
	struct uw_fp_walk w;

	uw_fp__frames(old, 2, 0x2000, -1, 127, fake_rule, &c, &w);
	CHECK(pcs_are(&w, new, 3) && w.end == UW_FP_END, "before 6.11: n %d end %d", w.n, w.end);
	uw_fp__frames(new, 3, 0x2000, -1, 127, fake_rule, &c, &w);
	CHECK(pcs_are(&w, new, 3) && w.end == UW_FP_END, "6.11+: n %d end %d", w.n, w.end);
	/* as the kernel says: 6.11+ at push %rbp, or not */
	uw_fp__frames(new, 3, 0x2000, 1, 127, fake_rule, &c, &w);
	CHECK(pcs_are(&w, new, 3) && w.end == UW_FP_END, "given: n %d end %d", w.n, w.end);
	uw_fp__frames(old, 2, 0x2000, 0, 127, fake_rule, &c, &w);
	CHECK(pcs_are(&w, new, 3) && w.end == UW_FP_END, "not given: n %d end %d", w.n, w.end);
	/* said given, but the walk's second address is not [rsp]: inserted */
	uw_fp__frames(old, 2, 0x2000, 1, 127, fake_rule, &c, &w);
	CHECK(pcs_are(&w, new, 3) && w.end == UW_FP_END, "given, not there: n %d end %d", w.n,
	      w.end);
	/* [rsp] unread: no caller is guessed */
	uw_fp__frames(old, 2, 0, -1, 127, fake_rule, &c, &w);
	CHECK(w.n == 1 && w.end == UW_FP_NO_TOP, "no top: n %d end %d", w.n, w.end);
}

/* a recursive function probed at its entry: its caller and its caller's
 * caller return to the same call site, so ips[1] == [rsp] whether or not
 * the kernel stored [rsp]: only knowing which keeps every level */
static void test_walk_recursive(void)
{
	static const struct rule_at rules[] = {
		{ 0x1000, BP_CFA_ENTRY }, { 0x1fff, BP_CFA_RBP }, { 0x2fff, BP_CFA_RBP, true },
	};
	struct fake_cfi c = { rules, NRULES(rules) };
	uint64_t given[] = { 0x1000, 0x2000, 0x2000, 0x3000 }, missed[] = { 0x1000, 0x2000, 0x3000 };
	struct uw_fp_walk w;

	uw_fp__frames(given, 4, 0x2000, 1, 127, fake_rule, &c, &w);
	CHECK(pcs_are(&w, given, 4) && w.end == UW_FP_END, "given: n %d end %d", w.n, w.end);
	uw_fp__frames(missed, 3, 0x2000, 0, 127, fake_rule, &c, &w);
	CHECK(pcs_are(&w, given, 4) && w.end == UW_FP_END, "missed: n %d end %d", w.n, w.end);
}

/* a frame whose function keeps no frame pointer there ends the stack at
 * it; so does an address without CFI, or the walk's end */
static void test_walk_stops(void)
{
	static const struct rule_at rules[] = {
		{ 0x1000, BP_CFA_RBP }, { 0x1fff, BP_CFA_OTHER }, { 0x4000, BP_CFA_OTHER },
		{ 0x5000, BP_CFA_ENTRY }, { 0x5fff, BP_CFA_ENTRY },
	};
	struct fake_cfi c = { rules, NRULES(rules) };
	uint64_t ips[] = { 0x1000, 0x2000, 0x3000 }, none[] = { 0x7000, 0x2000 };
	uint64_t other[] = { 0x4000, 0x2000 }, entry[] = { 0x5000, 0x7000 };
	uint64_t one[] = { 0x1000 };
	struct uw_fp_walk w;

	uw_fp__frames(ips, 3, 0x9999, -1, 127, fake_rule, &c, &w);
	CHECK(pcs_are(&w, ips, 2) && w.end == UW_FP_NO_FP, "no fp: n %d end %d", w.n, w.end);
	/* frame 0 past its prologue without rbp: not even [rsp] */
	uw_fp__frames(other, 2, 0x6000, -1, 127, fake_rule, &c, &w);
	CHECK(w.n == 1 && w.end == UW_FP_NO_FP, "frame 0: n %d end %d", w.n, w.end);
	uw_fp__frames(none, 2, 0x9999, -1, 127, fake_rule, &c, &w);
	CHECK(w.n == 1 && w.end == UW_FP_NO_CFI, "no cfi: n %d end %d", w.n, w.end);
	uw_fp__frames(one, 1, 0x9999, -1, 127, fake_rule, &c, &w);
	CHECK(w.n == 1 && w.end == UW_FP_WALK_END, "walk end: n %d end %d", w.n, w.end);
	/* rsp+8 above frame 0 (a call cannot leave it) is no frame pointer */
	uw_fp__frames(entry, 2, 0x6000, -1, 127, fake_rule, &c, &w);
	CHECK(w.n == 2 && w.pcs[1] == 0x6000 && w.end == UW_FP_NO_FP, "entry above: n %d end %d",
	      w.n, w.end);
	/* the walk's 0 is its end, not a frame */
	{
		uint64_t zero[] = { 0x1000, 0 };
		static const struct rule_at r2[] = { { 0x1000, BP_CFA_RBP } };
		struct fake_cfi c2 = { r2, 1 };

		uw_fp__frames(zero, 2, 0x9999, -1, 127, fake_rule, &c2, &w);
		CHECK(w.n == 1 && w.end == UW_FP_WALK_END, "zero: n %d end %d", w.n, w.end);
	}
}

static void test_walk_limit(void)
{
	static const struct rule_at rules[] = {
		{ 0x1000, BP_CFA_RBP }, { 0x1fff, BP_CFA_RBP }, { 0x2fff, BP_CFA_RBP },
	};
	struct fake_cfi c = { rules, NRULES(rules) };
	uint64_t ips[] = { 0x1000, 0x2000, 0x3000, 0x3000 };
	struct uw_fp_walk w;

	uw_fp__frames(ips, 4, 0, -1, 3, fake_rule, &c, &w);
	CHECK(w.n == 3 && w.end == UW_FP_LIMIT, "n %d end %d", w.n, w.end);
}

/* --- bp_cfi_fp__module -------------------------------------------------- */

static char tmpdir[] = "/tmp/test_fp_stacks.XXXXXX";

/* Functions with their CFI as compilers write it. */
static const char prog_head[] =
	"\t.text\n"
	"\t.globl _start\n"
	"_start:\n"			/* outermost: rbp = 0, no caller */
	"\t.cfi_startproc\n"
	"\t.cfi_undefined rip\n"
	"\txorl %ebp, %ebp\n"
	"\tmovq (%rsp), %rdi\n"
	"\tandq $-16, %rsp\n"
	"\tcall framed\n"
	"\tmovl $231, %eax\n"
	"\tsyscall\n"
	"\thlt\n"
	"\t.cfi_endproc\n"
	"framed:\n"			/* push rbp; mov rsp, rbp */
	"\t.cfi_startproc\n"
	"\tpushq %rbp\n"
	"\t.cfi_def_cfa_offset 16\n"
	"\t.cfi_offset rbp, -16\n"
	"\tmovq %rsp, %rbp\n"
	"\t.cfi_def_cfa_register rbp\n"
	"\tcall leaf\n"
	"\taddq $1, %rax\n"
	"\tcall tiny\n"
	"\taddq $1, %rax\n"
	"\tpopq %rbp\n"
	"\t.cfi_def_cfa rsp, 8\n"
	"\tret\n"
	"\t.cfi_endproc\n"
	"leaf:\n"			/* frameless: rsp never moves */
	"\t.cfi_startproc\n"
	"\tmovq %rdi, %rax\n"
	"\taddq $1, %rax\n"
	"\timulq %rdi, %rax\n"
	"\taddq %rdi, %rax\n"
	"\tshlq $3, %rax\n"
	"\tret\n"
	"\t.cfi_endproc\n"
	"tiny:\n"			/* a jump: too short to ask */
	"\t.cfi_startproc\n"
	"\tjmp leaf\n"
	"\t.cfi_endproc\n";

/* a function that moves rsp without a frame pointer */
static const char prog_bad[] =
	"\t.globl nofp\n"
	"\t.type nofp, @function\n"
	"nofp:\n"
	"\t.cfi_startproc\n"
	"\tsubq $24, %rsp\n"
	"\t.cfi_def_cfa_offset 32\n"
	"\tcall leaf\n"
	"\tcall leaf\n"
	"\taddq $24, %rsp\n"
	"\t.cfi_def_cfa_offset 8\n"
	"\tret\n"
	"\t.cfi_endproc\n";

/* a frame pointer that is not where the walk reads it: CFA rbp + 24 */
static const char prog_odd[] =
	"odd:\n"
	"\t.cfi_startproc\n"
	"\tpushq %rbp\n"
	"\t.cfi_def_cfa_offset 16\n"
	"\tpushq %rbx\n"
	"\t.cfi_def_cfa_offset 24\n"
	"\tmovq %rsp, %rbp\n"
	"\t.cfi_def_cfa_register rbp\n"
	"\tcall leaf\n"
	"\tpopq %rbx\n"
	"\tpopq %rbp\n"
	"\t.cfi_def_cfa rsp, 8\n"
	"\tret\n"
	"\t.cfi_endproc\n";

/* Assembles and links text into tmpdir/name; its path, or NULL. */
static const char *build(const char *name, const char *text)
{
	static char path[256];
	char src[256], cmd[1024];
	FILE *f;

	snprintf(src, sizeof(src), "%s/%s.s", tmpdir, name);
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(src, "w");
	if (!f)
		return NULL;
	fputs(text, f);
	fputs("\t.section .note.GNU-stack,\"\",@progbits\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cc -nostdlib -static -o '%s' '%s' 2>&1", path, src);
	return system(cmd) ? NULL : path;
}

static int verdict(const char *path, struct bp_fp_verdict *v)
{
	int fd = open(path, O_RDONLY), err;
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	err = elf ? bp_cfi_fp__module(elf, v) : -EINVAL;
	elf_end(elf);
	close(fd);
	return err;
}

/* the address of symbol sym in path, by nm */
static uint64_t sym_addr(const char *path, const char *sym)
{
	char cmd[512], line[256];
	unsigned long long a = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm '%s'", path);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		char name[128];
		unsigned long long v;

		if (sscanf(line, "%llx %*s %127s", &v, name) == 2 && !strcmp(name, sym))
			a = v;
	}
	if (p)
		pclose(p);
	return a;
}

static void test_module_keeps(void)
{
	struct bp_fp_verdict v;
	const char *path = build("keeps", prog_head);

	if (!path) {
		CHECK(0, "cannot assemble the program");
		return;
	}
	CHECK_INT(verdict(path, &v), 0);
	/* _start (frameless, outermost), framed, leaf (frameless); tiny is
	 * too short to ask */
	CHECK(v.keeps && v.nfuncs == 4 && v.nchecked == 3, "keeps %d nfuncs %u nchecked %u",
	      v.keeps, v.nfuncs, v.nchecked);
}

static void test_module_lacks(void)
{
	char text[4096];
	struct bp_fp_verdict v;
	const char *path;

	snprintf(text, sizeof(text), "%s%s", prog_head, prog_bad);
	path = build("lacks", text);
	if (!path) {
		CHECK(0, "cannot assemble the program");
		return;
	}
	CHECK_INT(verdict(path, &v), 0);
	CHECK(!v.keeps && v.bad_addr && v.bad_addr == sym_addr(path, "nofp"),
	      "keeps %d bad 0x%llx (nofp at 0x%llx)", v.keeps, (unsigned long long)v.bad_addr,
	      (unsigned long long)sym_addr(path, "nofp"));
}

/* no .eh_frame: nothing tells */
static void test_module_no_cfi(void)
{
	struct bp_fp_verdict v;
	const char *path = build("nocfi", "\t.text\n\t.globl _start\n_start:\n\thlt\n");

	if (!path) {
		CHECK(0, "cannot assemble the program");
		return;
	}
	CHECK_INT(verdict(path, &v), -ENODATA);
}

/* the CFA rule at single addresses of the keeping program */
static void test_rule_at(void)
{
	char text[4096];
	const char *path;
	uint64_t framed, leaf, start, odd;
	Dwarf_CFI *cfi;
	bool outer;
	Elf *elf;
	int fd;

	snprintf(text, sizeof(text), "%s%s", prog_head, prog_odd);
	path = build("rules", text);
	if (!path) {
		CHECK(0, "cannot assemble the program");
		return;
	}
	framed = sym_addr(path, "framed");
	odd = sym_addr(path, "odd");
	leaf = sym_addr(path, "leaf");
	start = sym_addr(path, "_start");
	fd = open(path, O_RDONLY);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	cfi = elf ? dwarf_getcfi_elf(elf) : NULL;
	CHECK(cfi != NULL, "no CFI");
	if (cfi) {
		CHECK_INT(bp_cfa__rule(cfi, framed, &outer), BP_CFA_ENTRY);
		CHECK_INT(bp_cfa__rule(cfi, framed + 1, &outer), BP_CFA_OTHER);
		CHECK_INT(bp_cfa__rule(cfi, framed + 4, &outer), BP_CFA_RBP);
		/* rbp + 24 (realigned): not where a walk reads */
		CHECK_INT(bp_cfa__rule(cfi, odd + 5, &outer), BP_CFA_OTHER);
		CHECK_INT(bp_cfa__rule(cfi, leaf + 3, &outer), BP_CFA_ENTRY);
		CHECK(!outer, "leaf outermost");
		bp_cfa__rule(cfi, start + 2, &outer);
		CHECK(outer, "_start not outermost");
		CHECK_INT(bp_cfa__rule(cfi, 0x10, &outer), BP_CFA_NONE);
		dwarf_cfi_end(cfi);
	}
	elf_end(elf);
	close(fd);
}

/* One point of binary whose only argument is $ustack, given its way. */
static int way_of(const char *binary, bool kernel, enum bp_ustack_way way, struct bp_point *pt)
{
	struct bp_spec spec = { .ustack = way };

	memset(pt, 0, sizeof(*pt));
	pt->binary = strdup(binary);
	pt->kernel = kernel;
	pt->plan.nargs = 1;
	pt->plan.args[0].kind = BP_FETCH_USTACK;
	pt->plan.args[0].size = 8;
	pt->loc_desc[0] = strdup("the user stack");
	return bp_ustack_way__apply(&spec, pt, 1);
}

/* ustack=: fp and dwarf as asked; auto from the binary's modules, and the
 * point's location text says which and why */
static void test_way_apply(void)
{
	const char *keeps = build("way_keeps", prog_head);
	char text[4096], want[256];
	struct bp_point pt;

	CHECK_INT(way_of("/nonexistent", false, BP_USTACK_FP, &pt), 0);
	CHECK(pt.plan.args[0].reg == BP_USTACK_REG_FP &&
	      strstr(pt.loc_desc[0], "by frame pointers (ustack=fp)"), "fp: %s", pt.loc_desc[0]);
	bp_point__clear(&pt);
	CHECK_INT(way_of("/nonexistent", false, BP_USTACK_DWARF, &pt), 0);
	CHECK(pt.plan.args[0].reg == 0 && strstr(pt.loc_desc[0], "copied for CFI (ustack=dwarf"),
	      "dwarf: %s", pt.loc_desc[0]);
	bp_point__clear(&pt);
	/* a kernel probe: no binary to ask */
	CHECK_INT(way_of("vmlinux", true, BP_USTACK_AUTO, &pt), 0);
	CHECK(pt.plan.args[0].reg == 0, "kernel: %s", pt.loc_desc[0]);
	bp_point__clear(&pt);
	if (!keeps) {
		CHECK(0, "cannot assemble the program");
		return;
	}
	CHECK_INT(way_of(keeps, false, BP_USTACK_AUTO, &pt), 0);
	CHECK(pt.plan.args[0].reg == BP_USTACK_REG_FP &&
	      strstr(pt.loc_desc[0], "by frame pointers (all 1 module keep them)"), "auto: %s",
	      pt.loc_desc[0]);
	bp_point__clear(&pt);
	snprintf(text, sizeof(text), "%s%s", prog_head, prog_bad);
	keeps = build("way_lacks", text);
	if (!keeps) {
		CHECK(0, "cannot assemble the program");
		return;
	}
	snprintf(want, sizeof(want), "copied for CFI (way_lacks keeps no frame pointers: nofp at 0x%llx",
		 (unsigned long long)sym_addr(keeps, "nofp"));
	CHECK_INT(way_of(keeps, false, BP_USTACK_AUTO, &pt), 0);
	CHECK(pt.plan.args[0].reg == 0 && strstr(pt.loc_desc[0], want), "auto: %s (want %s)",
	      pt.loc_desc[0], want);
	bp_point__clear(&pt);
	/* a binary that is not there: the copy, saying why */
	CHECK_INT(way_of("/nonexistent/bin", false, BP_USTACK_AUTO, &pt), 0);
	CHECK(pt.plan.args[0].reg == 0 && strstr(pt.loc_desc[0], "cannot find /nonexistent/bin"),
	      "missing: %s", pt.loc_desc[0]);
	bp_point__clear(&pt);
}

int main(void)
{
	char cmd[64];

	elf_version(EV_CURRENT);
	RUN(test_walk_rbp);
	RUN(test_walk_entry);
	RUN(test_walk_recursive);
	RUN(test_walk_stops);
	RUN(test_walk_limit);
	if (!mkdtemp(tmpdir)) {
		printf("FAIL test_fp_stacks: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	RUN(test_module_keeps);
	RUN(test_module_lacks);
	RUN(test_module_no_cfi);
	RUN(test_rule_at);
	RUN(test_way_apply);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		printf("FAIL test_fp_stacks: cannot remove %s\n", tmpdir);
	return TEST_EXIT();
}
