// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The unit tests' strict BPF interpreter, its fake pt_regs and fake
 * address space: see bpf_interp.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prologue/prologue.h"
#include "tests/unit/bpf_interp.h"
#include "tests/unit/insn.h"

/* ------------------------------------------------------------------ */
/* Fake pt_regs                                                        */

/* The pt_regs layout, written out independently of prologue/arch_x86_64.c. */
const int pt_off[BP_REG_MAX] = {
	[BP_REG_RAX] = 80, [BP_REG_RDX] = 96, [BP_REG_RCX] = 88,
	[BP_REG_RBX] = 40, [BP_REG_RSI] = 104, [BP_REG_RDI] = 112,
	[BP_REG_RBP] = 32, [BP_REG_RSP] = 152, [BP_REG_R8] = 72,
	[BP_REG_R9] = 64, [BP_REG_R10] = 56, [BP_REG_R11] = 48,
	[BP_REG_R12] = 24, [BP_REG_R13] = 16, [BP_REG_R14] = 8,
	[BP_REG_R15] = 0, [BP_REG_RIP] = 128,
};

void set_reg(struct pt_regs_fake *regs, int dwarf, uint64_t v)
{
	regs->w[pt_off[dwarf] / 8] = v;
}

/* ------------------------------------------------------------------ */
/* Fake address space                                                  */

struct region {
	uint64_t addr;
	const uint8_t *data;
	size_t len;
	bool user;
};

static struct region regions[8];
static int nregions;

void mem_reset(void)
{
	nregions = 0;
}

void mem_add(bool user, uint64_t addr, const void *data, size_t len)
{
	regions[nregions++] = (struct region){ addr, data, len, user };
}

bool fake_read(bool user, uint64_t addr, uint64_t size, void *dst)
{
	int i;

	for (i = 0; i < nregions; i++) {
		const struct region *r = &regions[i];

		if (r->user != user || addr < r->addr || size > r->len ||
		    addr - r->addr > r->len - size)
			continue;
		memcpy(dst, r->data + (addr - r->addr), size);
		return true;
	}
	memset(dst, 0, size);
	return false;
}

/* ------------------------------------------------------------------ */
/* A strict little BPF interpreter                                     */

int vm_fail(struct vm *vm, int pc, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (vm->err[0])
		return -1;
	n = snprintf(vm->err, sizeof(vm->err), "pc %d: ", pc);
	va_start(ap, fmt);
	vsnprintf(vm->err + n, sizeof(vm->err) - n, fmt, ap);
	va_end(ap);
	return -1;
}

static int vm_scalar(struct vm *vm, int pc, int reg, uint64_t *v)
{
	/* a map value pointer is tested against NULL only: never 0 here */
	if (vm->r[reg].kind == V_MAPVAL) {
		*v = 1;
		return 0;
	}
	if (vm->r[reg].kind != V_SCALAR)
		return vm_fail(vm, pc, "r%d is %s, want a scalar", reg,
			       vm->r[reg].kind == V_UNINIT ? "uninitialized"
							   : "a pointer");
	*v = vm->r[reg].v;
	return 0;
}

static int vm_write(struct vm *vm, int pc, int reg, struct vreg val)
{
	if (reg >= 10)
		return vm_fail(vm, pc, "write to r%d", reg);
	vm->r[reg] = val;
	vm->written |= 1U << reg;
	return 0;
}

static uint64_t alu(int op, uint64_t a, uint64_t b, bool is64, bool *ok)
{
	int sh = is64 ? 63 : 31;

	*ok = true;
	if (!is64) {
		a = (uint32_t)a;
		b = (uint32_t)b;
	}
	switch (op) {
	case BPF_ADD: return a + b;
	case BPF_SUB: return a - b;
	case BPF_MUL: return a * b;
	case BPF_DIV: return b ? a / b : 0;
	case BPF_MOD: return b ? a % b : a;
	case BPF_OR: return a | b;
	case BPF_AND: return a & b;
	case BPF_XOR: return a ^ b;
	case BPF_LSH: return a << (b & sh);
	case BPF_RSH: return a >> (b & sh);
	case BPF_NEG: return -a;
	case BPF_MOV: return b;
	case BPF_ARSH:
		if (is64)
			return (uint64_t)((int64_t)a >> (b & sh));
		return (uint32_t)((int32_t)a >> (b & sh));
	}
	*ok = false;
	return 0;
}

