// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One fetch of a plan as BPF instructions (fetch_gen.h): a value into a
 * register, straight from ctx or through the helper calls that read
 * memory. The prologue of either ABI (prologue.c, record_gen.c) is built
 * from these.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "prologue/arch.h"
#include "prologue/expr_gen.h"
#include "prologue/fetch_gen.h"
#include "prologue/insn.h"
#include "util/stack_sample.h"

static void emit(struct bp_fgen *g, struct bpf_insn insn)
{
	bp_emit(&g->e, insn);
}

static void emit_mov_imm(struct bp_fgen *g, int dst, uint64_t v)
{
	bp_emit__mov_imm(&g->e, dst, v);
}

/* dst += v (mod 2^64) */
static void emit_add(struct bp_fgen *g, int dst, uint64_t v)
{
	bp_emit__add(&g->e, dst, v, BP_SCRATCH_REG);
}

/*
 * Truncates dst to its low 'width' bits and extends it back to 64 bits.
 * 'known' is how many low bits may be non-zero already (an LDX of N bytes
 * zero-extends), so unsigned values that are already clean cost nothing.
 */
static void emit_extend(struct bp_fgen *g, int dst, int width, bool is_signed,
			int known)
{
	if (width >= 64)
		return;
	if (is_signed && g->cpu_v4 && (width == 8 || width == 16 || width == 32)) {
		emit(g, MOVSX64_REG(dst, dst, width));
	} else if (is_signed) {
		emit(g, ALU64_IMM(BPF_LSH, dst, 64 - width));
		emit(g, ALU64_IMM(BPF_ARSH, dst, 64 - width));
	} else if (known <= width) {
		return;
	} else if (width == 32) {
		emit(g, ALU32_REG(BPF_MOV, dst, dst));
	} else if (width < 32) {
		emit(g, ALU64_IMM(BPF_AND, dst, (int32_t)((1U << width) - 1)));
	} else {
		emit(g, ALU64_IMM(BPF_LSH, dst, 64 - width));
		emit(g, ALU64_IMM(BPF_RSH, dst, 64 - width));
	}
}

/* Bitfield extraction (if any), then the final truncation/extension. */
static void emit_finish(struct bp_fgen *g, int dst, const struct bp_fetch *f,
			int known)
{
	int top = f->bit_off + f->bit_size;

	if (!f->bit_size) {
		emit_extend(g, dst, f->size * 8, f->is_signed, known);
		return;
	}
	if (f->is_signed && !f->bit_off) {
		emit_extend(g, dst, f->bit_size, true, known);
	} else if (f->is_signed) {
		/* move the field's top bit to bit 63, then shift it back down */
		if (top < 64)
			emit(g, ALU64_IMM(BPF_LSH, dst, 64 - top));
		if (f->bit_size < 64)
			emit(g, ALU64_IMM(BPF_ARSH, dst, 64 - f->bit_size));
	} else if (top >= known || f->bit_size <= 32) {
		/* a shift, plus at most one masking instruction */
		if (f->bit_off)
			emit(g, ALU64_IMM(BPF_RSH, dst, f->bit_off));
		known = known > f->bit_off ? known - f->bit_off : 0;
		emit_extend(g, dst, f->bit_size, false, known);
	} else {
		/* wide field: a mask would need ld_imm64, shifts are cheaper */
		emit(g, ALU64_IMM(BPF_LSH, dst, 64 - top));
		emit(g, ALU64_IMM(BPF_RSH, dst, 64 - f->bit_size));
	}
}

/* What emit_finish() does, for a value known now. */
static uint64_t finish_const(const struct bp_fetch *f, uint64_t v)
{
	int width = f->size * 8;
	uint64_t mask;

	if (f->bit_size) {
		v >>= f->bit_off;
		width = f->bit_size;
	}
	if (width >= 64)
		return v;
	mask = (1ULL << width) - 1;
	v &= mask;
	if (f->is_signed && (v >> (width - 1)) & 1)
		v |= ~mask;
	return v;
}

