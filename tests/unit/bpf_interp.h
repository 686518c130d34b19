/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A strict little BPF interpreter for the unit tests (bpf_interp.c), with
 * a fake pt_regs as the program's ctx and a fake address space behind
 * bpf_probe_read_user()/bpf_probe_read_kernel().
 *
 * It is deliberately strict, a bit like the verifier: it tracks which
 * registers are initialized and which hold ctx/stack pointers, clobbers
 * r1..r5 on helper calls, refuses reads of stack bytes nothing wrote and
 * refuses an EXIT anywhere but at the last instruction (unless
 * vm.allow_exit) and cpu v4's instructions unless vm.cpu_v4. The helpers it knows are bpf_probe_read_user,
 * bpf_probe_read_kernel, bpf_get_func_ip (which returns fake_func_ip),
 * bpf_get_current_pid_tgid (vm.pid_tgid), bpf_get_current_task
 * (fake_task) and bpf_map_lookup_elem on fake maps: a per-CPU counter
 * array (vm.count_fd, its values vm.counts) and the entry-value map
 * (fake_entry_fd, also written with bpf_map_update_elem). Two one-value
 * arrays are reached in place only (ldimm64 of BPF_PSEUDO_MAP_VALUE, then
 * constant or register offsets: each access must lie inside the value):
 * the ran flags (vm.ran_fd, vm.ran), a pid bitmap (vm.bits_fd, vm.bits,
 * VM_BITS_BYTES bytes), which atomic OR/AND may change, and a seed
 * (vm.seed_fd, vm.seed). And what the follow
 * programs call (below).
 */
#ifndef BPFPROBE_TEST_BPF_INTERP_H
#define BPFPROBE_TEST_BPF_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/bpf.h>
#include "prologue/arch_x86_64.h"
#include "prologue/plan.h"

/* --- fake pt_regs (x86-64), indexed by DWARF register number --- */

/* Offset of each register in struct pt_regs (bpf_interp.c). */
extern const int pt_off[BP_REG_MAX];
#define PT_REGS_SIZE	168

struct pt_regs_fake {
	uint64_t w[PT_REGS_SIZE / 8];
};

void set_reg(struct pt_regs_fake *regs, int dwarf, uint64_t v);

/* --- fake address space --- */

#define USER_BASE	0x00007f0000010000ULL
#define KERN_BASE	0xffff888000020000ULL

/* Forgets every region. */
void mem_reset(void);
/* Maps len bytes of data at addr, user or kernel memory (8 regions at most). */
void mem_add(bool user, uint64_t addr, const void *data, size_t len);
/* Like the kernel's helpers: all or nothing, the destination zeroed on failure. */
bool fake_read(bool user, uint64_t addr, uint64_t size, void *dst);

static inline void put_u64(uint8_t *buf, size_t off, uint64_t v)
{
	memcpy(buf + off, &v, 8);	/* host is little-endian like BPF on x86 */
}

static inline void put_u32(uint8_t *buf, size_t off, uint32_t v)
{
	memcpy(buf + off, &v, 4);
}

/* What bpf_get_func_ip() returns: the probed function's run-time entry at
 * a uretprobe, 0 on kernels before 6.6. */
extern uint64_t fake_func_ip;

/* What bpf_get_current_task() returns. */
extern uint64_t fake_task;

/*
 * A fake entry-value map (prologue/entry_save.h): 16-byte keys {pid_tgid,
 * cfa}, values of up to FAKE_ENTRY_VALUE_MAX bytes. bpf_map_update_elem()
 * and bpf_map_lookup_elem() on fake_entry_fd use it.
 */
#define FAKE_ENTRY_MAX		8
#define FAKE_ENTRY_VALUE_MAX	256

struct fake_entry {
	uint64_t pid_tgid;
	uint64_t cfa;
	uint8_t value[FAKE_ENTRY_VALUE_MAX];
};

extern int fake_entry_fd;		/* 0: no such map */
extern size_t fake_entry_value_size;
extern struct fake_entry fake_entries[FAKE_ENTRY_MAX];
extern int nfake_entries;

/* The entry of that key, or NULL. */
struct fake_entry *fake_entry_find(uint64_t pid_tgid, uint64_t cfa);

/* --- the machine --- */

enum vkind { V_UNINIT, V_SCALAR, V_CTX, V_STACK,
	     V_MAP,		/* a map (ld_imm64 of a map fd): v = fd */
	     V_MAPVAL,		/* a value in a fake map: v = byte offset in
				 * counts[], or in one of the values below */
};

/* values reached in place, each its own region: an offset, however far
 * off, stays in its value's region and fails there */