/* v's low bits bits, sign-extended to 64 */
static uint64_t sext(uint64_t v, int bits)
{
	return bits >= 64 ? v : (uint64_t)((int64_t)(v << (64 - bits)) >> (64 - bits));
}

/* cpu v4's sign-extending move: dst = (sOFF)src, off 8, 16 or 32 (64-bit)
 * or 8, 16 (32-bit, the upper half zeroed); a pointer cannot be cut */
static int vm_movsx(struct vm *vm, int pc, const struct bpf_insn *in, bool is64)
{
	uint64_t b;

	if (!vm->cpu_v4)
		return vm_fail(vm, pc, "sign-extending move (cpu v4) on a kernel without it");
	if (in->off != 8 && in->off != 16 && (in->off != 32 || !is64))
		return vm_fail(vm, pc, "mov with off %d", in->off);
	if (vm->r[in->src_reg].kind != V_SCALAR)
		return vm_fail(vm, pc, "sign-extending move of r%d, not a scalar", in->src_reg);
	b = sext(vm->r[in->src_reg].v, in->off);
	return vm_write(vm, pc, in->dst_reg, (struct vreg){ V_SCALAR, is64 ? b : (uint32_t)b });
}

static int vm_alu(struct vm *vm, int pc, const struct bpf_insn *in)
{
	bool is64 = BPF_CLASS(in->code) == BPF_ALU64, ok;
	int op = BPF_OP(in->code);
	struct vreg *dst = &vm->r[in->dst_reg];
	uint64_t a = 0, b = 0, res;

	if (in->dst_reg > 10 || in->src_reg > 10)
		return vm_fail(vm, pc, "bad register");
	/* off is reserved but for cpu v4's signed division and moves */
	if (in->off && op == BPF_MOV && BPF_SRC(in->code) == BPF_X)
		return vm_movsx(vm, pc, in, is64);
	if (in->off)
		return vm_fail(vm, pc, "alu op 0x%x with off %d", op, in->off);
	if (BPF_SRC(in->code) == BPF_X) {
		/* copying a pointer keeps it a pointer */
		if (op == BPF_MOV && is64 && vm->r[in->src_reg].kind != V_UNINIT)
			return vm_write(vm, pc, in->dst_reg, vm->r[in->src_reg]);
		if (vm_scalar(vm, pc, in->src_reg, &b))
			return -1;
	} else {
		b = (uint64_t)(int64_t)in->imm;
	}
	if (op != BPF_MOV) {
		/* stack/ctx pointers only move by constants */
		if (is64 && (dst->kind == V_CTX || dst->kind == V_STACK) &&
		    BPF_SRC(in->code) == BPF_K &&
		    (op == BPF_ADD || op == BPF_SUB)) {
			dst->v = op == BPF_ADD ? dst->v + b : dst->v - b;
			vm->written |= 1U << in->dst_reg;
			return in->dst_reg == 10 ? vm_fail(vm, pc, "write to r10") : 0;
		}
		/* a map value's pointer moves by any scalar: the verifier wants
		 * it bounded, and here each access is checked against the value */
		if (is64 && dst->kind == V_MAPVAL && (op == BPF_ADD || op == BPF_SUB)) {
			dst->v = op == BPF_ADD ? dst->v + b : dst->v - b;
			vm->written |= 1U << in->dst_reg;
			return 0;
		}
		if (vm_scalar(vm, pc, in->dst_reg, &a))
			return -1;
	}
	res = alu(op, a, b, is64, &ok);
	if (!ok)
		return vm_fail(vm, pc, "alu op 0x%x", op);
	if (!is64)
		res = (uint32_t)res;
	return vm_write(vm, pc, in->dst_reg, (struct vreg){ V_SCALAR, res });
}