/*
 * dst = f's final value in one load from src + off, which holds avail
 * bytes of the value it is cut from (8 in pt_regs, the read's size in the
 * stack slot), little-endian: when what f keeps is 1, 2, 4 or 8 whole
 * bytes of them, aligned to their size. An unsigned one is zero-extended
 * by any load; a signed one needs cpu v4's sign-extending load. False,
 * and nothing emitted, otherwise.
 */
static bool emit_one_load(struct bp_fgen *g, int dst, int src, int off, int avail,
			  const struct bp_fetch *f)
{
	int lo = f->bit_size ? f->bit_off : 0;
	int width = f->bit_size ? f->bit_size : f->size * 8;
	int bytes = width / 8;

	if (lo % 8 || width % 8 || (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) ||
	    (lo / 8) % bytes || lo + width > avail * 8)
		return false;
	if (!f->is_signed || bytes == 8)
		emit(g, LDX_MEM(bp_emit__size(bytes), dst, src, off + lo / 8));
	else if (g->cpu_v4)
		emit(g, LDX_MEMSX(bp_emit__size(bytes), dst, src, off + lo / 8));
	else
		return false;
	return true;
}

static bool uses_func_ip(const struct bp_fetch *f)
{
	return f->base == BP_BASE_ADDR && f->anchor_kind == BP_ANCHOR_FUNC_IP;
}

/* Whether computing f calls a helper: then it belongs to the slow shape's
 * call section. An expression always goes there: it needs ctx saved and
 * scratch registers. */
static bool is_stack(const struct bp_fetch *f)
{
	return f->kind == BP_FETCH_USTACK || f->kind == BP_FETCH_KSTACK;
}

bool bp_fgen__needs_call(const struct bp_fetch *f)
{
	if (is_stack(f))
		return true;
	return f->nderef || uses_func_ip(f) || f->base == BP_BASE_EXPR;
}

static void add_err_jump(struct bp_fgen *g)
{
	bp_emit__err_jump(&g->e, JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0));
}

/* dst = the expression's value (slow shape: ctx in BP_CTX_SAVE_REG) */
static void emit_expr(struct bp_fgen *g, int dst, const struct bp_fetch *f)
{
	struct bp_expr_env env = {
		.expr = &f->expr,
		.ctx_reg = BP_CTX_SAVE_REG,
		.anchor = f->anchor,
		.anchor_kind = f->anchor_kind,
		.entry_map_fd = g->entry_map_fd,
		.stack_off = BP_EXPR_STACK_OFF,
		.cpu_v4 = g->cpu_v4,
	};
	int err = bp_expr__gen(&g->e, &env, dst);

	if (err && !g->err)
		g->err = err;
}

/*
 * dst = base value + extra. A register base (and the ip anchor) is loaded
 * from ctx; the func_ip anchor calls bpf_get_func_ip(ctx), which needs ctx
 * in BP_CTX_SAVE_REG (slow shape) and fails the fetch when it returns 0
 * (kernels before 6.6 know no function address at a uprobe).
 */
