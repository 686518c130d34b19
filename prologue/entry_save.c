// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The entry-value companion program (entry_save.h):
 *
 *	r6 = r1
 *	call bpf_get_current_pid_tgid
 *	*(u64 *)(r10 - 16) = r0		; key.pid_tgid
 *	r0 = *(u64 *)(r6 + SP)
 *	r0 += 8				; the CFA at the entry
 *	*(u64 *)(r10 - 8) = r0		; key.cfa
 *	r0 = *(u64 *)(r6 + IP)		; value.entry
 *	*(u64 *)(r10 + V) = r0
 *	r0 = *(u64 *)(r6 + REG)		; each register pt_regs holds
 *	*(u64 *)(r10 + V + 8 + 8 * REG) = r0
 *	...
 *	r1 = map ll
 *	r2 = r10 - 16
 *	r3 = r10 + V
 *	r4 = BPF_ANY
 *	call bpf_map_update_elem
 *	r0 = 0
 *	exit
 */
#include <errno.h>
#include <string.h>

#include "prologue/arch.h"
#include "prologue/insn_buf.h"
#include "prologue/entry_save.h"
#include "prologue/insn.h"

#define KEY_OFF		(-16)

size_t bp_entry__value_size(void)
{
	return BP_ENTRY_VALUE_REG_OFF(bp_arch__nr_regs());
}

int bp_entry_save__gen(int map_fd, struct bpf_insn *insns, size_t max)
{
	struct bp_emit e = { .insns = insns, .max = max };
	int val = KEY_OFF - (int)bp_entry__value_size();
	int reg, off;

	bp_emit(&e, MOV64_REG(BPF_REG_6, BPF_REG_1));
	bp_emit(&e, CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	bp_emit(&e, STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_0, KEY_OFF));
	bp_emit(&e, LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6,
			    bp_arch__pt_regs_off(bp_arch__sp_reg())));
	bp_emit(&e, ALU64_IMM(BPF_ADD, BPF_REG_0, bp_arch__entry_cfa_off()));
	bp_emit(&e, STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_0, KEY_OFF + 8));
	bp_emit(&e, LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6,
			    bp_arch__pt_regs_off(bp_arch__ip_reg())));
	bp_emit(&e, STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_0, val + BP_ENTRY_VALUE_ENTRY_OFF));
	for (reg = 0; reg < bp_arch__nr_regs(); reg++) {
		off = bp_arch__pt_regs_off(reg);
		if (off < 0) {
			bp_emit(&e, ST_MEM(BPF_DW, BPF_REG_10, val + BP_ENTRY_VALUE_REG_OFF(reg), 0));
			continue;
		}
		bp_emit(&e, LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6, off));
		bp_emit(&e, STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_0, val + BP_ENTRY_VALUE_REG_OFF(reg)));
	}
	bp_emit(&e, LD_MAP_FD_0(BPF_REG_1, map_fd));
	bp_emit(&e, LD_MAP_FD_1());
	bp_emit(&e, MOV64_REG(BPF_REG_2, BPF_REG_10));
	bp_emit(&e, ALU64_IMM(BPF_ADD, BPF_REG_2, KEY_OFF));
	bp_emit(&e, MOV64_REG(BPF_REG_3, BPF_REG_10));
	bp_emit(&e, ALU64_IMM(BPF_ADD, BPF_REG_3, val));
	bp_emit(&e, MOV64_IMM(BPF_REG_4, BPF_ANY));
	bp_emit(&e, CALL_HELPER(BPF_FUNC_map_update_elem));
	bp_emit(&e, MOV64_IMM(BPF_REG_0, 0));
	bp_emit(&e, EXIT_INSN());
	if (e.n > max || e.n > BP_ENTRY_SAVE_MAX_INSNS)
		return -E2BIG;
	return (int)e.n;
}
