// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Frame pointers read from CFI (cfi_fp.h). The FDEs of .eh_frame are
 * walked with dwarf_next_cfi(), their address ranges decoded here (the
 * pointer encodings GCC, clang and the assemblers write: absolute or
 * PC-relative, 2, 4 or 8 bytes), and each FDE's rows are then asked of
 * libdw's CFI one by one (dwarf_cfi_addrframe, dwarf_frame_cfa).
 */
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "util/cfi_fp.h"

#define DW_REG_RSP	7
#define DW_REG_RBP	6

/* reg + off of a CFA rule "register + offset", or false for another rule */
static bool cfa_reg_off(Dwarf_Frame *frame, int *reg, int64_t *off)
{
	Dwarf_Op *ops;
	size_t nops;

	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1)
		return false;
	if (ops[0].atom == DW_OP_bregx) {
		*reg = (int)ops[0].number;
		*off = (int64_t)ops[0].number2;
		return true;
	}
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = ops[0].atom - DW_OP_breg0;
		*off = (int64_t)ops[0].number;
		return true;
	}
	return false;
}

static bool ra_undefined(Dwarf_Frame *frame)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	int ra = dwarf_frame_info(frame, NULL, NULL, NULL);

	return ra >= 0 && !dwarf_frame_register(frame, ra, mem, &ops, &nops) &&
	       nops == 0 && ops == mem;
}

static enum bp_cfa_rule frame_rule(Dwarf_Frame *frame)
{
	int64_t off;
	int reg;

	if (!cfa_reg_off(frame, &reg, &off))
		return BP_CFA_OTHER;
	/* rbp + 16: the return address at [rbp + 8] and the caller's rbp at
	 * [rbp], where a frame-pointer walk reads them */
	if (reg == DW_REG_RBP && off == 16)
		return BP_CFA_RBP;
	if (reg == DW_REG_RSP && off == 8)
		return BP_CFA_ENTRY;
	return BP_CFA_OTHER;
}

enum bp_cfa_rule bp_cfa__rule(Dwarf_CFI *cfi, Dwarf_Addr addr, bool *outermost)
{
	enum bp_cfa_rule rule;
	Dwarf_Frame *frame;

	if (outermost)
		*outermost = false;
	if (!cfi || dwarf_cfi_addrframe(cfi, addr, &frame))
		return BP_CFA_NONE;
	rule = frame_rule(frame);
	if (outermost)
		*outermost = ra_undefined(frame);
	free(frame);
	return rule;
}

/* --- the FDEs of .eh_frame ----------------------------------------------- */

struct cie_enc {
	Dwarf_Off off;
	uint8_t enc;		/* the FDEs' pointer encoding ('R') */
	bool aug_z;		/* FDEs carry augmentation data (skipped) */
};

struct reader {
	const uint8_t *p, *end;
};