static void emit_base(struct bp_fgen *g, int dst, int ctx,
		      const struct bp_fetch *f, int64_t extra)
{
	uint64_t v = (uint64_t)f->add + (uint64_t)extra;

	switch (f->base) {
	case BP_BASE_CONST:
		emit_mov_imm(g, dst, v);
		return;
	case BP_BASE_ADDR:
		v -= f->anchor;
		if (uses_func_ip(f)) {
			emit(g, MOV64_REG(BPF_REG_1, BP_CTX_SAVE_REG));
			emit(g, CALL_HELPER(BPF_FUNC_get_func_ip));
			/* jump to err when r0 == 0 */
			bp_emit__err_jump(&g->e, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
			emit(g, MOV64_REG(dst, BPF_REG_0));
		} else {
			emit(g, LDX_MEM(BPF_DW, dst, ctx, bp_arch__pt_regs_off(bp_arch__ip_reg())));
		}
		emit_add(g, dst, v);
		return;
	case BP_BASE_CTX:
		emit(g, LDX_MEM(BPF_DW, dst, ctx, 8 * f->reg));
		emit_add(g, dst, v);
		return;
	case BP_BASE_EXPR:
		emit_expr(g, dst, f);
		emit_add(g, dst, v);
		return;
	default:
		emit(g, LDX_MEM(BPF_DW, dst, ctx, bp_arch__pt_regs_off(f->reg)));
		emit_add(g, dst, v);
	}
}

/* An argument that reads no memory, computed straight into dst. */
void bp_fgen__direct(struct bp_fgen *g, int dst, int ctx,
			    const struct bp_fetch *f)
{
	if (f->base == BP_BASE_CONST) {
		emit_mov_imm(g, dst, finish_const(f, f->add));
		return;
	}
	/* what is kept of a register, straight from pt_regs */
	if (f->base == BP_BASE_REG && !f->add &&
	    emit_one_load(g, dst, ctx, bp_arch__pt_regs_off(f->reg), 8, f))
		return;
	emit_base(g, dst, ctx, f, 0);
	emit_finish(g, dst, f, 64);
}

/*
 * The address of each read goes in r3 (probe_read's source argument), so
 * intermediate pointers are reloaded from the slot right into r3; only the
 * final value goes to dst.
 */
/* The read helper of f's k-th read: user or kernel memory, a string or not. */
static int read_helper(const struct bp_fetch *f, int k, bool str)
{
	bool user = f->user_mask & (1U << k);

	if (str)
		return user ? BPF_FUNC_probe_read_user_str : BPF_FUNC_probe_read_kernel_str;
	return user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel;
}

/*
 * f's reads, each into the slot but the last, which reads last_size bytes
 * to r10 + last_off (a string with the _str helpers when str). The address
 * of each read goes in r3 (probe_read's source argument), so intermediate
 * pointers are reloaded from the slot right into r3.
 */
static void emit_reads(struct bp_fgen *g, const struct bp_fetch *f, int last_off, int last_size,
		       bool str)
{
	int k, last = f->nderef - 1;

	/* add and the first offset both apply before the first read */
	emit_base(g, BPF_REG_3, BP_CTX_SAVE_REG, f, f->deref_off[0]);
	for (k = 0; k <= last; k++) {
		int size = k == last ? last_size : 8;

		if (k == last && last_off != BP_SLOT_OFF) {
			emit(g, MOV64_REG(BPF_REG_1, BPF_REG_10));
			emit(g, ALU64_IMM(BPF_ADD, BPF_REG_1, last_off));
		} else if (g->slot_in_r9) {
			emit(g, MOV64_REG(BPF_REG_1, BP_SLOT_REG));
		} else {
			emit(g, MOV64_REG(BPF_REG_1, BPF_REG_10));
			emit(g, ALU64_IMM(BPF_ADD, BPF_REG_1, BP_SLOT_OFF));
		}
		emit(g, MOV64_IMM(BPF_REG_2, size));
		emit(g, CALL_HELPER(read_helper(f, k, str && k == last)));
		/* a string's length is returned: only a negative one failed */
		if (str && k == last)
			bp_emit__err_jump(&g->e, JMP_IMM(BPF_JSLT, BPF_REG_0, 0, 0));
		else
			add_err_jump(g);
		if (k < last) {
			emit(g, LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_10, BP_SLOT_OFF));
			emit_add(g, BPF_REG_3, (int64_t)f->deref_off[k + 1]);
		}
	}
}

/* A value read from memory: its last read lands in the slot, then in dst. */
static void emit_deref_arg(struct bp_fgen *g, int dst, const struct bp_fetch *f)
{
	emit_reads(g, f, BP_SLOT_OFF, f->size, false);
	if (!emit_one_load(g, dst, BPF_REG_10, BP_SLOT_OFF, f->size, f)) {
		emit(g, LDX_MEM(bp_emit__size(f->size), dst, BPF_REG_10, BP_SLOT_OFF));
		emit_finish(g, dst, f, f->size * 8);
	}
}

void bp_fgen__object(struct bp_fgen *g, const struct bp_fetch *f, int dst_off)
{
	emit_reads(g, f, dst_off, f->len, f->kind == BP_FETCH_STRING);
}

/* An argument of the call section: one that reads memory, or one whose
 * base alone needs a call (a global's address at a uretprobe). */
