// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One BPF instruction as text, in the syntax the kernel verifier log and
 * bpftool use ("r3 = *(u64 *)(r1 +112)"), so `bpfprobe -v` output can be
 * compared against a verifier log line by line.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "prologue/insn.h"
#include "prologue/prologue.h"

/* Helper names from the uapi mapper (it supplies the commas itself). */
#define BP_HELPER_NAME(x, ...) [BPF_FUNC_ ## x] = "bpf_" #x
static const char *const helper_names[__BPF_FUNC_MAX_ID] = {
	__BPF_FUNC_MAPPER(BP_HELPER_NAME)
};
#undef BP_HELPER_NAME

static const char *helper_name(int32_t id)
{
	if (id >= 0 && id < __BPF_FUNC_MAX_ID && helper_names[id])
		return helper_names[id];
	return "unknown";
}

static const char *const alu_ops[16] = {
	[BPF_ADD >> 4] = "+=",  [BPF_SUB >> 4] = "-=",
	[BPF_MUL >> 4] = "*=",  [BPF_DIV >> 4] = "/=",
	[BPF_OR >> 4] = "|=",   [BPF_AND >> 4] = "&=",
	[BPF_LSH >> 4] = "<<=", [BPF_RSH >> 4] = ">>=",
	[BPF_MOD >> 4] = "%=",  [BPF_XOR >> 4] = "^=",
	[BPF_MOV >> 4] = "=",   [BPF_ARSH >> 4] = "s>>=",
};

static const char *const jmp_ops[16] = {
	[BPF_JEQ >> 4] = "==",  [BPF_JGT >> 4] = ">",
	[BPF_JGE >> 4] = ">=",  [BPF_JSET >> 4] = "&",
	[BPF_JNE >> 4] = "!=",  [BPF_JSGT >> 4] = "s>",
	[BPF_JSGE >> 4] = "s>=", [BPF_JLT >> 4] = "<",
	[BPF_JLE >> 4] = "<=",  [BPF_JSLT >> 4] = "s<",
	[BPF_JSLE >> 4] = "s<=",
};

static const char *mem_size(const struct bpf_insn *insn)
{
	static const char *const u[] = { "u32", "u16", "u8", "u64" };
	static const char *const s[] = { "s32", "s16", "s8", "s64" };
	int i = BPF_SIZE(insn->code) >> 3;

	return BPF_MODE(insn->code) == BPF_MEMSX ? s[i] : u[i];
}

static int unknown(const struct bpf_insn *insn, char *buf, size_t len)
{
	return snprintf(buf, len, "(unknown opcode 0x%02x)", insn->code);
}

static int format_alu(const struct bpf_insn *insn, char *buf, size_t len)
{
	bool is64 = BPF_CLASS(insn->code) == BPF_ALU64;
	char r = is64 ? 'r' : 'w';
	int op = BPF_OP(insn->code);
	const char *name = alu_ops[op >> 4];

	if (op == BPF_NEG)
		return snprintf(buf, len, "%c%d = -%c%d", r, insn->dst_reg,
				r, insn->dst_reg);
	if (op == BPF_END) {
		if (is64)	/* unconditional byte swap */
			return snprintf(buf, len, "r%d = bswap%d r%d",
					insn->dst_reg, insn->imm, insn->dst_reg);
		return snprintf(buf, len, "r%d = %s%d r%d", insn->dst_reg,
				BPF_SRC(insn->code) == BPF_TO_BE ? "be" : "le",
				insn->imm, insn->dst_reg);
	}
	if (!name)
		return unknown(insn, buf, len);
	/* signed division and sign-extending moves are flagged by off */
	if ((op == BPF_DIV || op == BPF_MOD) && insn->off == 1)
		name = op == BPF_DIV ? "s/=" : "s%=";
	if (BPF_SRC(insn->code) == BPF_K)
		return snprintf(buf, len, "%c%d %s %d", r, insn->dst_reg, name,
				insn->imm);
	if (op == BPF_MOV && insn->off)
		return snprintf(buf, len, "%c%d = (s%d)%c%d", r, insn->dst_reg,
				insn->off, r, insn->src_reg);
	return snprintf(buf, len, "%c%d %s %c%d", r, insn->dst_reg, name, r,
			insn->src_reg);
}

static int format_atomic(const struct bpf_insn *insn, char *buf, size_t len)
{
	const char *w = BPF_SIZE(insn->code) == BPF_DW ? "64" : "";
	const char *sz = mem_size(insn);
	int op = insn->imm & ~BPF_FETCH;
	const char *name;

	switch (op) {
	case BPF_ADD: name = "add"; break;
	case BPF_AND: name = "and"; break;
	case BPF_OR: name = "or"; break;
	case BPF_XOR: name = "xor"; break;
	default: name = NULL; break;
	}
	if (name && !(insn->imm & BPF_FETCH))
		return snprintf(buf, len, "lock *(%s *)(r%d %+d) %s= r%d", sz,
				insn->dst_reg, insn->off,
				op == BPF_ADD ? "+" : op == BPF_AND ? "&" :
				op == BPF_OR ? "|" : "^", insn->src_reg);
	if (name)
		return snprintf(buf, len, "r%d = atomic%s_fetch_%s((%s *)(r%d %+d), r%d)",
				insn->src_reg, w, name, sz, insn->dst_reg,
				insn->off, insn->src_reg);
	if (insn->imm == BPF_XCHG)
		return snprintf(buf, len, "r%d = atomic%s_xchg((%s *)(r%d %+d), r%d)",
				insn->src_reg, w, sz, insn->dst_reg, insn->off,
				insn->src_reg);
	if (insn->imm == BPF_CMPXCHG)
		return snprintf(buf, len, "r0 = atomic%s_cmpxchg((%s *)(r%d %+d), r0, r%d)",
				w, sz, insn->dst_reg, insn->off, insn->src_reg);
	return unknown(insn, buf, len);
}

