// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* x86-64: DWARF register numbers, struct pt_regs, the System V ABI. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

#include "prologue/arch.h"
#include "prologue/arch_x86_64.h"

/* Index is the DWARF number; off is the byte offset in struct pt_regs. */
static const struct {
	const char *name;
	int off;
} regs[BP_REG_MAX] = {
	[BP_REG_RAX] = { "rax", 80 },
	[BP_REG_RDX] = { "rdx", 96 },
	[BP_REG_RCX] = { "rcx", 88 },
	[BP_REG_RBX] = { "rbx", 40 },
	[BP_REG_RSI] = { "rsi", 104 },
	[BP_REG_RDI] = { "rdi", 112 },
	[BP_REG_RBP] = { "rbp", 32 },
	[BP_REG_RSP] = { "rsp", 152 },
	[BP_REG_R8]  = { "r8", 72 },
	[BP_REG_R9]  = { "r9", 64 },
	[BP_REG_R10] = { "r10", 56 },
	[BP_REG_R11] = { "r11", 48 },
	[BP_REG_R12] = { "r12", 24 },
	[BP_REG_R13] = { "r13", 16 },
	[BP_REG_R14] = { "r14", 8 },
	[BP_REG_R15] = { "r15", 0 },
	[BP_REG_RIP] = { "rip", 128 },
};

/* integer arguments, in order */
static const int arg_regs[] = {
	BP_REG_RDI, BP_REG_RSI, BP_REG_RDX, BP_REG_RCX, BP_REG_R8, BP_REG_R9,
};

/* rFLAGS: in pt_regs, numbered apart from the others by DWARF */
#define RFLAGS_OFF	144

int bp_arch__pt_regs_off(int reg)
{
	if (reg == BP_REG_RFLAGS)
		return RFLAGS_OFF;
	if (reg < 0 || reg >= BP_REG_MAX)
		return -1;
	return regs[reg].off;
}

const char *bp_arch__reg_name(int reg)
{
	if (reg == BP_REG_RFLAGS)
		return "rflags";
	if (reg < 0 || reg >= BP_REG_MAX)
		return NULL;
	return regs[reg].name;
}

/* perf's and ftrace's names (arch/x86/lib/insn's regs_query_register_offset) */
static const struct {
	const char *name;
	int reg;
} perf_regs[] = {
	{ "ax", BP_REG_RAX }, { "bx", BP_REG_RBX }, { "cx", BP_REG_RCX },
	{ "dx", BP_REG_RDX }, { "si", BP_REG_RSI }, { "di", BP_REG_RDI },
	{ "bp", BP_REG_RBP }, { "sp", BP_REG_RSP }, { "ip", BP_REG_RIP },
	{ "flags", BP_REG_RFLAGS },
};

int bp_arch__reg_by_name(const char *name, size_t len)
{
	size_t i;
	int reg;

	for (i = 0; i < sizeof(perf_regs) / sizeof(perf_regs[0]); i++) {
		if (strlen(perf_regs[i].name) == len && !strncmp(name, perf_regs[i].name, len))
			return perf_regs[i].reg;
	}
	/* the 64-bit names, r8..r15 included */
	for (reg = 0; reg < BP_REG_MAX; reg++) {
		if (strlen(regs[reg].name) == len && !strncmp(name, regs[reg].name, len))
			return reg;
	}
	return -1;
}

/* The legacy registers' parts: 32, 16, low and high 8 bits. */
static const struct {
	const char *d, *w, *b, *h;
	int reg;
} parts[] = {
	{ "eax", "ax", "al", "ah", BP_REG_RAX }, { "ebx", "bx", "bl", "bh", BP_REG_RBX },
	{ "ecx", "cx", "cl", "ch", BP_REG_RCX }, { "edx", "dx", "dl", "dh", BP_REG_RDX },
	{ "esi", "si", "sil", NULL, BP_REG_RSI }, { "edi", "di", "dil", NULL, BP_REG_RDI },
	{ "ebp", "bp", "bpl", NULL, BP_REG_RBP }, { "esp", "sp", "spl", NULL, BP_REG_RSP },
};

static bool is_named(const char *s, const char *name, size_t len)
{
	return s && strlen(s) == len && !strncmp(s, name, len);
}