/* Where the user stack sample being written waits across helper calls. */
#define SAMPLE_PTR_OFF	(-16)

/* r1 = the sample being written */
static void load_sample(struct bp_fgen *g)
{
	emit(g, LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, SAMPLE_PTR_OFF));
}

/* dst = the kernel stack's id, with BP_STACK_KERNEL_BIT set */
static void emit_kstack(struct bp_fgen *g, int dst)
{
	if (g->stack_map_fd < 0) {
		g->err = g->err ?: -EINVAL;
		return;
	}
	emit(g, MOV64_REG(BPF_REG_1, BP_CTX_SAVE_REG));
	emit(g, LD_MAP_FD_0(BPF_REG_2, g->stack_map_fd));
	emit(g, LD_MAP_FD_1());
	emit(g, MOV64_IMM(BPF_REG_3, 0));
	emit(g, CALL_HELPER(BPF_FUNC_get_stackid));
	bp_emit__err_jump(&g->e, JMP_IMM(BPF_JSLT, BPF_REG_0, 0, 0));
	bp_emit__ld_imm64(&g->e, BPF_REG_1, BP_STACK_KERNEL_BIT);
	emit(g, ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_1));
	emit(g, MOV64_REG(dst, BPF_REG_0));
}

/*
 * The head of a user stack sample (util/stack_sample.h) of size bytes,
 * reserved in the stack ring buffer and kept at SAMPLE_PTR_OFF: its id,
 * the time, the thread, flags and the registers CFI restores.
 */
static void emit_sample_head(struct bp_fgen *g, int size, __u32 flags)
{
	static const int regs[BP_STACK_NREGS] = { 16, 7, 6, 3, 12, 13, 14, 15 };

	emit(g, LD_MAP_FD_0(BPF_REG_1, g->stack_samples_fd));
	emit(g, LD_MAP_FD_1());
	emit(g, MOV64_IMM(BPF_REG_2, size));
	emit(g, MOV64_IMM(BPF_REG_3, 0));
	emit(g, CALL_HELPER(BPF_FUNC_ringbuf_reserve));
	/* a full ring: no sample, the fetch fails */
	bp_emit__err_jump(&g->e, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	emit(g, STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_0, SAMPLE_PTR_OFF));
	emit(g, CALL_HELPER(BPF_FUNC_ktime_get_ns));
	load_sample(g);
	emit(g, STX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, offsetof(struct bp_stack_sample, time_ns)));
	/* the id: the time, the cpu in the low byte, the top bit clear */
	emit(g, CALL_HELPER(BPF_FUNC_get_smp_processor_id));
	load_sample(g);
	emit(g, LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_1, offsetof(struct bp_stack_sample, time_ns)));
	emit(g, ALU64_IMM(BPF_LSH, BPF_REG_2, 9));
	emit(g, ALU64_IMM(BPF_RSH, BPF_REG_2, 1));
	emit(g, ALU64_IMM(BPF_AND, BPF_REG_0, 0xff));
	emit(g, ALU64_REG(BPF_OR, BPF_REG_2, BPF_REG_0));
	emit(g, STX_MEM(BPF_DW, BPF_REG_1, BPF_REG_2, offsetof(struct bp_stack_sample, id)));
	emit(g, ST_MEM(BPF_W, BPF_REG_1, offsetof(struct bp_stack_sample, flags), flags));
	emit(g, CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	load_sample(g);
	emit(g, STX_MEM(BPF_W, BPF_REG_1, BPF_REG_0, offsetof(struct bp_stack_sample, tid)));
	emit(g, ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit(g, STX_MEM(BPF_W, BPF_REG_1, BPF_REG_0, offsetof(struct bp_stack_sample, pid)));
	for (int k = 0; k < BP_STACK_NREGS; k++) {
		emit(g, LDX_MEM(BPF_DW, BPF_REG_2, BP_CTX_SAVE_REG, bp_arch__pt_regs_off(regs[k])));
		emit(g, STX_MEM(BPF_DW, BPF_REG_1, BPF_REG_2,
				offsetof(struct bp_stack_sample, regs) + 8 * k));
	}
}

/* dst = the sample's id, which waits in the slot while the sample goes
 * (no wakeup: the reader polls) */
static void emit_sample_submit(struct bp_fgen *g, int dst)
{
	load_sample(g);
	emit(g, LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, offsetof(struct bp_stack_sample, id)));
	emit(g, STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_0, BP_SLOT_OFF));
	emit(g, MOV64_IMM(BPF_REG_2, BPF_RB_NO_WAKEUP));
	emit(g, CALL_HELPER(BPF_FUNC_ringbuf_submit));
	emit(g, LDX_MEM(BPF_DW, dst, BPF_REG_10, BP_SLOT_OFF));
}

