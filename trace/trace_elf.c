// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A generated object as a BPF ELF file (trace.h), laid out as clang lays
 * out a compiled one, so libbpf and the loader open it like any other:
 *
 *	.strtab			section and symbol names
 *	SEC text		one per program: its instructions, named by its SEC
 *	.rel<SEC text>		its map loads (R_BPF_64_64 against the map's symbol)
 *	.maps			the maps' BTF-defined definitions (zeroes)
 *	license			"GPL"
 *	.BTF			types (trace_btf.c)
 *	.symtab			the programs (STT_FUNC), the maps and LICENSE
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "trace/trace_gen.h"

#define LICENSE		"GPL"

/* names, in one string table */
struct strs {
	char *buf;
	size_t len, cap;
};

static int str_add(struct strs *s, const char *str)
{
	size_t n = strlen(str) + 1, at = s->len;

	if (s->len + n > s->cap) {
		size_t cap = (s->len + n) * 2 + 256;
		char *b = realloc(s->buf, cap);

		if (!b)
			return -ENOMEM;
		s->buf = b;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, str, n);
	s->len += n;
	return (int)at;
}

struct prog_code {
	struct bpf_insn insns[BP_TRACE_MAX_INSNS];
	int ninsns;
	struct bp_trace_reloc relocs[BP_TRACE_MAX_RELOCS];
	int nrelocs;
	Elf64_Rel rel[BP_TRACE_MAX_RELOCS];
	size_t scn;		/* its section's index */
};

struct writer {
	Elf *elf;
	struct strs names;
	int err;
};

/* A new section with data (size bytes, kept alive by the caller). */
static Elf_Scn *add_scn(struct writer *w, const char *name, Elf64_Word type, Elf64_Xword flags,
			const void *data, size_t size, size_t align, size_t entsize)
{
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	int off;

	if (w->err)
		return NULL;
	off = str_add(&w->names, name);
	scn = off < 0 ? NULL : elf_newscn(w->elf);
	d = scn ? elf_newdata(scn) : NULL;
	if (!d || !gelf_getshdr(scn, &sh)) {
		w->err = off < 0 ? off : -ENOMEM;
		return NULL;
	}
	d->d_buf = (void *)data;
	d->d_size = size;
	d->d_type = ELF_T_BYTE;
	d->d_align = align;
	sh.sh_name = off;
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addralign = align;
	sh.sh_entsize = entsize;
	if (!gelf_update_shdr(scn, &sh))
		w->err = -EINVAL;
	return scn;
}

static void set_link(struct writer *w, Elf_Scn *scn, size_t link, size_t info)
{
	GElf_Shdr sh;

	if (w->err || !scn || !gelf_getshdr(scn, &sh)) {
		w->err = w->err ? w->err : -EINVAL;
		return;
	}
	sh.sh_link = link;
	sh.sh_info = info;
	if (!gelf_update_shdr(scn, &sh))
		w->err = -EINVAL;
}

static int symbol(struct writer *w, Elf64_Sym *sym, const char *name, int type, size_t shndx,
		  size_t value, size_t size)
{
	int off = str_add(&w->names, name);

	if (off < 0)
		return off;
	*sym = (Elf64_Sym){
		.st_name = off,
		.st_info = ELF64_ST_INFO(STB_GLOBAL, type),
		.st_shndx = shndx,
		.st_value = value,
		.st_size = size,
	};
	return 0;
}

static int write_elf(struct writer *w, const struct bp_trace *t, struct prog_code *code,
		     const struct bp_trace_map_def *defs, int nmaps, const void *btf,
		     size_t btf_size)
{
	static const char license[] = LICENSE;
	int nsyms = 1 + t->nprogs + nmaps + 1, err;
	Elf64_Sym *syms = calloc(nsyms, sizeof(*syms));
	void *maps_data = calloc(1, defs[nmaps - 1].off + defs[nmaps - 1].size);
	Elf_Scn *strtab, *maps, *lic, *symtab, *rel[BP_TRACE_MAX_SPECS];
	size_t maps_size = defs[nmaps - 1].off + defs[nmaps - 1].size, first_map;
	GElf_Ehdr eh;

	if (!syms || !maps_data) {
		err = -ENOMEM;
		goto out;
	}
	strtab = add_scn(w, ".strtab", SHT_STRTAB, 0, NULL, 0, 1, 0);
	for (int i = 0; i < t->nprogs; i++) {
		Elf_Scn *s = add_scn(w, t->progs[i].sec, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
				     code[i].insns, code[i].ninsns * sizeof(struct bpf_insn), 8, 0);

		code[i].scn = s ? elf_ndxscn(s) : 0;
	}
	for (int i = 0; i < t->nprogs; i++) {
		char name[4096];

		snprintf(name, sizeof(name), ".rel%s", t->progs[i].sec);
		rel[i] = add_scn(w, name, SHT_REL, 0, code[i].rel,
				 code[i].nrelocs * sizeof(Elf64_Rel), 8, sizeof(Elf64_Rel));
	}
	maps = add_scn(w, ".maps", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, maps_data, maps_size, 8, 0);
	lic = add_scn(w, "license", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, license,
		      sizeof(license), 1, 0);
	add_scn(w, ".BTF", SHT_PROGBITS, 0, btf, btf_size, 4, 0);
	symtab = add_scn(w, ".symtab", SHT_SYMTAB, 0, syms, nsyms * sizeof(*syms), 8,
			 sizeof(Elf64_Sym));
	if (w->err) {
		err = w->err;
		goto out;
	}
	/* every symbol but the first is global: sh_info is 1 */
	err = 0;
	for (int i = 0; i < t->nprogs && !err; i++)
		err = symbol(w, &syms[1 + i], t->progs[i].name, STT_FUNC, code[i].scn, 0,
			     code[i].ninsns * sizeof(struct bpf_insn));
	first_map = 1 + t->nprogs;
	for (int i = 0; i < nmaps && !err; i++)
		err = symbol(w, &syms[first_map + i], defs[i].name, STT_OBJECT, elf_ndxscn(maps),
			     defs[i].off, defs[i].size);
	if (!err)
		err = symbol(w, &syms[nsyms - 1], "LICENSE", STT_OBJECT, elf_ndxscn(lic), 0,
			     sizeof(license));
	for (int i = 0; i < t->nprogs && !err; i++) {
		for (int k = 0; k < code[i].nrelocs; k++) {
			int m = 0;

			while (m < nmaps && defs[m].id != code[i].relocs[k].map)
				m++;
			if (m == nmaps) {
				err = -EINVAL;
				break;
			}
			code[i].rel[k].r_offset = code[i].relocs[k].insn * sizeof(struct bpf_insn);
			code[i].rel[k].r_info = ELF64_R_INFO(first_map + m, R_BPF_64_64);
		}
		set_link(w, rel[i], elf_ndxscn(symtab), code[i].scn);
	}
	set_link(w, symtab, elf_ndxscn(strtab), 1);
	if (!err)
		err = w->err;
	if (err)
		goto out;
	/* the names are all known now */
	elf_getdata(strtab, NULL)->d_buf = w->names.buf;
	elf_getdata(strtab, NULL)->d_size = w->names.len;
	if (!gelf_getehdr(w->elf, &eh)) {
		err = -EINVAL;
		goto out;
	}
	eh.e_shstrndx = elf_ndxscn(strtab);
	if (!gelf_update_ehdr(w->elf, &eh) || elf_update(w->elf, ELF_C_WRITE) < 0)
		err = -EIO;
out:
	free(syms);
	free(maps_data);
	return err;
}

int bp_trace__write_object(const struct bp_trace *t, int fd)
{
	struct bp_trace_map_def defs[BP_TRACE_NMAPS];
	struct writer w = {};
	struct prog_code *code;
	struct btf *btf = NULL;
	const void *raw = NULL;
	__u32 raw_size = 0;
	GElf_Ehdr eh;
	int nmaps, err = 0;

	bp_trace__maps(t, defs, &nmaps);
	code = calloc(t->nprogs ? t->nprogs : 1, sizeof(*code));
	if (!code)
		return -ENOMEM;
	for (int i = 0; i < t->nprogs && !err; i++) {
		code[i].ninsns = bp_trace__insns(t, i, code[i].insns, BP_TRACE_MAX_INSNS,
						 code[i].relocs, &code[i].nrelocs);
		err = code[i].ninsns < 0 ? code[i].ninsns : 0;
	}
	if (!err && t->nprogs > BP_TRACE_MAX_SPECS)
		err = -E2BIG;
	if (!err) {
		btf = bp_trace__btf(t, defs, nmaps);
		raw = btf ? btf__raw_data(btf, &raw_size) : NULL;
		err = raw ? 0 : -errno;
	}
	/* the names start with the empty one */
	if (!err && str_add(&w.names, "") < 0)
		err = -ENOMEM;
	if (!err) {
		elf_version(EV_CURRENT);
		w.elf = elf_begin(fd, ELF_C_WRITE, NULL);
		if (!w.elf || !gelf_newehdr(w.elf, ELFCLASS64) || !gelf_getehdr(w.elf, &eh))
			err = -EINVAL;
	}
	if (!err) {
		eh.e_ident[EI_DATA] = ELFDATA2LSB;
		eh.e_type = ET_REL;
		eh.e_machine = EM_BPF;
		eh.e_version = EV_CURRENT;
		if (!gelf_update_ehdr(w.elf, &eh))
			err = -EINVAL;
	}
	if (!err)
		err = write_elf(&w, t, code, defs, nmaps, raw, raw_size);
	if (err) {
		int ee = elf_errno();

		fprintf(stderr, "bpfprobe trace: cannot write the BPF object: %s%s%s\n",
			strerror(-err), ee ? ": " : "", ee ? elf_errmsg(ee) : "");
	}
	if (w.elf)
		elf_end(w.elf);
	btf__free(btf);
	free(w.names.buf);
	free(code);
	return err;
}
