// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A user stack sample unwound and symbolized (bp_unwinder__user).
 *
 * libdwfl's unwinder walks the frames through the process's Dwfl
 * (uw_proc.c). Before it unwinds a frame, the frame callback checks what
 * libdwfl would otherwise paper over:
 * - a PC in no module, or in a module without CFI for it: libdwfl would
 *   fall back to a frame-pointer guess; we stop and say why instead;
 * - whether the CFI marks the return address undefined (the outermost
 *   frame, _start or a thread's start): the only normal end. libdwfl
 *   also ends quietly when reading the return address fails or gives 0:
 *   the memory callback's failure, or a zero, says which.
 * Each frame's PC (minus 1 for a return address) is symbolized into its
 * inlined frames (uw_sym.c) through the module's build (uw_build.c).
 * A sample taken by frame pointers (BP_STACK_SAMPLE_FP) holds the PCs
 * already: uw_fpwalk.c keeps those the CFI vouches for, and they are
 * symbolized the same way, tail-call frames included.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "unwind/uw_core.h"
#include "unwind/uw_elf.h"
#include "unwind/uw_fpwalk.h"
#include "unwind/uw_frames.h"
#include "unwind/uw_sym.h"

/* DWARF register number of rsp */
#define DW_RSP	7
struct walk {
	struct bp_unwinder *u;
	struct uw_proc *p;
	struct bp_frames *out;
	int n_unwound;
	bool have_prev;
	Dwarf_Addr prev_pc;
	Dwarf_Word prev_sp;
	bool have_callee;	/* the previous frame's function entry */
	Dwarf_Addr callee;
	bool stopped;		/* the callback ended the walk (reason set) */
	bool ends_here;		/* the last frame's CFI ends the stack */
	int err;		/* -ENOMEM */
};

static const char *module_name(Dwfl_Module *mod, struct uw_mod *um)
{
	if (um)
		return um->m->vdso ? "[vdso]" : um->m->path;
	return dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
}

/* Pushes the frames of one PC: its inlined calls and its function. */
static int emit(struct walk *w, Dwfl_Module *mod, Dwarf_Addr pc, Dwarf_Addr lookup)
{
	struct bp_frame fr = { .addr = pc };
	const struct uw_sym *syms;
	struct uw_mod *um;
	struct uw_dbg *dbg;
	Dwarf_Addr addr = lookup;
	int i, n, err;

	w->have_callee = false;
	if (!mod)
		return uw_frames__push(w->out, &fr);
	um = uw_proc__mod(mod);
	fr.module = module_name(mod, um);
	dbg = um ? uw_build__dbg(w->u, um, &addr) : NULL;
	if (!dbg)
		return um ? -ENOMEM : uw_frames__push(w->out, &fr);
	err = uw_dbg__symbolize(dbg, addr, &syms, &n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		fr.func = syms[i].func;
		fr.file = syms[i].line ? syms[i].file : NULL;
		fr.line = fr.file ? syms[i].line : 0;
		fr.is_inline = syms[i].is_inline;
		fr.inlined_into = fr.is_inline && i + 1 < n ? syms[i + 1].func : NULL;
		fr.has_off = syms[i].has_start;
		fr.func_off = fr.has_off ? addr + (pc - lookup) - syms[i].start : 0;
		if (syms[i].has_entry) {
			w->have_callee = true;
			w->callee = syms[i].entry + (lookup - addr);
		}
		err = uw_frames__push(w->out, &fr);
		if (err)
			return err;
	}
	return 0;
}

static int tail_frames_memo(struct walk *w, Dwarf_Addr pc, Dwarf_Addr *pcs, int max);

/* The frames gdb shows for the tail calls that led from the frame at pc
 * (a return address) to the previous one. */
static int emit_tail_calls(struct walk *w, Dwarf_Addr pc)
{
	Dwarf_Addr pcs[16];
	int i, n;

	if (!w->have_callee)
		return 0;
	n = tail_frames_memo(w, pc, pcs, 16);
	for (i = 0; i < n; i++) {
		Dwfl_Module *mod = dwfl_addrmodule(w->p->dwfl, pcs[i] - 1);
		struct uw_mod *um = mod ? uw_proc__mod(mod) : NULL;
		struct bp_frame fr = { .addr = pcs[i] };
		const struct uw_sym *syms;
		Dwarf_Addr addr = pcs[i] - 1;
		struct uw_dbg *dbg;
		int nsyms, err;

		fr.module = mod ? module_name(mod, um) : NULL;
		dbg = um ? uw_build__dbg(w->u, um, &addr) : NULL;
		/* one frame, named by the innermost function there (inlined
		 * or not), at its line: gdb's tail-call frame */
		if (dbg && !uw_dbg__symbolize(dbg, addr, &syms, &nsyms)) {
			fr.func = syms[0].func;
			fr.file = syms[0].line ? syms[0].file : NULL;
			fr.line = fr.file ? syms[0].line : 0;
		}
		err = uw_frames__push(w->out, &fr);
		if (err)
			return err;
	}
	return n < 0 ? n : 0;
}

/* Whether the CFI covers addr: 1 when it marks the return address
 * undefined (no caller), 0 when it unwinds, -1 when there is none. */
static int cfi_at(Dwfl_Module *mod, Dwarf_Addr addr)
{
	Dwarf_Op mem[3], *ops;
	Dwarf_Frame *frame;
	Dwarf_Addr bias;
	Dwarf_CFI *cfi;
	size_t nops;
	int k, ra, end;

	for (k = 0; k < 2; k++) {
		cfi = k ? dwfl_module_dwarf_cfi(mod, &bias) : dwfl_module_eh_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, addr - bias, &frame))
			continue;
		ra = dwarf_frame_info(frame, NULL, NULL, NULL);
		end = ra >= 0 && !dwarf_frame_register(frame, ra, mem, &ops, &nops) &&
		      nops == 0 && ops == mem;
		free(frame);
		return end;
	}
	return -1;
}