/*
 * dst = the id of a sample of the user stack (util/stack_sample.h), written
 * to the stack ring buffer: the time, the thread, the registers CFI
 * restores, and as much of the stack above rsp as can be read, up to
 * BP_STACK_MAX_BYTES (halved until a read works near the stack's end).
 */
static void emit_ustack(struct bp_fgen *g, int dst)
{
	size_t done[16];
	int ndone = 0;

	if (g->stack_samples_fd < 0) {
		g->err = g->err ?: -EINVAL;
		return;
	}
	emit_sample_head(g, sizeof(struct bp_stack_sample) + BP_STACK_MAX_BYTES, 0);
	/* the stack, as much of it as is mapped: 8 KiB, 4, 2, ... 64 bytes */
	for (int size = BP_STACK_MAX_BYTES; size >= 64; size /= 2) {
		size_t next;

		load_sample(g);
		emit(g, ALU64_IMM(BPF_ADD, BPF_REG_1, offsetof(struct bp_stack_sample, stack)));
		emit(g, MOV64_IMM(BPF_REG_2, size));
		emit(g, LDX_MEM(BPF_DW, BPF_REG_3, BP_CTX_SAVE_REG, bp_arch__pt_regs_off(7)));
		emit(g, CALL_HELPER(BPF_FUNC_probe_read_user));
		next = g->e.n;
		emit(g, JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0));
		load_sample(g);
		emit(g, ST_MEM(BPF_W, BPF_REG_1, offsetof(struct bp_stack_sample, size), size));
		done[ndone++] = g->e.n;
		emit(g, JMP_JA(0));
		bp_emit__patch(&g->e, next, g->e.n);
	}
	load_sample(g);
	emit(g, ST_MEM(BPF_W, BPF_REG_1, offsetof(struct bp_stack_sample, size), 0));
	for (int i = 0; i < ndone; i++)
		bp_emit__patch(&g->e, done[i], g->e.n);
	emit_sample_submit(g, dst);
}

/*
 * The same sample taken by frame pointers (flags BP_STACK_SAMPLE_FP): the
 * registers, the 8 bytes at [rsp] (0 when unreadable), then the return
 * addresses of bpf_get_stack(ctx, BPF_F_USER_STACK), up to
 * BP_STACK_MAX_IPS; size is 8 plus their bytes (8 when the walk fails).
 */
static void emit_ustack_fp(struct bp_fgen *g, int dst)
{
	size_t ok;

	if (g->stack_samples_fd < 0) {
		g->err = g->err ?: -EINVAL;
		return;
	}
	emit_sample_head(g, sizeof(struct bp_stack_sample) + BP_STACK_FP_BYTES,
			 BP_STACK_SAMPLE_FP);
	/* [rsp] */
	emit(g, ALU64_IMM(BPF_ADD, BPF_REG_1, offsetof(struct bp_stack_sample, stack)));
	emit(g, MOV64_IMM(BPF_REG_2, 8));
	emit(g, LDX_MEM(BPF_DW, BPF_REG_3, BP_CTX_SAVE_REG, bp_arch__pt_regs_off(7)));
	emit(g, CALL_HELPER(BPF_FUNC_probe_read_user));
	ok = g->e.n;
	emit(g, JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	load_sample(g);
	emit(g, ST_MEM(BPF_DW, BPF_REG_1, offsetof(struct bp_stack_sample, stack), 0));
	bp_emit__patch(&g->e, ok, g->e.n);
	/* the walk */
	emit(g, MOV64_REG(BPF_REG_1, BP_CTX_SAVE_REG));
	emit(g, LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_10, SAMPLE_PTR_OFF));
	emit(g, ALU64_IMM(BPF_ADD, BPF_REG_2, offsetof(struct bp_stack_sample, stack) + 8));
	emit(g, MOV64_IMM(BPF_REG_3, 8 * BP_STACK_MAX_IPS));
	emit(g, MOV64_IMM(BPF_REG_4, BPF_F_USER_STACK));
	emit(g, CALL_HELPER(BPF_FUNC_get_stack));
	ok = g->e.n;
	emit(g, JMP_IMM(BPF_JSGE, BPF_REG_0, 0, 0));
	emit(g, MOV64_IMM(BPF_REG_0, 0));
	bp_emit__patch(&g->e, ok, g->e.n);
	emit(g, ALU64_IMM(BPF_ADD, BPF_REG_0, 8));
	load_sample(g);
	emit(g, STX_MEM(BPF_W, BPF_REG_1, BPF_REG_0, offsetof(struct bp_stack_sample, size)));
	emit_sample_submit(g, dst);
}