static int size_bytes(int code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

/* Host pointer for [ptr + off, +size) in ctx or stack, or NULL. */
static uint8_t *vm_mem(struct vm *vm, int pc, int reg, int16_t off, int size,
		       bool write)
{
	const struct vreg *p = &vm->r[reg];
	int64_t a = (int64_t)p->v + off;

	if (a % size) {
		vm_fail(vm, pc, "misaligned access");
		return NULL;
	}
	if (p->kind == V_CTX && !write) {
		if (a < 0 || a + size > PT_REGS_SIZE) {
			vm_fail(vm, pc, "ctx access at %" PRId64, a);
			return NULL;
		}
		return (uint8_t *)vm->ctx + a;
	}
	if (p->kind == V_STACK) {
		if (a < -STACK_SIZE || a + size > 0) {
			vm_fail(vm, pc, "stack access at %" PRId64, a);
			return NULL;
		}
		vm->stack_used = true;
		return vm->stack + STACK_SIZE + a;
	}
	if (p->kind == V_MAPVAL && VM_REGION(p->v) == VM_REGION(VM_BITS_VALUE)) {
		a -= VM_BITS_VALUE;
		if (a < 0 || a + size > (int64_t)sizeof(vm->bits)) {
			vm_fail(vm, pc, "bitmap access at %" PRId64, a);
			return NULL;
		}
		return (uint8_t *)vm->bits + a;
	}
	if (p->kind == V_MAPVAL && VM_REGION(p->v) == VM_REGION(VM_GATE_VALUE)) {
		a -= VM_GATE_VALUE;
		if (a || size != 4 || write) {
			vm_fail(vm, pc, "gate value access at %" PRId64, a);
			return NULL;
		}
		return (uint8_t *)&vm->gate;
	}
	if (p->kind == V_MAPVAL && VM_REGION(p->v) == VM_REGION(VM_SEED_VALUE)) {
		a -= VM_SEED_VALUE;
		if (a < 0 || a + size > (int64_t)sizeof(vm->seed)) {
			vm_fail(vm, pc, "seed value access at %" PRId64, a);
			return NULL;
		}
		return (uint8_t *)&vm->seed + a;
	}
	if (p->kind == V_MAPVAL && VM_REGION(p->v) == VM_REGION(VM_RAN_VALUE)) {
		a -= VM_RAN_VALUE;
		if (a < 0 || a + size > (int64_t)sizeof(vm->ran)) {
			vm_fail(vm, pc, "ran value access at %" PRId64, a);
			return NULL;
		}
		return vm->ran + a;
	}
	if (p->kind == V_MAPVAL && p->v >= VM_ENTRY_VALUE(0)) {
		uint64_t i = (p->v - VM_ENTRY_VALUE(0)) / 0x1000;
		int64_t o = (int64_t)((p->v - VM_ENTRY_VALUE(0)) % 0x1000) + off;

		if (i >= (uint64_t)nfake_entries || write || o < 0 ||
		    o + size > (int64_t)fake_entry_value_size) {
			vm_fail(vm, pc, "entry value access at %" PRId64, o);
			return NULL;
		}
		return fake_entries[i].value + o;
	}
	if (p->kind == V_MAPVAL) {
		if (a < 0 || a + size > (int64_t)sizeof(vm->counts)) {
			vm_fail(vm, pc, "map value access at %" PRId64, a);
			return NULL;
		}
		return (uint8_t *)vm->counts + a;
	}
	vm_fail(vm, pc, "memory access through r%d (not ctx/stack)", reg);
	return NULL;
}

static int vm_ldx(struct vm *vm, int pc, const struct bpf_insn *in)
{
	int size = size_bytes(in->code), i;
	bool sx = BPF_MODE(in->code) == BPF_MEMSX;
	uint64_t v = 0;
	uint8_t *p;

	if (BPF_MODE(in->code) != BPF_MEM && !sx)
		return vm_fail(vm, pc, "ldx mode");
	if (sx && !vm->cpu_v4)
		return vm_fail(vm, pc, "sign-extending load (cpu v4) on a kernel without it");
	if (sx && size == 8)
		return vm_fail(vm, pc, "sign-extending load of 8 bytes");
	p = vm_mem(vm, pc, in->src_reg, in->off, size, false);
	if (!p)
		return -1;
	if (vm->r[in->src_reg].kind == V_STACK) {
		for (i = 0; i < size; i++) {
			if (!vm->stack_init[p - vm->stack + i])
				return vm_fail(vm, pc, "read of uninitialized stack");
		}
	}
	memcpy(&v, p, size);
	if (sx)
		v = sext(v, size * 8);
	return vm_write(vm, pc, in->dst_reg, (struct vreg){ V_SCALAR, v });
}

/* lock *(size *)(dst + off) op= src, without fetch: OR, AND, ADD, XOR */
static int vm_atomic(struct vm *vm, int pc, const struct bpf_insn *in)
{
	int size = size_bytes(in->code);
	uint64_t v = 0, old = 0;
	uint8_t *p;

	if ((size != 4 && size != 8) || vm->r[in->dst_reg].kind != V_MAPVAL)
		return vm_fail(vm, pc, "atomic op needs a map value and a word");
	if (vm_scalar(vm, pc, in->src_reg, &v))
		return -1;
	p = vm_mem(vm, pc, in->dst_reg, in->off, size, true);
	if (!p)
		return -1;
	memcpy(&old, p, size);
	switch (in->imm) {
	case BPF_OR: old |= v; break;
	case BPF_AND: old &= v; break;
	case BPF_ADD: old += v; break;
	case BPF_XOR: old ^= v; break;
	default: return vm_fail(vm, pc, "atomic op 0x%x", in->imm);
	}
	memcpy(p, &old, size);
	return 0;
}

static int vm_st(struct vm *vm, int pc, const struct bpf_insn *in)
{
	int size = size_bytes(in->code);
	uint64_t v;
	uint8_t *p;

	if (BPF_CLASS(in->code) == BPF_STX && BPF_MODE(in->code) == BPF_ATOMIC)
		return vm_atomic(vm, pc, in);

	if (BPF_MODE(in->code) != BPF_MEM || (vm->r[in->dst_reg].kind != V_STACK &&
						 vm->r[in->dst_reg].kind != V_MAPVAL))
		return vm_fail(vm, pc, "store must go to the stack or a map value");
	if (BPF_CLASS(in->code) == BPF_STX) {
		if (vm_scalar(vm, pc, in->src_reg, &v))
			return -1;
	} else {
		v = (uint64_t)(int64_t)in->imm;
	}
	p = vm_mem(vm, pc, in->dst_reg, in->off, size, true);
	if (!p)
		return -1;
	memcpy(p, &v, size);
	if (vm->r[in->dst_reg].kind == V_STACK)
		memset(vm->stack_init + (p - vm->stack), 1, size);
	return 0;
}

/* The __u32 key of bpf_map_lookup_elem(r1 = map, r2 = key), with r0 =
 * NULL and r1..r5 clobbered; -1 after vm_fail(). */
static int64_t vm_lookup(struct vm *vm, int pc)
{
	uint32_t key;
	uint8_t *k;

	if (vm->r[1].kind != V_MAP || vm->r[2].kind != V_STACK)
		return vm_fail(vm, pc, "map_lookup_elem without a map and a stack key");
	k = vm_mem(vm, pc, 2, 0, 4, false);
	if (!k)
		return -1;
	for (int i = 0; i < 4; i++)
		if (!vm->stack_init[k - vm->stack + i])
			return vm_fail(vm, pc, "lookup with an uninitialized key");
	memcpy(&key, k, 4);
	vm->lookups++;
	for (int i = 1; i <= 5; i++)
		vm->r[i] = (struct vreg){ V_UNINIT, 0xbadbadbadULL };
	vm->written |= 0x3f;
	vm->r[0] = (struct vreg){ V_SCALAR, 0 };	/* NULL until found */
	return key;
}

/* What bpf_get_func_ip() returns: the probed function's run-time entry at
 * a uretprobe, 0 on kernels before 6.6. */
uint64_t fake_func_ip;

static void clobber_caller_saved(struct vm *vm, uint64_t ret)
{
	int i;

	for (i = 1; i <= 5; i++)
		vm->r[i] = (struct vreg){ V_UNINIT, 0xbadbadbadULL };
	vm->r[0] = (struct vreg){ V_SCALAR, ret };
	vm->written |= 0x3f;
}

/* Host pointer to n initialized stack bytes at register reg. */
static uint8_t *stack_arg(struct vm *vm, int pc, int reg, int n, bool init)
{
	uint8_t *p;

	if (vm->r[reg].kind != V_STACK) {
		vm_fail(vm, pc, "r%d is not a stack pointer", reg);
		return NULL;
	}
	p = vm_mem(vm, pc, reg, 0, 1, !init);
	if (!p || (int64_t)vm->r[reg].v + n > 0) {
		vm_fail(vm, pc, "r%d: %d bytes out of the stack", reg, n);
		return NULL;
	}
	for (int i = 0; init && i < n; i++)
		if (!vm->stack_init[p - vm->stack + i]) {
			vm_fail(vm, pc, "r%d: uninitialized stack", reg);
			return NULL;
		}
	return p;
}

/* bpf_map_update_elem (the execs hash) / bpf_get_current_comm */
static int vm_call_follow(struct vm *vm, int pc, const struct bpf_insn *in)
{
	int fd = vm->r[1].kind == V_MAP ? (int)vm->r[1].v : -1;
	uint8_t *k;
	int i;

	if (in->imm == BPF_FUNC_get_current_comm) {
		uint64_t n = 0;

		if (vm_scalar(vm, pc, 2, &n) || n != 16 || !(k = stack_arg(vm, pc, 1, 16, false)))
			return vm_fail(vm, pc, "bad get_current_comm args");
		memcpy(k, vm->comm, 16);
		memset(vm->stack_init + (k - vm->stack), 1, 16);
		clobber_caller_saved(vm, 0);
		return 0;
	}
	if (fd < 0)
		return vm_fail(vm, pc, "map call without a map in r1");
	if (fd == vm->execs_fd && in->imm == BPF_FUNC_map_update_elem) {
		if (!(k = stack_arg(vm, pc, 2, 16, true)) || !stack_arg(vm, pc, 3, 8, true))
			return -1;
		for (i = 0; i < vm->nexecs && memcmp(vm->execs[i], k, 16); i++)
			;
		if (i == vm->nexecs && vm->nexecs < VM_MAX_KEYS)
			memcpy(vm->execs[vm->nexecs++], k, 16);
		clobber_caller_saved(vm, 0);
		return 0;
	}
	return vm_fail(vm, pc, "update/delete in unknown map fd %d", fd);
}

uint64_t fake_task;
int fake_entry_fd;
size_t fake_entry_value_size;
struct fake_entry fake_entries[FAKE_ENTRY_MAX];
int nfake_entries;

struct fake_entry *fake_entry_find(uint64_t pid_tgid, uint64_t cfa)
{
	for (int i = 0; i < nfake_entries; i++)
		if (fake_entries[i].pid_tgid == pid_tgid && fake_entries[i].cfa == cfa)
			return &fake_entries[i];
	return NULL;
}

/* 16 initialized stack bytes at reg (a key or, with size, a value) */
static uint8_t *vm_stack_bytes(struct vm *vm, int pc, int reg, size_t size)
{
	uint8_t *p;

	if (vm->r[reg].kind != V_STACK)
		return vm_fail(vm, pc, "r%d is no stack pointer", reg), NULL;
	p = vm_mem(vm, pc, reg, 0, 8, false);
	if (!p || (int64_t)vm->r[reg].v + (int64_t)size > 0)
		return vm_fail(vm, pc, "r%d: %zu bytes out of the stack", reg, size), NULL;
	for (size_t i = 0; i < size; i++)
		if (!vm->stack_init[p - vm->stack + i])
			return vm_fail(vm, pc, "r%d: uninitialized stack byte", reg), NULL;
	return p;
}

/* bpf_map_lookup_elem / bpf_map_update_elem on the entry-value map */
static int vm_entry_map(struct vm *vm, int pc, bool update)
{
	uint64_t key[2];
	struct fake_entry *f;
	uint8_t *k, *v = NULL;

	k = vm_stack_bytes(vm, pc, 2, 16);
	if (!k || (update && !(v = vm_stack_bytes(vm, pc, 3, fake_entry_value_size))))
		return -1;
	memcpy(key, k, 16);
	f = fake_entry_find(key[0], key[1]);
	if (update) {
		if (!f && nfake_entries == FAKE_ENTRY_MAX)
			return vm_fail(vm, pc, "fake entry map full");
		if (!f) {
			f = &fake_entries[nfake_entries++];
			f->pid_tgid = key[0];
			f->cfa = key[1];
		}
		memcpy(f->value, v, fake_entry_value_size);
	}
	vm->lookups++;
	clobber_caller_saved(vm, 0);
	if (!update && f)
		vm->r[0] = (struct vreg){ V_MAPVAL, VM_ENTRY_VALUE(f - fake_entries) };
	return 0;
}

static int vm_call(struct vm *vm, int pc, const struct bpf_insn *in)
{
	bool user = in->imm == BPF_FUNC_probe_read_user;
	uint64_t size = 0, src = 0, ret = 0;
	uint8_t *dst;

	if (!in->src_reg && in->imm == BPF_FUNC_get_current_pid_tgid) {
		clobber_caller_saved(vm, vm->pid_tgid);
		return 0;
	}
	if (!in->src_reg && in->imm == BPF_FUNC_get_current_task) {
		clobber_caller_saved(vm, fake_task);
		return 0;
	}
	if (!in->src_reg && fake_entry_fd && vm->r[1].kind == V_MAP &&
	    (int)vm->r[1].v == fake_entry_fd &&
	    (in->imm == BPF_FUNC_map_lookup_elem || in->imm == BPF_FUNC_map_update_elem))
		return vm_entry_map(vm, pc, in->imm == BPF_FUNC_map_update_elem);
	if (!in->src_reg && in->imm == BPF_FUNC_map_lookup_elem) {
		int fd = vm->r[1].kind == V_MAP ? (int)vm->r[1].v : -1;
		int64_t key = vm_lookup(vm, pc);

		if (key < 0)
			return -1;
		if (fd == vm->count_fd && (uint32_t)key < VM_MAX_KEYS) {
			vm->r[0] = (struct vreg){ V_MAPVAL, (uint64_t)key * 8 };
			return 0;
		}
		if (fd == vm->gate_fd && fd > 0) {
			if (key == 0)
				vm->r[0] = (struct vreg){ V_MAPVAL, VM_GATE_VALUE };
			return 0;
		}
		return vm_fail(vm, pc, "lookup in unknown map fd %d", fd);
	}
	if (!in->src_reg && (in->imm == BPF_FUNC_map_update_elem ||
			     in->imm == BPF_FUNC_map_delete_elem ||
			     in->imm == BPF_FUNC_get_current_comm))
		return vm_call_follow(vm, pc, in);
	if (!in->src_reg && in->imm == BPF_FUNC_send_signal) {
		uint64_t sig = 0;

		if (vm_scalar(vm, pc, 1, &sig))
			return -1;
		if (vm->nsignals < VM_MAX_KEYS)
			vm->signals[vm->nsignals++] = (int)sig;
		clobber_caller_saved(vm, vm->signal_ret);
		return 0;
	}
	if (!in->src_reg && in->imm == BPF_FUNC_ringbuf_output) {
		uint64_t size = 0, flags = 0;
		uint8_t *data;

		if (vm->r[1].kind != V_MAP || (int)vm->r[1].v != vm->events_fd || !vm->events_fd)
			return vm_fail(vm, pc, "ringbuf_output without the events map in r1");
		if (vm_scalar(vm, pc, 3, &size) || vm_scalar(vm, pc, 4, &flags))
			return -1;
		if (!size || size > 16 || !(data = vm_stack_bytes(vm, pc, 2, size)))
			return vm_fail(vm, pc, "bad ringbuf_output record");
		if (!vm->ringbuf_ret && vm->nevents < VM_MAX_KEYS)
			memcpy(vm->events[vm->nevents++], data, size);
		clobber_caller_saved(vm, vm->ringbuf_ret);
		return 0;
	}
	if (!in->src_reg && in->imm == BPF_FUNC_get_func_ip) {
		if (vm->r[1].kind != V_CTX || vm->r[1].v)
			return vm_fail(vm, pc, "get_func_ip without ctx in r1");
		vm->func_ip_calls++;
		clobber_caller_saved(vm, fake_func_ip);
		return 0;
	}
	if (in->src_reg || (in->imm != BPF_FUNC_probe_read_user &&
			    in->imm != BPF_FUNC_probe_read_kernel))
		return vm_fail(vm, pc, "unexpected call %d", in->imm);
	if (vm_scalar(vm, pc, 2, &size) || vm_scalar(vm, pc, 3, &src))
		return -1;
	if (vm->r[1].kind != V_STACK || size < 1 || size > 8)
		return vm_fail(vm, pc, "bad probe_read args");
	dst = vm_mem(vm, pc, 1, 0, 1, true);
	if (!dst || (int64_t)vm->r[1].v + (int64_t)size > 0)
		return vm_fail(vm, pc, "probe_read destination out of the stack");
	if (!fake_read(user, src, size, dst))
		ret = (uint64_t)-EFAULT;
	memset(vm->stack_init + (dst - vm->stack), 1, size);
	if (user)
		vm->user_calls++;
	else
		vm->kernel_calls++;
	/* caller-saved registers are gone after a call */
	clobber_caller_saved(vm, ret);
	return 0;
}

static bool jmp_cond(int op, uint64_t a, uint64_t b, bool is64, bool *ok)
{
	int64_t sa = is64 ? (int64_t)a : (int32_t)a;
	int64_t sb = is64 ? (int64_t)b : (int32_t)b;

	*ok = true;
	if (!is64) {
		a = (uint32_t)a;
		b = (uint32_t)b;
	}
	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSET: return a & b;
	case BPF_JSGT: return sa > sb;
	case BPF_JSGE: return sa >= sb;
	case BPF_JSLT: return sa < sb;
	case BPF_JSLE: return sa <= sb;
	}
	*ok = false;
	return false;
}