static size_t memo_slot(Dwarf_Addr a, Dwarf_Addr b)
{
	return (size_t)(((a ^ (b * 31)) * 0x9e3779b97f4a7c15ULL) >> 40) & (UW_MEMO_SLOTS - 1);
}

static struct uw_memo *memo_of(struct uw_proc *p)
{
	if (!p->memo)
		p->memo = calloc(1, sizeof(*p->memo));
	return p->memo;
}

/* cfi_at(), remembered per process */
static int cfi_at_memo(struct uw_proc *p, Dwfl_Module *mod, Dwarf_Addr addr)
{
	struct uw_memo *m = memo_of(p);
	struct uw_cfi_memo *e;
	size_t i;
	int cfi;

	if (!m)
		return cfi_at(mod, addr);
	for (i = memo_slot(addr, 0); m->cfi[i].used; i = (i + 1) & (UW_MEMO_SLOTS - 1))
		if (m->cfi[i].pc == addr)
			return m->cfi[i].cfi;
	cfi = cfi_at(mod, addr);
	if (m->ncfi >= UW_MEMO_SLOTS / 2) {
		memset(m->cfi, 0, sizeof(m->cfi));
		m->ncfi = 0;
		i = memo_slot(addr, 0);
	}
	e = &m->cfi[i];
	*e = (struct uw_cfi_memo){ .pc = addr, .cfi = cfi, .used = true };
	m->ncfi++;
	return cfi;
}