#define VM_REGION(v)	((v) >> 40)
#define VM_RAN_VALUE	(1ULL << 40)	/* the ran map's one value (vm.ran) */
#define VM_BITS_VALUE	(2ULL << 40)	/* the bitmap (vm.bits) */
#define VM_SEED_VALUE	(3ULL << 40)	/* the seed's value (vm.seed) */
#define VM_GATE_VALUE	(4ULL << 40)	/* a one-value __u32 array's value (vm.gate) */
#define VM_BITS_WORDS	64	/* pids 0..4095 */
#define VM_BITS_BYTES	(8 * VM_BITS_WORDS)
#define VM_RAN_BYTES	512	/* the ran flags' value */
#define VM_ENTRY_VALUE(i)	(0x100000ULL + (uint64_t)(i) * 0x1000)
#define VM_MAX_KEYS	8

struct vreg {
	enum vkind kind;
	uint64_t v;		/* value, or offset for pointers */
};

#define STACK_SIZE 512

/*
 * Set r[1] (V_CTX, 0), r[10] (V_STACK, 0) and ctx before vm_run(); the
 * rest starts zeroed (uninitialized).
 */
struct vm {
	struct vreg r[11];
	const struct pt_regs_fake *ctx;
	uint8_t stack[STACK_SIZE];
	bool stack_init[STACK_SIZE];
	bool stack_used;
	/* cpu v4 (Linux 6.6+): sign-extending loads (BPF_MEMSX) and moves
	 * (BPF_MOV with off 8/16/32); without it they are refused, like the
	 * verifier of an older kernel does */
	bool cpu_v4;
	uint32_t written;	/* registers written, bit per register */
	int user_calls, kernel_calls, func_ip_calls;
	int steps;
	char err[200];
	/* guards and helpers beyond the prologue's */
	bool allow_exit;	/* an EXIT anywhere ends the run */
	bool exited;		/* it did, at exit_pc, returning exit_r0 */
	int exit_pc;
	uint64_t exit_r0;
	uint64_t pid_tgid;	/* bpf_get_current_pid_tgid() */
	int count_fd;		/* a per-CPU array of __u64 */
	uint64_t counts[VM_MAX_KEYS];
	int ran_fd;		/* an array of one value, vm.ran[] */
	uint8_t ran[VM_RAN_BYTES];
	int bits_fd;		/* an array of one value, vm.bits: a pid bitmap */
	uint64_t bits[VM_BITS_WORDS];
	int seed_fd;		/* an array of one value, vm.seed */
	uint64_t seed;
	int gate_fd;		/* an array of one __u32, vm.gate (read only) */
	uint32_t gate;
	/* the follow programs': bpf_get_current_comm (vm.comm), updates of a
	 * hash keyed by a comm (vm.execs_fd, keys vm.execs) */
	char comm[16];
	int execs_fd;
	char execs[VM_MAX_KEYS][16];
	int nexecs;
	int lookups;
	/* the exec watch's: bpf_ringbuf_output into events_fd (each record
	 * kept whole, up to 16 bytes), what it returns (ringbuf_ret), and
	 * bpf_send_signal's signals (what it returns: signal_ret) */
	int events_fd;
	uint8_t events[VM_MAX_KEYS][16];
	int nevents;
	uint64_t ringbuf_ret;
	int signals[VM_MAX_KEYS];
	int nsignals;
	uint64_t signal_ret;
};

/* Records the first failure in vm->err ("pc N: ..."). Returns -1. */
__attribute__((format(printf, 3, 4)))
int vm_fail(struct vm *vm, int pc, const char *fmt, ...);

/*
 * Runs insns[0..n); the only EXIT allowed is the last instruction, unless
 * vm->allow_exit.
 * Returns 0, or -1 with vm->err saying why.
 */
int vm_run(struct vm *vm, const struct bpf_insn *insns, int n);

/* Whether got[0..n) is want[0..nwant); if not, the first difference in
 * why ("insn 2: got '...', want '...'", or the lengths). */
bool vm_same_insns(const struct bpf_insn *got, int n, const struct bpf_insn *want,
		   int nwant, char *why, size_t len);

/* BP_TEST_VERBOSE=1 (or anything but 0): the tests print listings. */
bool vm_verbose(void);
/* insns[0..n) as BPF assembly, "#  N: insn" lines. */
void vm_dump(const struct bpf_insn *insns, int n);

/* The first instruction of insns[0..n) no path from 0 reaches (the
 * verifier refuses such code), or -1. */
int vm_first_unreachable(const struct bpf_insn *insns, int n);

#endif /* BPFPROBE_TEST_BPF_INTERP_H */