int bp_arch__reg_part_by_name(const char *name, size_t len, int *bytes, int *bit_off)
{
	int reg;

	*bit_off = 0;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		reg = parts[i].reg;
		if (is_named(regs[reg].name, name, len))
			return *bytes = 8, reg;
		if (is_named(parts[i].d, name, len))
			return *bytes = 4, reg;
		if (is_named(parts[i].w, name, len))
			return *bytes = 2, reg;
		if (is_named(parts[i].b, name, len))
			return *bytes = 1, reg;
		if (is_named(parts[i].h, name, len))
			return *bit_off = 8, *bytes = 1, reg;
	}
	/* r8..r15 and their d, w, b parts */
	for (reg = BP_REG_R8; reg <= BP_REG_R15; reg++) {
		size_t n = strlen(regs[reg].name);

		if (len < n || strncmp(name, regs[reg].name, n))
			continue;
		if (len == n)
			return *bytes = 8, reg;
		if (len == n + 1 && name[n] == 'd')
			return *bytes = 4, reg;
		if (len == n + 1 && name[n] == 'w')
			return *bytes = 2, reg;
		if (len == n + 1 && name[n] == 'b')
			return *bytes = 1, reg;
	}
	if (is_named(regs[BP_REG_RIP].name, name, len))
		return *bytes = 8, BP_REG_RIP;
	return -1;
}

const char *bp_arch__reg_names(void)
{
	return "%ax %bx %cx %dx %si %di %bp %sp %r8..%r15 %ip %flags (or %rax %rbx %rcx %rdx %rsi %rdi %rbp %rsp %rip)";
}

const char *bp_arch__reg_text(int reg, char *buf, size_t len)
{
	const char *name = bp_arch__reg_name(reg);

	if (name)
		return name;
	if (reg >= BP_REG_XMM0 && reg <= BP_REG_XMM15)
		snprintf(buf, len, "xmm%d", reg - BP_REG_XMM0);
	else
		snprintf(buf, len, "dwarf%d", reg);
	return buf;
}

const char *bp_arch__fp_reg(int reg, char *buf, size_t len)
{
	if (reg >= BP_REG_XMM0 && reg <= BP_REG_XMM15)
		snprintf(buf, len, "floating-point register xmm%d", reg - BP_REG_XMM0);
	else if (reg >= BP_REG_ST0 && reg <= BP_REG_MM7)
		snprintf(buf, len, "x87/MMX register (DWARF %d)", reg);
	else
		return NULL;
	return buf;
}

int bp_arch__ip_reg(void)
{
	return BP_REG_RIP;
}

int bp_arch__ret_reg(void)
{
	return BP_REG_RAX;
}

int bp_arch__nr_arg_regs(void)
{
	return (int)(sizeof(arg_regs) / sizeof(arg_regs[0]));
}

int bp_arch__arg_reg(int i)
{
	return i >= 0 && i < bp_arch__nr_arg_regs() ? arg_regs[i] : -1;
}

int bp_arch__nr_regs(void)
{
	return BP_REG_MAX;
}

int bp_arch__sp_reg(void)
{
	return BP_REG_RSP;
}

int bp_arch__entry_cfa_off(void)
{
	return 8;
}

/* glibc's tcbhead_t: tcb, then the DTV pointer; a dtv_t is two words */
int bp_arch__tls_dtv_off(void)
{
	return 8;
}

int bp_arch__tls_dtv_entry_size(void)
{
	return 16;
}

/* The byte offset of member name in the struct type id of btf, or -1. */
static int64_t member_off(const struct btf *btf, int id, const char *name, int *type)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	int i;

	if (!t || !btf_is_composite(t))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);

		if (n && !strcmp(n, name)) {
			*type = m->type;
			return btf_member_bit_offset(t, i) / 8;
		}
	}
	return -1;
}

/* task_struct.thread.fsbase, from the running kernel's BTF */
int bp_arch__task_tp_off(int64_t *off, char *why, size_t len)
{
	static int64_t cached = -1;
	static int cached_err;
	struct btf *btf;
	int64_t thread, fsbase;
	int id, type = 0;

	if (cached >= 0 || cached_err) {
		*off = cached;
		if (cached_err)
			snprintf(why, len, "the kernel's BTF does not say where a task's fs base is (task_struct.thread.fsbase)");
		return cached_err;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		cached_err = -ENOENT;
		snprintf(why, len, "the kernel has no BTF (/sys/kernel/btf/vmlinux), which says where a task's fs base is");
		return cached_err;
	}
	id = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
	thread = id > 0 ? member_off(btf, id, "thread", &type) : -1;
	fsbase = thread >= 0 ? member_off(btf, type, "fsbase", &type) : -1;
	btf__free(btf);
	if (fsbase < 0) {
		cached_err = -ENOENT;
		snprintf(why, len, "the kernel's BTF does not say where a task's fs base is (task_struct.thread.fsbase)");
		return cached_err;
	}
	cached = thread + fsbase;
	*off = cached;
	return 0;
}

/* R_X86_64_DTPMOD64 (16), R_X86_64_TPOFF64 (18) */
enum bp_tls_reloc bp_arch__tls_reloc(uint32_t type)
{
	switch (type) {
	case 16: return BP_TLS_RELOC_DTPMOD;
	case 18: return BP_TLS_RELOC_TPOFF;
	default: return BP_TLS_RELOC_NONE;
	}
}