/* uw_tail__frames(), remembered per process */
static int tail_frames_memo(struct walk *w, Dwarf_Addr pc, Dwarf_Addr *pcs, int max)
{
	struct uw_memo *m = memo_of(w->p);
	struct uw_tail_memo *e;
	size_t i;
	int n;

	if (!m)
		return uw_tail__frames(w->u, w->p, pc, w->callee, pcs, max);
	for (i = memo_slot(pc, w->callee); m->tail[i].used; i = (i + 1) & (UW_MEMO_SLOTS - 1)) {
		e = &m->tail[i];
		if (e->caller_pc == pc && e->callee == w->callee) {
			memcpy(pcs, e->pcs, e->n * sizeof(*pcs));
			return e->n;
		}
	}
	n = uw_tail__frames(w->u, w->p, pc, w->callee, pcs, max);
	if (n < 0 || n > UW_MEMO_TAILS)
		return n;
	if (m->ntail >= UW_MEMO_SLOTS / 2) {
		memset(m->tail, 0, sizeof(m->tail));
		m->ntail = 0;
		i = memo_slot(pc, w->callee);
	}
	e = &m->tail[i];
	*e = (struct uw_tail_memo){ .caller_pc = pc, .callee = w->callee, .n = n, .used = true };
	memcpy(e->pcs, pcs, n * sizeof(*pcs));
	m->ntail++;
	return n;
}

static int stop(struct walk *w, enum bp_unwind_stop why, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int stop(struct walk *w, enum bp_unwind_stop why, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	w->stopped = true;
	if (uw_frames__stop(w->out, why, "%s", buf))
		w->err = -ENOMEM;
	return DWARF_CB_ABORT;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc, lookup, bias;
	Dwfl_Module *mod;
	struct uw_mod *um;
	Dwarf_Word sp = 0;
	bool activation = false, have_sp;
	int cfi;

	/* a read that fails from here on fails for unwinding this frame */
	w->p->read_failed = false;
	if (!dwfl_frame_pc(state, &pc, &activation))
		return stop(w, BP_UNWIND_ERROR, "no PC in frame %d: %s", w->n_unwound,
			    dwfl_errmsg(-1));
	if (w->n_unwound == BP_UNWIND_MAX_FRAMES)
		return stop(w, BP_UNWIND_LIMIT, "%d frames, the most unwound", BP_UNWIND_MAX_FRAMES);
	have_sp = dwfl_frame_reg(state, DW_RSP, &sp) == 0;
	if (w->have_prev && have_sp && pc == w->prev_pc && sp == w->prev_sp)
		return stop(w, BP_UNWIND_LOOP, "the stack does not move at 0x%" PRIx64, (uint64_t)pc);
	w->have_prev = have_sp;
	w->prev_pc = pc;
	w->prev_sp = sp;
	/* a return address is looked up in its call: the call may be the
	 * function's last instruction */
	lookup = activation ? pc : pc - 1;
	mod = dwfl_addrmodule(dwfl_thread_dwfl(dwfl_frame_thread(state)), lookup);
	if (!activation)
		w->err = emit_tail_calls(w, pc);
	if (!w->err)
		w->err = emit(w, mod, pc, lookup);
	if (w->err)
		return DWARF_CB_ABORT;
	w->n_unwound++;
	if (!mod && w->p->key.partial)
		return stop(w, BP_UNWIND_NO_PROCESS,
			    "0x%" PRIx64 " is in no module known: process %d exited before its modules were read",
			    (uint64_t)pc, (int)w->p->pid);
	if (!mod)
		return stop(w, BP_UNWIND_NO_MODULE,
			    "0x%" PRIx64 " is in no module (anonymous memory: JIT code?)",
			    (uint64_t)pc);
	um = uw_proc__mod(mod);
	if (!dwfl_module_getelf(mod, &bias))
		return stop(w, BP_UNWIND_NO_ELF, "cannot open %s: %s", module_name(mod, um),
			    um && um->open_err == -ESTALE ? "another file has its path now" :
			    um && um->open_err ? strerror(-um->open_err) : dwfl_errmsg(-1));
	cfi = cfi_at_memo(w->p, mod, lookup);
	if (cfi < 0)
		return stop(w, BP_UNWIND_NO_CFI, "no CFI for 0x%" PRIx64 " in %s", (uint64_t)pc,
			    module_name(mod, um));
	w->ends_here = cfi == 1;
	return DWARF_CB_OK;
}

/* Why a read failed, from the address it wanted. */
static void memory_stop(struct walk *w, const struct bp_stack_sample *s)
{
	const struct uw_proc *p = w->p;
	__u64 end = s->regs[1] + s->size, addr = p->failed_addr;

	if (addr + 8 > end && addr < s->regs[1] + UW_STACK_REACH)
		uw_frames__stop(w->out, BP_UNWIND_STACK_END,
				"the sample's stack ends at 0x%" PRIx64, (uint64_t)end);
	else
		uw_frames__stop(w->out, BP_UNWIND_NO_MEMORY,
				"cannot read 0x%" PRIx64 " of process %d%s", (uint64_t)addr,
				(int)p->pid, uw_proc__alive(p) ? "" : ", which has exited");
}

static int walk_sample(struct bp_unwinder *u, struct uw_proc *p, const struct bp_stack_sample *s,
		       struct bp_frames *out)
{
	struct walk w = { .u = u, .p = p, .out = out };
	int rc;

	p->s = s;
	/* (a sample without its thread: the process's) */
	rc = dwfl_getthread_frames(p->dwfl, s->tid ? (pid_t)s->tid : (pid_t)s->pid, frame_cb, &w);
	p->s = NULL;
	if (w.err)
		return w.err;
	out->n_unwound = w.n_unwound;
	if (w.stopped)
		return 0;
	if (rc == 0 && w.ends_here)
		return uw_frames__stop(out, BP_UNWIND_END, NULL);
	if (p->read_failed) {
		memory_stop(&w, s);
		return out->reason ? 0 : -ENOMEM;
	}
	if (rc == 0)
		return uw_frames__stop(out, BP_UNWIND_BAD_RA,
				       "the caller of 0x%" PRIx64 " has return address 0",
				       (uint64_t)(out->n ? out->frames[out->n - 1].addr : 0));
	return uw_frames__stop(out, BP_UNWIND_ERROR, "%s", dwfl_errmsg(-1));
}

/* --- a sample taken by frame pointers ------------------------------------ */

static const char *file_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path ? path : "?";
}

