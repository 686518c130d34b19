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
		if (!data || !data->d_size)
			return NULL;
		return strndup(data->d_buf, data->d_size);
	}
	return NULL;
}

int bp_elf__check_bpf(const char *path, char **license)
{
	GElf_Ehdr eh;
	Elf *elf;
	int fd, err = 0;

	*license = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		bp_err("cannot open '%s': %s\n", path, strerror(errno));
		return err;
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
		*license = read_license(elf);
		if (!*license)
			*license = strdup("GPL");
	}
	elf_end(elf);
	close(fd);
	return err;
}