/* Runs insns[0..n); the only EXIT allowed is the last instruction. */
int vm_run(struct vm *vm, const struct bpf_insn *insns, int n)
{
	int pc = 0;

	for (;;) {
		const struct bpf_insn *in;
		uint64_t a = 0, b = 0;
		bool taken, ok;
		int op;

		if (pc < 0 || pc >= n)
			return vm_fail(vm, pc, "pc out of range");
		if (++vm->steps > 10000)
			return vm_fail(vm, pc, "runaway");
		in = &insns[pc];
		op = BPF_OP(in->code);
		switch (BPF_CLASS(in->code)) {
		case BPF_ALU:
		case BPF_ALU64:
			if (vm_alu(vm, pc, in))
				return -1;
			break;
		case BPF_LDX:
			if (vm_ldx(vm, pc, in))
				return -1;
			break;
		case BPF_STX:
		case BPF_ST:
			if (vm_st(vm, pc, in))
				return -1;
			break;
		case BPF_LD:
			if (in->code != (BPF_LD | BPF_DW | BPF_IMM) || pc + 1 >= n ||
			    (in->src_reg && in->src_reg != BPF_PSEUDO_MAP_FD &&
			     in->src_reg != BPF_PSEUDO_MAP_VALUE))
				return vm_fail(vm, pc, "bad ld");
			if (in->src_reg == BPF_PSEUDO_MAP_VALUE) {
				/* the value of a one-entry array, in place */
				uint64_t base = in->imm == vm->ran_fd ? VM_RAN_VALUE :
						in->imm == vm->bits_fd ? VM_BITS_VALUE :
						in->imm == vm->seed_fd ? VM_SEED_VALUE :
						in->imm == vm->gate_fd ? VM_GATE_VALUE : 0;

				if (!base || in->imm <= 0)
					return vm_fail(vm, pc, "map value of unknown fd %d", in->imm);
				b = base + (uint32_t)insns[pc + 1].imm;
				if (vm_write(vm, pc, in->dst_reg, (struct vreg){ V_MAPVAL, b }))
					return -1;
				pc++;
				break;
			}
			b = (uint64_t)(uint32_t)insns[pc + 1].imm << 32 |
			    (uint32_t)in->imm;
			if (vm_write(vm, pc, in->dst_reg, (struct vreg){
					in->src_reg ? V_MAP : V_SCALAR, b }))
				return -1;
			pc++;
			break;
		case BPF_JMP:
		case BPF_JMP32:
			if (op == BPF_EXIT && vm->allow_exit) {
				if (vm_scalar(vm, pc, 0, &vm->exit_r0))
					return -1;
				vm->exited = true;
				vm->exit_pc = pc;
				return 0;
			}
			if (op == BPF_EXIT)
				return pc == n - 1 ? 0 :
				       vm_fail(vm, pc, "exit inside the prologue");
			if (op == BPF_CALL) {
				if (vm_call(vm, pc, in))
					return -1;
				break;
			}
			if (op == BPF_JA) {
				pc += in->off;
				break;
			}
			if (vm_scalar(vm, pc, in->dst_reg, &a))
				return -1;
			if (BPF_SRC(in->code) == BPF_X) {
				if (vm_scalar(vm, pc, in->src_reg, &b))
					return -1;
			} else {
				b = (uint64_t)(int64_t)in->imm;
			}
			taken = jmp_cond(op, a, b, BPF_CLASS(in->code) == BPF_JMP, &ok);
			if (!ok)
				return vm_fail(vm, pc, "jmp op 0x%x", op);
			if (taken)
				pc += in->off;
			break;
		default:
			return vm_fail(vm, pc, "opcode 0x%02x", in->code);
		}
		pc++;
	}
}