/* The CFA rule at lookup, from its module's CFI (uw_fpwalk.h's rule) */
static enum bp_cfa_rule fp_rule(void *ctx, uint64_t lookup, bool *outermost)
{
	struct walk *w = ctx;
	Dwfl_Module *mod = dwfl_addrmodule(w->p->dwfl, lookup);
	enum bp_cfa_rule r = BP_CFA_NONE;
	Dwarf_Addr bias;
	Dwarf_CFI *cfi;

	*outermost = false;
	if (!mod || !dwfl_module_getelf(mod, &bias))
		return BP_CFA_NONE;
	for (int k = 0; k < 2 && r == BP_CFA_NONE; k++) {
		cfi = k ? dwfl_module_dwarf_cfi(mod, &bias) : dwfl_module_eh_cfi(mod, &bias);
		r = bp_cfa__rule(cfi, lookup - bias, outermost);
	}
	return r;
}

/*
 * Whether the kernel's walk holds [rsp] as its second address: Linux 6.11+
 * stores it when the uprobe sits on a function's first instruction as it
 * knows one, push %rbp or endbr64 (is_uprobe_at_func_entry()). 1, 0, or
 * -1 when the instruction cannot be read.
 */
static int kernel_gave_top(struct uw_proc *p, uint64_t pc)
{
	static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, pc);
	struct uw_mod *um = mod ? uw_proc__mod(mod) : NULL;
	unsigned char insn[4];
	struct utsname un;
	int major, minor;
	Dwarf_Addr bias;
	__u64 off;
	Elf *elf;

	if (uname(&un) || sscanf(un.release, "%d.%d", &major, &minor) != 2)
		return -1;
	if (major < 6 || (major == 6 && minor < 11))
		return 0;
	elf = um ? dwfl_module_getelf(mod, &bias) : NULL;
	/* from the file: our mapping of it shows the uprobe's int3 */
	if (!elf || uw_elf__file_offset(elf, pc - bias, sizeof(insn), &off) ||
	    uw_proc__pread(um, insn, sizeof(insn), off))
		return -1;
	return insn[0] == 0x55 || !memcmp(insn, endbr64, sizeof(endbr64));
}

