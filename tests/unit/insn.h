/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* BPF instructions written out by hand, for the unit tests of the prologue
 * and of the liveness analysis. */
#ifndef BPFPROBE_TEST_INSN_H
#define BPFPROBE_TEST_INSN_H

#include <linux/bpf.h>

/* cpu v4 (Linux 6.6+), which Debian's 6.1 uapi headers lack */
#ifndef BPF_MEMSX
#define BPF_MEMSX		0x80
#endif

#define I(CODE, DST, SRC, OFF, IMM)					\
	((struct bpf_insn){ .code = (CODE), .dst_reg = (DST),		\
			    .src_reg = (SRC), .off = (OFF), .imm = (IMM) })
#define MOV_IMM(D, IMM)		I(BPF_ALU64 | BPF_MOV | BPF_K, D, 0, 0, IMM)
#define MOV_REG(D, S)		I(BPF_ALU64 | BPF_MOV | BPF_X, D, S, 0, 0)
#define MOV32_REG(D, S)		I(BPF_ALU | BPF_MOV | BPF_X, D, S, 0, 0)
/* r D = (sBITS)r S, r D = *(sSZ *)(r S + OFF): cpu v4's sign extension */
#define MOVSX(D, S, BITS)	I(BPF_ALU64 | BPF_MOV | BPF_X, D, S, BITS, 0)
#define LDXSX(SZ, D, S, OFF)	I(BPF_LDX | (SZ) | BPF_MEMSX, D, S, OFF, 0)
#define CALL(FN)		I(BPF_JMP | BPF_CALL, 0, 0, 0, FN)
#define JA(OFF)			I(BPF_JMP | BPF_JA, 0, 0, OFF, 0)
#define EXIT_INSN		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* How a prologue that reads memory ends for a body that reads only err and
 * r3: r2 = 0, past the error block, which sets r2 = 1 and r3 = 0. */
#define OK_THEN_ERR_R3		MOV_IMM(2, 0), JA(2), MOV_IMM(2, 1), MOV_IMM(3, 0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* BPFPROBE_TEST_INSN_H */