int vm_first_unreachable(const struct bpf_insn *insns, int n)
{
	bool seen[8192] = { false };
	int stack[8192], sp = 0, pc;

	if (n > 8192)
		return -1;
	stack[sp++] = 0;
	while (sp) {
		pc = stack[--sp];
		if (pc < 0 || pc >= n || seen[pc])
			continue;
		seen[pc] = true;
		if (insns[pc].code == (BPF_LD | BPF_DW | BPF_IMM)) {
			if (pc + 1 < n)
				seen[pc + 1] = true;
			stack[sp++] = pc + 2;
			continue;
		}
		if (BPF_CLASS(insns[pc].code) == BPF_JMP || BPF_CLASS(insns[pc].code) == BPF_JMP32) {
			int op = BPF_OP(insns[pc].code);

			if (op == BPF_EXIT)
				continue;
			if (op == BPF_JA) {
				stack[sp++] = pc + 1 + insns[pc].off;
				continue;
			}
			if (op != BPF_CALL)
				stack[sp++] = pc + 1 + insns[pc].off;
		}
		stack[sp++] = pc + 1;
	}
	for (pc = 0; pc < n; pc++)
		if (!seen[pc])
			return pc;
	return -1;
}

bool vm_same_insns(const struct bpf_insn *got, int n, const struct bpf_insn *want,
		   int nwant, char *why, size_t len)
{
	char gs[96], ws[96];

	for (int i = 0; i < n && i < nwant; i++) {
		const struct bpf_insn *a = &got[i], *b = &want[i];

		if (a->code == b->code && a->dst_reg == b->dst_reg && a->src_reg == b->src_reg &&
		    a->off == b->off && a->imm == b->imm)
			continue;
		bp_insn__format(a, i + 1 < n ? a + 1 : NULL, gs, sizeof(gs));
		bp_insn__format(b, i + 1 < nwant ? b + 1 : NULL, ws, sizeof(ws));
		snprintf(why, len, "insn %d: got '%s', want '%s'", i, gs, ws);
		return false;
	}
	snprintf(why, len, "%d insns, want %d", n, nwant);
	return n == nwant;
}

bool vm_verbose(void)
{
	const char *v = getenv("BP_TEST_VERBOSE");

	return v && *v && strcmp(v, "0");
}

void vm_dump(const struct bpf_insn *insns, int n)
{
	char line[128];

	for (int i = 0; i < n; i++) {
		bp_insn__format(&insns[i], i + 1 < n ? &insns[i + 1] : NULL, line, sizeof(line));
		printf("#  %3d: %s\n", i, line);
		if (insns[i].code == (BPF_LD | BPF_DW | BPF_IMM))
			i++;
	}
}