/* The function of the frames of pc last pushed: the out-of-line one. */
static const char *last_func(const struct bp_frames *out)
{
	return out->n && out->frames[out->n - 1].func ? out->frames[out->n - 1].func : "??";
}

/* Why the walk ended after its last frame (nips: the kernel's addresses). */
static int fp_stop(struct walk *w, const struct uw_fp_walk *fw, int nips)
{
	uint64_t pc = fw->pcs[fw->n - 1];
	uint64_t lookup = fw->n == 1 ? pc : pc - 1;
	Dwfl_Module *mod = dwfl_addrmodule(w->p->dwfl, lookup);
	struct uw_mod *um = mod ? uw_proc__mod(mod) : NULL;
	Dwarf_Addr bias;

	switch (fw->end) {
	case UW_FP_END:
		return uw_frames__stop(w->out, BP_UNWIND_END, NULL);
	case UW_FP_LIMIT:
		return uw_frames__stop(w->out, BP_UNWIND_LIMIT, "%d frames, the most unwound",
				       fw->n);
	case UW_FP_NO_FP:
		return uw_frames__stop(w->out, BP_UNWIND_NO_FP,
				       "%s in %s keeps no frame pointer at 0x%" PRIx64, last_func(w->out),
				       file_name(module_name(mod, um)), pc);
	case UW_FP_NO_TOP:
		return uw_frames__stop(w->out, BP_UNWIND_NO_MEMORY,
				       "the return address at rsp 0x%" PRIx64 " could not be read",
				       (uint64_t)w->p->s->regs[1]);
	case UW_FP_WALK_END:
		return uw_frames__stop(w->out, BP_UNWIND_FP_END,
				       "the kernel's frame-pointer walk ends after %d address%s",
				       nips, nips == 1 ? "" : "es");
	case UW_FP_NO_CFI:
		break;
	}
	if (!mod && w->p->key.partial)
		return uw_frames__stop(w->out, BP_UNWIND_NO_PROCESS,
				       "0x%" PRIx64 " is in no module known: process %d exited before its modules were read",
				       pc, (int)w->p->pid);
	if (!mod)
		return uw_frames__stop(w->out, BP_UNWIND_NO_MODULE,
				       "0x%" PRIx64 " is in no module (anonymous memory: JIT code?)", pc);
	if (!dwfl_module_getelf(mod, &bias))
		return uw_frames__stop(w->out, BP_UNWIND_NO_ELF, "cannot open %s: %s",
				       module_name(mod, um),
				       um && um->open_err ? strerror(-um->open_err) : dwfl_errmsg(-1));
	return uw_frames__stop(w->out, BP_UNWIND_NO_CFI, "no CFI for 0x%" PRIx64 " in %s", pc,
			       module_name(mod, um));
}

static int walk_fp(struct bp_unwinder *u, struct uw_proc *p, const struct bp_stack_sample *s,
		   struct bp_frames *out)
{
	struct walk w = { .u = u, .p = p, .out = out };
	const unsigned char *bytes = s->stack;
	uint64_t top, ips[BP_STACK_MAX_IPS];
	struct uw_fp_walk *fw;
	int nips, gave_top, err = 0;
	bool outermost;

