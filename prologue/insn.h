/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* BPF instructions as C expressions, for the code generators of prologue/. */
#ifndef BPFPROBE_INSN_H
#define BPFPROBE_INSN_H

#include <linux/bpf.h>

/* cpu v4 (Linux 6.6+), which Debian's 6.1 uapi headers lack */
#ifndef BPF_MEMSX
#define BPF_MEMSX	0x80
#endif

#define INSN(CODE, DST, SRC, OFF, IMM)					\
	((struct bpf_insn){ .code = (CODE), .dst_reg = (DST),		\
			    .src_reg = (SRC), .off = (OFF), .imm = (IMM) })
#define ALU64_IMM(OP, DST, IMM)	INSN(BPF_ALU64 | (OP) | BPF_K, DST, 0, 0, IMM)
#define ALU64_REG(OP, DST, SRC)	INSN(BPF_ALU64 | (OP) | BPF_X, DST, SRC, 0, 0)
#define ALU32_IMM(OP, DST, IMM)	INSN(BPF_ALU | (OP) | BPF_K, DST, 0, 0, IMM)
#define ALU32_REG(OP, DST, SRC)	INSN(BPF_ALU | (OP) | BPF_X, DST, SRC, 0, 0)
#define MOV64_IMM(DST, IMM)	ALU64_IMM(BPF_MOV, DST, IMM)
#define MOV64_REG(DST, SRC)	ALU64_REG(BPF_MOV, DST, SRC)
#define LDX_MEM(SZ, DST, SRC, OFF) \
	INSN(BPF_LDX | (SZ) | BPF_MEM, DST, SRC, OFF, 0)
/* dst = *(sSZ *)(src + off), sign-extended (cpu v4; not BPF_DW) */
#define LDX_MEMSX(SZ, DST, SRC, OFF) \
	INSN(BPF_LDX | (SZ) | BPF_MEMSX, DST, SRC, OFF, 0)
/* dst = (sBITS)src: its low BITS (8, 16, 32) sign-extended (cpu v4) */
#define MOVSX64_REG(DST, SRC, BITS) \
	INSN(BPF_ALU64 | BPF_MOV | BPF_X, DST, SRC, BITS, 0)
#define STX_MEM(SZ, DST, SRC, OFF) \
	INSN(BPF_STX | (SZ) | BPF_MEM, DST, SRC, OFF, 0)
#define ST_MEM(SZ, DST, OFF, IMM) \
	INSN(BPF_ST | (SZ) | BPF_MEM, DST, 0, OFF, IMM)
/* lock *(SZ *)(DST + OFF) OP= SRC (BPF_ADD, BPF_OR, BPF_AND, BPF_XOR) */
#define ATOMIC_OP(SZ, OP, DST, SRC, OFF) \
	INSN(BPF_STX | (SZ) | BPF_ATOMIC, DST, SRC, OFF, OP)
#define JMP_IMM(OP, DST, IMM, OFF) \
	INSN(BPF_JMP | (OP) | BPF_K, DST, 0, OFF, IMM)
#define JMP_REG(OP, DST, SRC, OFF) \
	INSN(BPF_JMP | (OP) | BPF_X, DST, SRC, OFF, 0)
#define JMP32_IMM(OP, DST, IMM, OFF) \
	INSN(BPF_JMP32 | (OP) | BPF_K, DST, 0, OFF, IMM)
#define JMP_JA(OFF)		INSN(BPF_JMP | BPF_JA, 0, 0, OFF, 0)
#define CALL_HELPER(FN)		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, FN)
#define EXIT_INSN()		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* dst = the map of fd (two slots) */
#define LD_MAP_FD_0(DST, FD)	INSN(BPF_LD | BPF_DW | BPF_IMM, DST, BPF_PSEUDO_MAP_FD, 0, FD)
#define LD_MAP_FD_1()		INSN(0, 0, 0, 0, 0)
/* dst = the address of byte OFF of the value of array map fd (two slots) */
#define LD_MAP_VALUE_0(DST, FD)	INSN(BPF_LD | BPF_DW | BPF_IMM, DST, BPF_PSEUDO_MAP_VALUE, 0, FD)
#define LD_MAP_VALUE_1(OFF)	INSN(0, 0, 0, 0, OFF)

#endif /* BPFPROBE_INSN_H */