void bp_fgen__call(struct bp_fgen *g, int dst, const struct bp_fetch *f)
{
	if (f->kind == BP_FETCH_KSTACK) {
		emit_kstack(g, dst);
		return;
	}
	if (f->kind == BP_FETCH_USTACK && f->reg == BP_USTACK_REG_FP) {
		emit_ustack_fp(g, dst);
		return;
	}
	if (f->kind == BP_FETCH_USTACK) {
		emit_ustack(g, dst);
		return;
	}
	if (f->nderef) {
		emit_deref_arg(g, dst, f);
		return;
	}
	/* an expression's value waits in its stack slot 0: loaded as kept */
	if (f->base == BP_BASE_EXPR && !f->add) {
		emit_expr(g, -1, f);
		if (!emit_one_load(g, dst, BPF_REG_10, BP_EXPR_STACK_OFF, 8, f)) {
			emit(g, LDX_MEM(BPF_DW, dst, BPF_REG_10, BP_EXPR_STACK_OFF));
			emit_finish(g, dst, f, 64);
		}
		return;
	}
	emit_base(g, dst, BP_CTX_SAVE_REG, f, 0);
	emit_finish(g, dst, f, 64);
}

int bp_fgen__check(const struct bp_fetch *f)
{
	/* a stack: its id, nothing else */
	if (is_stack(f))
		return f->base == BP_BASE_NONE && !f->nderef && f->size == 8 &&
		       (f->reg == 0 || (f->kind == BP_FETCH_USTACK && f->reg == BP_USTACK_REG_FP)) ?
		       0 : -EINVAL;
	switch (f->base) {
	case BP_BASE_REG:
		if (bp_arch__pt_regs_off(f->reg) < 0)
			return -EINVAL;
		break;
	case BP_BASE_CONST:
		break;
	case BP_BASE_CTX:
		if (f->reg >= BP_CTX_MAX_ARGS)
			return -EINVAL;
		break;
	case BP_BASE_ADDR:
		if (f->anchor_kind != BP_ANCHOR_IP &&
		    f->anchor_kind != BP_ANCHOR_FUNC_IP)
			return -EINVAL;
		break;
	case BP_BASE_EXPR:
		if (f->anchor_kind != BP_ANCHOR_IP &&
		    f->anchor_kind != BP_ANCHOR_FUNC_IP)
			return -EINVAL;
		if (bp_expr__check(&f->expr, NULL))
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return -EINVAL;
	/* a string or bytes: the last read copies len of them */
	if (f->kind > BP_FETCH_BYTES ||
	    (f->kind != BP_FETCH_VALUE && (!f->nderef || !f->len || f->bit_size)))
		return -EINVAL;
	if (f->nderef > BP_MAX_DEREFS)
		return -EINVAL;
	/* bit_off without bit_size is a malformed plan, not a no-op */
	if (!f->bit_size && f->bit_off)
		return -EINVAL;
	if (f->bit_size > 64 || f->bit_off + f->bit_size > 64)
		return -EINVAL;
	return 0;
}