static bool read_uleb(struct reader *r, uint64_t *v)
{
	int shift = 0;

	*v = 0;
	while (r->p < r->end && shift < 64) {
		uint8_t b = *r->p++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

/* One encoded value's bytes (the low 4 bits of enc), read as a number. */
static bool read_encoded(struct reader *r, uint8_t enc, uint64_t *v)
{
	size_t n;

	switch (enc & 0x0f) {
	case DW_EH_PE_absptr:
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		n = 8;
		break;
	case DW_EH_PE_udata4:
	case DW_EH_PE_sdata4:
		n = 4;
		break;
	case DW_EH_PE_udata2:
	case DW_EH_PE_sdata2:
		n = 2;
		break;
	case DW_EH_PE_uleb128:
		return read_uleb(r, v);
	default:
		return false;
	}
	if ((size_t)(r->end - r->p) < n)
		return false;
	*v = 0;
	for (size_t i = 0; i < n; i++)
		*v |= (uint64_t)r->p[i] << (8 * i);
	if ((enc & DW_EH_PE_signed) && n < 8 && (*v >> (8 * n - 1)) & 1)
		*v |= ~0ULL << (8 * n);
	r->p += n;
	return true;
}

/* The FDE pointer encoding of a CIE: its 'R' augmentation, else absolute. */
static bool cie_encoding(const Dwarf_CIE *cie, struct cie_enc *ce)
{
	struct reader r = { cie->augmentation_data,
			    cie->augmentation_data + cie->augmentation_data_size };
	const char *a = cie->augmentation;
	uint64_t skip;

	ce->enc = DW_EH_PE_absptr;
	ce->aug_z = a && a[0] == 'z';
	if (!ce->aug_z)
		return !a || !a[0];
	for (a++; *a; a++) {
		switch (*a) {
		case 'L':
			if (r.p >= r.end)
				return false;
			r.p++;
			break;
		case 'P': {
			uint8_t enc;

			if (r.p >= r.end)
				return false;
			enc = *r.p++;
			if (!read_encoded(&r, enc, &skip))
				return false;
			break;
		}
		case 'R':
			if (r.p >= r.end)
				return false;
			ce->enc = *r.p++;
			break;
		case 'S':
		case 'B':
			break;
		default:
			return false;
		}
	}
	return true;
}

/* [*lo, *hi) of an FDE whose initial_location field sits at field_addr */
static bool fde_range(const Dwarf_FDE *fde, uint8_t enc, uint64_t field_addr, uint64_t *lo,
		      uint64_t *hi)
{
	struct reader r = { fde->start, fde->end };
	uint64_t start, len;

	if (!read_encoded(&r, enc, &start) || !read_encoded(&r, enc & 0x0f, &len))
		return false;
	switch (enc & 0x70) {
	case 0:
		break;
	case DW_EH_PE_pcrel:
		start += field_addr;
		break;
	default:
		return false;
	}
	*lo = start;
	*hi = start + len;
	return true;
}

/*
 * Whether the function in [lo, hi) leaves its callers' frame-pointer
 * chain whole: some row sets the CFA from rbp (it keeps a frame pointer),
 * or every row is rsp + 8 (it never moves rsp, so it calls nothing: a
 * leaf, whose caller is at [rsp]). *outermost: it has no caller at all.
 */
static bool fde_keeps_fp(Dwarf_CFI *cfi, uint64_t lo, uint64_t hi, bool *outermost)
{
	Dwarf_Addr addr = lo, start, end;
	enum bp_cfa_rule rule;
	Dwarf_Frame *frame;
	bool rbp = false, frameless = true;

	*outermost = false;
	while (addr < hi && !rbp) {
		if (dwarf_cfi_addrframe(cfi, addr, &frame)) {
			frameless = false;
			break;
		}
		rule = frame_rule(frame);
		rbp = rule == BP_CFA_RBP;
		frameless &= rule == BP_CFA_ENTRY;
		if (addr == lo)
			*outermost = ra_undefined(frame);
		if (dwarf_frame_info(frame, &start, &end, NULL) < 0 || end <= addr)
			end = hi;
		free(frame);
		addr = end;
	}
	return rbp || frameless;
}

struct plt_ranges {
	uint64_t lo[4], hi[4];
	int n;
};

/* The PLT sections: their entries jump, and call nothing. */
static void find_plts(Elf *elf, size_t shstrndx, struct plt_ranges *plt)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	const char *name;

	while ((scn = elf_nextscn(elf, scn)) && plt->n < 4) {
		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (!strncmp(name, ".plt", 4)) {
			plt->lo[plt->n] = sh.sh_addr;
			plt->hi[plt->n++] = sh.sh_addr + sh.sh_size;
		}
	}
}

static bool in_plt(const struct plt_ranges *plt, uint64_t addr)
{
	for (int i = 0; i < plt->n; i++)
		if (addr >= plt->lo[i] && addr < plt->hi[i])
			return true;
	return false;
}

static Elf_Scn *find_section(Elf *elf, size_t shstrndx, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	const char *name;

	while ((scn = elf_nextscn(elf, scn))) {
		if (gelf_getshdr(scn, sh) && (name = elf_strptr(elf, shstrndx, sh->sh_name)) &&
		    !strcmp(name, want))
			return scn;
	}
	return NULL;
}

static struct cie_enc *find_cie(struct cie_enc *cies, int n, Dwarf_Off off)
{
	for (int i = n - 1; i >= 0; i--)
		if (cies[i].off == off)
			return &cies[i];
	return NULL;
}

int bp_cfi_fp__module(Elf *elf, struct bp_fp_verdict *v)
{
	struct plt_ranges plt = {};
	struct cie_enc *cies = NULL, *ce;
	int ncies = 0, err = 0;
	const unsigned char *ident;
	Dwarf_Off off = 0, next;
	Dwarf_CFI_Entry entry;
	Dwarf_CFI *cfi;
	Elf_Data *data;
	size_t shstrndx;
	GElf_Shdr sh;
	Elf_Scn *scn;

	memset(v, 0, sizeof(*v));
	v->keeps = true;
	if (elf_getshdrstrndx(elf, &shstrndx) || !(ident = (const unsigned char *)elf_getident(elf, NULL)))
		return -EINVAL;
	scn = find_section(elf, shstrndx, ".eh_frame", &sh);
	if (!scn || sh.sh_type == SHT_NOBITS || !(data = elf_getdata(scn, NULL)) || !data->d_size)
		return -ENODATA;
	cfi = dwarf_getcfi_elf(elf);
	if (!cfi)
		return -ENODATA;
	find_plts(elf, shstrndx, &plt);
	for (; off < data->d_size; off = next) {
		uint64_t lo, hi;
		bool outermost;
		int rc = dwarf_next_cfi(ident, data, true, off, &next, &entry);

		if (rc > 0)
			break;	/* the terminator */
		if (rc < 0) {
			err = -EINVAL;
			break;
		}
		if (dwarf_cfi_cie_p(&entry)) {
			struct cie_enc *grown = realloc(cies, (ncies + 1) * sizeof(*cies));

			if (!grown) {
				err = -ENOMEM;
				break;
			}
			cies = grown;
			cies[ncies].off = off;
			if (!cie_encoding(&entry.cie, &cies[ncies])) {
				err = -EINVAL;
				break;
			}
			ncies++;
			continue;
		}
		ce = find_cie(cies, ncies, entry.fde.CIE_pointer);
		if (!ce || !fde_range(&entry.fde, ce->enc,
				      sh.sh_addr + (uint64_t)(entry.fde.start - (const uint8_t *)data->d_buf),
				      &lo, &hi)) {
			err = -EINVAL;
			break;
		}
		v->nfuncs++;
		if (hi - lo <= BP_FP_SHORT_FUNC || in_plt(&plt, lo))
			continue;
		if (fde_keeps_fp(cfi, lo, hi, &outermost))
			v->nchecked++;
		else if (!outermost) {
			v->nchecked++;
			v->keeps = false;
			v->bad_addr = lo;
			break;
		}
	}
	free(cies);
	dwarf_cfi_end(cfi);
	return err;
}