static int format_mem(const struct bpf_insn *insn, char *buf, size_t len)
{
	const char *sz = mem_size(insn);
	int mode = BPF_MODE(insn->code);

	switch (BPF_CLASS(insn->code)) {
	case BPF_LDX:
		if (mode != BPF_MEM && mode != BPF_MEMSX)
			break;
		return snprintf(buf, len, "r%d = *(%s *)(r%d %+d)",
				insn->dst_reg, sz, insn->src_reg, insn->off);
	case BPF_STX:
		if (mode == BPF_ATOMIC)
			return format_atomic(insn, buf, len);
		if (mode != BPF_MEM)
			break;
		return snprintf(buf, len, "*(%s *)(r%d %+d) = r%d", sz,
				insn->dst_reg, insn->off, insn->src_reg);
	case BPF_ST:
		if (mode != BPF_MEM)
			break;
		return snprintf(buf, len, "*(%s *)(r%d %+d) = %d", sz,
				insn->dst_reg, insn->off, insn->imm);
	}
	return unknown(insn, buf, len);
}

static int format_ld(const struct bpf_insn *insn, const struct bpf_insn *next,
		     char *buf, size_t len)
{
	int mode = BPF_MODE(insn->code);
	uint64_t v;

	if (mode == BPF_ABS)
		return snprintf(buf, len, "r0 = *(%s *)skb[%d]",
				mem_size(insn), insn->imm);
	if (mode == BPF_IND)
		return snprintf(buf, len, "r0 = *(%s *)skb[r%d + %d]",
				mem_size(insn), insn->src_reg, insn->imm);
	if (mode != BPF_IMM || BPF_SIZE(insn->code) != BPF_DW)
		return unknown(insn, buf, len);
	if (!next)
		return snprintf(buf, len, "r%d = <ld_imm64 without its second half>",
				insn->dst_reg);

	v = (uint64_t)(uint32_t)next->imm << 32 | (uint32_t)insn->imm;
	switch (insn->src_reg) {
	case 0:
		return snprintf(buf, len, "r%d = 0x%llx ll", insn->dst_reg,
				(unsigned long long)v);
	case BPF_PSEUDO_MAP_FD:
		return snprintf(buf, len, "r%d = map[fd:%d] ll", insn->dst_reg,
				insn->imm);
	case BPF_PSEUDO_MAP_VALUE:
		return snprintf(buf, len, "r%d = map[fd:%d][0]+%d ll",
				insn->dst_reg, insn->imm, next->imm);
	default:
		return snprintf(buf, len, "r%d = pseudo%d(0x%llx) ll",
				insn->dst_reg, insn->src_reg,
				(unsigned long long)v);
	}
}

static int format_jmp(const struct bpf_insn *insn, char *buf, size_t len)
{
	bool is32 = BPF_CLASS(insn->code) == BPF_JMP32;
	char r = is32 ? 'w' : 'r';
	int op = BPF_OP(insn->code);
	const char *name = jmp_ops[op >> 4];

	switch (op) {
	case BPF_JA:
		if (is32)	/* 32-bit range: the offset is in imm */
			return snprintf(buf, len, "gotol pc%+d", insn->imm);
		return snprintf(buf, len, "goto pc%+d", insn->off);
	case BPF_CALL:
		if (is32)
			break;
		if (insn->src_reg == BPF_PSEUDO_CALL)
			return snprintf(buf, len, "call pc%+d", insn->imm);
		if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL)
			return snprintf(buf, len, "call kernel-function#%d",
					insn->imm);
		return snprintf(buf, len, "call %s#%d", helper_name(insn->imm),
				insn->imm);
	case BPF_EXIT:
		if (is32)
			break;
		return snprintf(buf, len, "exit");
	default:
		if (!name)
			break;
		if (BPF_SRC(insn->code) == BPF_K)
			return snprintf(buf, len, "if %c%d %s 0x%x goto pc%+d", r,
					insn->dst_reg, name, (uint32_t)insn->imm,
					insn->off);
		return snprintf(buf, len, "if %c%d %s %c%d goto pc%+d", r,
				insn->dst_reg, name, r, insn->src_reg, insn->off);
	}
	return unknown(insn, buf, len);
}

int bp_insn__format(const struct bpf_insn *insn, const struct bpf_insn *next,
		    char *buf, size_t len)
{
	switch (BPF_CLASS(insn->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		return format_alu(insn, buf, len);
	case BPF_LDX:
	case BPF_STX:
	case BPF_ST:
		return format_mem(insn, buf, len);
	case BPF_LD:
		return format_ld(insn, next, buf, len);
	case BPF_JMP:
	case BPF_JMP32:
		return format_jmp(insn, buf, len);
	}
	return unknown(insn, buf, len);
}