	memcpy(&top, bytes, 8);
	nips = (int)((s->size - 8) / 8);
	memcpy(ips, bytes + 8, (size_t)nips * 8);
	/* the walk failed: the sampled PC is still known */
	if (!nips)
		ips[nips++] = s->regs[0];
	fw = malloc(sizeof(*fw));
	if (!fw)
		return -ENOMEM;
	p->s = s;
	/* whether the kernel stored [rsp] matters only where it is the caller */
	gave_top = fp_rule(&w, ips[0], &outermost) == BP_CFA_ENTRY ? kernel_gave_top(p, ips[0]) : -1;
	uw_fp__frames(ips, nips, top, gave_top, BP_UNWIND_MAX_FRAMES, fp_rule, &w, fw);
	for (int k = 0; k < fw->n && !err; k++) {
		uint64_t pc = fw->pcs[k], lookup = k ? pc - 1 : pc;
		Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, lookup);

		if (k)
			err = emit_tail_calls(&w, pc);
		if (!err)
			err = emit(&w, mod, pc, lookup);
	}
	out->n_unwound = fw->n;
	if (!err)
		err = fp_stop(&w, fw, nips);
	p->s = NULL;
	free(fw);
	return err;
}

/* Frame 0 alone, and why there is nothing more. */
static int bare(struct bp_frames *out, const struct bp_stack_sample *s, enum bp_unwind_stop why,
		const char *reason)
{
	struct bp_frame fr = { .addr = s->regs[0] };
	int err = uw_frames__push(out, &fr);

	out->n_unwound = 1;
	return err ? err : uw_frames__stop(out, why, "%s", reason);
}

int bp_unwinder__user(struct bp_unwinder *u, const struct bp_stack_sample *s, size_t len,
		      struct bp_frames *out)
{
	struct uw_proc *p;
	char why[128];
	int err;

	if (!out)
		return -EINVAL;
	uw_frames__init(out, false);
	if (!u || !s || len < sizeof(*s))
		return -EINVAL;
	if ((s->flags & BP_STACK_SAMPLE_FP) &&
	    (s->size < 8 || s->size > BP_STACK_FP_BYTES || s->size % 8 || len - sizeof(*s) < s->size)) {
		snprintf(why, sizeof(why), "the frame-pointer sample holds %zu bytes of the %u it says",
			 len - sizeof(*s), s->size);
		err = bare(out, s, BP_UNWIND_BAD_SAMPLE, why);
		goto out;
	}
	if (s->size > BP_STACK_MAX_BYTES || len - sizeof(*s) < s->size) {
		snprintf(why, sizeof(why), "the sample holds %zu bytes of stack of the %u it says",
			 len - sizeof(*s), s->size);
		err = bare(out, s, BP_UNWIND_BAD_SAMPLE, why);
		goto out;
	}
	err = uw_at__proc(u, s, &p, why, sizeof(why));
	if (err < 0)
		goto out;
	if (err) {
		err = bare(out, s, BP_UNWIND_NO_PROCESS, why);
		goto out;
	}
	if (!p->attached) {
		snprintf(why, sizeof(why), "cannot unwind process %u: %s", s->pid,
			 p->why_not ? p->why_not : "no module could be opened");
		err = bare(out, s, BP_UNWIND_ERROR, why);
		goto out;
	}
	err = (s->flags & BP_STACK_SAMPLE_FP ? walk_fp : walk_sample)(u, p, s, out);
	/* a module mapped after the snapshot (dlopen): read the maps again */
	if (!err && out->stop == BP_UNWIND_NO_MODULE) {
		err = uw_at__refresh(u, s, &p);
		if (!err) {
			bp_frames__free(out);
			uw_frames__init(out, false);
			err = (s->flags & BP_STACK_SAMPLE_FP ? walk_fp : walk_sample)(u, p, s, out);
		} else if (err == -EAGAIN) {
			err = 0;
		}
	}
out:
	if (err) {
		bp_frames__free(out);
		uw_frames__init(out, false);
	}
	return err;
}
