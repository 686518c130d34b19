// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Where a binary's thread-local storage is, for the current thread, as a
 * probe can find it: DWARF gives a thread-local variable's offset in its
 * module's TLS block (DW_OP_form_tls_address); the block itself is found
 * from the thread pointer at run time, through what the dynamic loader
 * wrote for this module:
 *
 *  - a library that reads its own thread-locals with initial-exec code
 *    has GOT slots the loader filled with their offsets from the thread
 *    pointer (R_X86_64_TPOFF64): the block is at the thread pointer plus
 *    such a slot, minus the offset of the symbol it is about;
 *  - else a GOT slot holds its module id (R_X86_64_DTPMOD64), and the
 *    block is that DTV entry;
 *  - an executable has neither (its code reaches its block directly): it
 *    is module 1, its block DTV entry 1.
 *
 * Which relocation types those are is the arch's (prologue/arch.h).
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "probes/dwarf/dwarf.h"
#include "prologue/arch.h"

static bool has_segment(Elf *elf, uint32_t type)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == type)
			return true;
	return false;
}

/* The relocation's symbol, when it is a thread-local this module defines
 * (0: the module's own block, no symbol); false for another module's. */
static bool own_tls_symbol(Elf *elf, GElf_Shdr *rela_sh, uint32_t sym, uint64_t *value)
{
	Elf_Scn *scn;
	Elf_Data *data;
	GElf_Sym s;

	*value = 0;
	if (!sym)
		return true;
	scn = elf_getscn(elf, rela_sh->sh_link);
	data = scn ? elf_getdata(scn, NULL) : NULL;
	if (!data || !gelf_getsym(data, (int)sym, &s))
		return false;
	if (s.st_shndx == SHN_UNDEF || GELF_ST_TYPE(s.st_info) != STT_TLS)
		return false;
	*value = s.st_value;
	return true;
}

/* The first TPOFF and DTPMOD slots of the module's own thread-locals. */
static void scan_relocs(Elf *elf, struct bp_tls_module *tpoff, struct bp_tls_module *modid)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Rela r;
	Elf_Data *data;
	uint64_t value;
	size_t i, n;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		n = data ? sh.sh_size / sh.sh_entsize : 0;
		for (i = 0; i < n && (!tpoff->kind || !modid->kind); i++) {
			enum bp_tls_reloc kind;

			if (!gelf_getrela(data, (int)i, &r))
				break;
			kind = bp_arch__tls_reloc((uint32_t)GELF_R_TYPE(r.r_info));
			if (!kind || !own_tls_symbol(elf, &sh, (uint32_t)GELF_R_SYM(r.r_info), &value))
				continue;
			if (kind == BP_TLS_RELOC_TPOFF && !tpoff->kind) {
				tpoff->kind = BP_TLS_TPOFF_GOT;
				tpoff->got = r.r_offset;
				tpoff->sub = (int64_t)value + r.r_addend;
			} else if (kind == BP_TLS_RELOC_DTPMOD && !modid->kind) {
				modid->kind = BP_TLS_MODID_GOT;
				modid->got = r.r_offset;
			}
		}
	}
}

int bp_tls__module(const struct bp_debuginfo *di, struct bp_tls_module *m,
		   char *why, size_t len)
{
	struct bp_tls_module tpoff = {}, modid = {};
	GElf_Ehdr eh;

	memset(m, 0, sizeof(*m));
	if (!di->elf || !gelf_getehdr(di->elf, &eh)) {
		snprintf(why, len, "its ELF headers cannot be read");
		return -EINVAL;
	}
	if (!has_segment(di->elf, PT_TLS)) {
		snprintf(why, len, "%s has no thread-local storage segment (PT_TLS)", di->path);
		return -ENOENT;
	}
	/* what the loader wrote for this module first: an executable has no
	 * such slots (its code reaches its block directly), but a library
	 * may have an interpreter too (glibc's libc.so.6 runs) */
	scan_relocs(di->elf, &tpoff, &modid);
	*m = tpoff.kind ? tpoff : modid;
	if (!m->kind && (eh.e_type == ET_EXEC || has_segment(di->elf, PT_INTERP))) {
		/* the executable is module 1 */
		m->kind = BP_TLS_MODID_CONST;
		m->modid = 1;
		return 0;
	}
	if (!m->kind) {
		snprintf(why, len, "no relocation of %s says where its thread-local block is (neither a TPOFF nor a DTPMOD slot in its GOT)",
			 di->path);
		return -ENOENT;
	}
	/* relocation offsets are ELF addresses; expressions take DWARF ones */
	m->got = m->got + di->elf_bias - di->dwarf_bias;
	return 0;
}

