// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Looks at the object file before libbpf does, so a wrong file gets a plain
 * message ("not a BPF ELF object") instead of a libbpf internal one, and
 * reads the license section the instances are loaded with.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "loader/object.h"
#include "util/log.h"

static char *read_license(Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, "license"))
			continue;
		data = elf_getdata(scn, NULL);
		/* SHT_NOBITS: a size, no bytes */
		if (!data || !data->d_size || !data->d_buf)
			return NULL;
		return strndup(data->d_buf, data->d_size);
	}
	return NULL;
}

/*
 * What libbpf would trip over with a message that does not say it (a
 * truncated file: "Unknown error 4001"; a string table without its final
 * NUL: whatever lookup failed next), or crash on (damaged BTF): every
 * section inside the file, string tables NUL-terminated, section names
 * readable, one symbol table, the .BTF sound (btf_check.c).
 */
static int check_layout(Elf *elf, const char *path, off_t fsize)
{
	size_t shnum, shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	int symtabs = 0;

	/* e_shnum as written: libelf counts only the headers the file holds */
	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &shnum) ||
	    elf_getshdrstrndx(elf, &shstrndx) || eh.e_shoff > (GElf_Off)fsize ||
	    (GElf_Off)fsize - eh.e_shoff < (GElf_Off)(eh.e_shnum ? eh.e_shnum : shnum) * eh.e_shentsize) {
		bp_err("'%s' is truncated or corrupt: its section header table (at offset %llu) is not all in the file (%lld bytes)\n",
		       path, (unsigned long long)eh.e_shoff, (long long)fsize);
		return -ENOEXEC;
	}
	if (!shstrndx || shstrndx >= shnum) {
		bp_err("'%s' is corrupt: it has no section name string table\n", path);
		return -ENOEXEC;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		size_t i = elf_ndxscn(scn);
		const char *name = NULL;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh)) {
			bp_err("'%s' is corrupt: section %zu has no readable header\n", path, i);
			return -ENOEXEC;
		}
		if (sh.sh_type != SHT_NOBITS &&
		    (sh.sh_offset > (GElf_Off)fsize || (GElf_Off)fsize - sh.sh_offset < sh.sh_size)) {
			bp_err("'%s' is truncated or corrupt: section %zu (bytes %llu..%llu) ends past the end of the file (%lld bytes)\n",
			       path, i, (unsigned long long)sh.sh_offset,
			       (unsigned long long)(sh.sh_offset + sh.sh_size), (long long)fsize);
			return -ENOEXEC;
		}
		if (sh.sh_type == SHT_STRTAB && sh.sh_size) {
			Elf_Data *d = elf_rawdata(scn, NULL);

			if (!d || d->d_size != sh.sh_size ||
			    ((const char *)d->d_buf)[d->d_size - 1] != '\0') {
				bp_err("'%s' is corrupt: string table section %zu%s does not end with a NUL byte\n",
				       path, i, i == shstrndx ? " (the section names)" : "");
				return -ENOEXEC;
			}
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name) {
			bp_err("'%s' is corrupt: the name of section %zu is not in the section name string table\n",
			       path, i);
			return -ENOEXEC;
		}
		if ((!strcmp(name, "license") || !strcmp(name, "version")) &&
		    sh.sh_type == SHT_NOBITS) {
			bp_err("'%s' is corrupt: its %s section holds no bytes (SHT_NOBITS)\n", path,
			       name);
			return -ENOEXEC;
		}
		if (!strcmp(name, ".BTF") && sh.sh_type != SHT_NOBITS) {
			Elf_Data *d = elf_rawdata(scn, NULL);
			int err = d ? bp_btf__check_raw(d->d_buf, d->d_size, path) : -ENOEXEC;

			if (!d)
				bp_err("'%s' is corrupt: its .BTF section cannot be read\n", path);
			if (err)
				return err;
		}
		symtabs += sh.sh_type == SHT_SYMTAB;
	}
	if (symtabs != 1) {
		bp_err("'%s' has %s symbol table (a stripped or corrupt object?)\n", path,
		       symtabs ? "more than one" : "no");
		return -ENOEXEC;
	}
	return 0;
}

int bp_elf__check_bpf(const char *path, char **license)
{
	struct stat st;
	GElf_Ehdr eh;
	Elf *elf;
	int fd, err = 0;

	*license = NULL;
	/* O_NONBLOCK: a FIFO would block the open until a writer came */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		err = -errno;
		bp_err("cannot open '%s': %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		bp_err("'%s' is not a regular file (expected a BPF object built with clang -target bpf)\n",
		       path);
		close(fd);
		return -EINVAL;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		bp_err("'%s' is not an ELF file (expected a BPF object built with clang -target bpf)\n",
		       path);
		err = -ENOEXEC;
	} else if (eh.e_machine != EM_BPF || eh.e_type != ET_REL) {
		bp_err("'%s' is not a BPF ELF object (e_machine %u, e_type %u; expected a relocatable object built with clang -target bpf)\n",
		       path, eh.e_machine, eh.e_type);
		err = -ENOEXEC;
	} else {
		err = check_layout(elf, path, st.st_size);
	}
	if (!err) {
		*license = read_license(elf);
		if (!*license)
			*license = strdup("GPL");
	}
	elf_end(elf);
	close(fd);
	return err;
}