/* --- a thread-local variable's address as a fetch expression ----------- */

/* The thread pointer: the current task's fs base (arch.h). */
static int push_thread_pointer(const struct bp_arg_ctx *c, struct bp_expr *x)
{
	char why[160];
	int64_t off;

	if (bp_arch__task_tp_off(&off, why, sizeof(why))) {
		bp_arg_fail(c, "a thread-local variable, but %s", why);
		return -ENOENT;
	}
	return bp_val__push_op(c, x, BP_XOP_TASK, 0, 0, 0, 0) ?:
	       bp_val__push_op(c, x, BP_XOP_DEREF, 0, 8, 0, off);
}

/* The block of DTV entry (modid on the stack, or constant): tp's DTV,
 * then the entry's first word. */
static int push_dtv_block(const struct bp_arg_ctx *c, struct bp_expr *x,
			  const struct bp_tls_module *m)
{
	int err;

	err = push_thread_pointer(c, x) ?:
	      bp_val__push_op(c, x, BP_XOP_DEREF, 0, 8, BP_XF_USER, bp_arch__tls_dtv_off());
	if (err)
		return err;
	if (m->kind == BP_TLS_MODID_CONST)
		return bp_val__push_op(c, x, BP_XOP_DEREF, 0, 8, BP_XF_USER,
			    (int64_t)m->modid * bp_arch__tls_dtv_entry_size());
	err = bp_val__push_op(c, x, BP_XOP_ADDR, 0, 0, 0, (int64_t)m->got) ?:
	      bp_val__push_op(c, x, BP_XOP_DEREF, 0, 8, BP_XF_USER, 0) ?:
	      bp_val__push_op(c, x, BP_XOP_MUL, 0, 0, BP_XF_IMM, bp_arch__tls_dtv_entry_size()) ?:
	      bp_val__push_op(c, x, BP_XOP_ADD, 0, 0, 0, 0);
	return err ?: bp_val__push_op(c, x, BP_XOP_DEREF, 0, 8, BP_XF_USER, 0);
}

int bp_val__tls(const struct bp_arg_ctx *c, struct bp_val *v)
{
	struct bp_tls_module m;
	struct bp_expr *x;
	char why[320];
	int err;

	if (c->kernel) {
		bp_arg_fail(c, "a thread-local variable in a kernel probe (DW_OP_form_tls_address): not supported");
		return -EOPNOTSUPP;
	}
	if (bp_tls__module(c->dw->di, &m, why, sizeof(why))) {
		bp_arg_fail(c, "a thread-local variable, but %s", why);
		return -ENOENT;
	}
	/* the offset in the block, then the block's address, added */
	err = bp_val__flatten(c, v);
	if (err)
		return err;
	x = &v->f.expr;
	if (m.kind == BP_TLS_TPOFF_GOT)
		err = push_thread_pointer(c, x) ?:
		      bp_val__push_op(c, x, BP_XOP_ADDR, 0, 0, 0, (int64_t)m.got) ?:
		      bp_val__push_op(c, x, BP_XOP_DEREF, 0, 8, BP_XF_USER, 0) ?:
		      bp_val__push_op(c, x, BP_XOP_ADD, 0, 0, 0, 0) ?:
		      (m.sub ? bp_val__push_op(c, x, BP_XOP_PLUS_CONST, 0, 0, 0, -m.sub) : 0);
	else
		err = push_dtv_block(c, x, &m);
	if (!err)
		err = bp_val__push_op(c, x, BP_XOP_ADD, 0, 0, 0, 0);
	if (err)
		return err;
	/* anchors for the GOT slot's address */
	v->f.anchor = c->addr;
	v->f.anchor_kind = c->at_return ? BP_ANCHOR_FUNC_IP : BP_ANCHOR_IP;
	return 0;
}
