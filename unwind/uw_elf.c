// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Mapped ELF images and the vDSO (uw_elf.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <gelf.h>

#include "unwind/uw_elf.h"
#include "unwind/uw_maps.h"

int uw_elf__open(const char *path, const struct uw_map *want, Elf **out)
{
	struct stat st;
	Elf *elf;
	int fd;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ENOEXEC;
	}
	if (want && (st.st_ino != want->ino || major(st.st_dev) != want->dev_major ||
		     minor(st.st_dev) != want->dev_minor)) {
		close(fd);
		return -ESTALE;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	/* mapped: the descriptor is not needed any more */
	if (elf && elf_cntl(elf, ELF_C_FDREAD)) {
		elf_end(elf);
		elf = NULL;
	}
	close(fd);
	if (!elf)
		return -ENOEXEC;
	if (elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		return -ENOEXEC;
	}
	*out = elf;
	return 0;
}

int uw_elf__span(Elf *elf, __u64 *low, __u64 *high)
{
	bool first = true;
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -ENOEXEC;
	*low = *high = 0;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (first) {
			*low = ph.p_align ? ph.p_vaddr & -ph.p_align : ph.p_vaddr;
			first = false;
		}
		if (ph.p_vaddr + ph.p_memsz > *high)
			*high = ph.p_vaddr + ph.p_memsz;
	}
	return first || *high <= *low ? -ENOEXEC : 0;
}

int uw_elf__file_offset(Elf *elf, __u64 addr, size_t len, __u64 *off)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -ENOENT;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD || addr < ph.p_vaddr ||
		    addr - ph.p_vaddr + len > ph.p_filesz)
			continue;
		*off = ph.p_offset + (addr - ph.p_vaddr);
		return 0;
	}
	return -ENOENT;
}

int uw_elf__module_span(Elf *elf, __u64 start, __u64 pgoff, __u64 *low, __u64 *high)
{
	__u64 page = (__u64)sysconf(_SC_PAGESIZE), first = 0, end = 0, at = 0;
	bool have_first = false, found = false;
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -ENOEXEC;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (!have_first) {
			first = ph.p_vaddr & -page;
			have_first = true;
		}
		if (ph.p_vaddr + ph.p_memsz > end)
			end = ph.p_vaddr + ph.p_memsz;
		/* the segment whose pages the mapping starts with: where the
		 * kernel put file offset pgoff */
		if (!found && (ph.p_offset & -page) <= pgoff &&
		    pgoff < ph.p_offset + (ph.p_filesz ? ph.p_filesz : 1)) {
			at = (ph.p_vaddr & -page) + (pgoff - (ph.p_offset & -page));
			found = true;
		}
	}
	if (!found || at > start || end <= first)
		return -ENOEXEC;
	/* bias: where link-time address 0 went */
	*low = start - at + first;
	*high = start - at + ((end + page - 1) & -page);
	return 0;
}

int uw_elf__build_id(Elf *elf, char *hex, size_t size)
{
	static const char digits[] = "0123456789abcdef";
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		size_t off = 0, name_off, desc_off;
		Elf_Data *data;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off))) {
			const unsigned char *d = (const unsigned char *)data->d_buf + desc_off;
			size_t i;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((const char *)data->d_buf + name_off, "GNU", 4) ||
			    !nh.n_descsz || nh.n_descsz * 2 + 1 > size)
				continue;
			for (i = 0; i < nh.n_descsz; i++) {
				hex[2 * i] = digits[d[i] >> 4];
				hex[2 * i + 1] = digits[d[i] & 15];
			}
			hex[2 * i] = 0;
			return 0;
		}
	}
	return -ENOENT;
}

int uw_elf__vdso(void **image, size_t *size)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	const struct uw_map *m;
	struct uw_maps *maps;
	int err;

	*image = NULL;
	*size = 0;
	if (!base)
		return -ENOENT;
	err = uw_maps__read(getpid(), &maps);
	if (err)
		return err;
	m = uw_maps__find(maps, base);
	if (!m || !m->vdso) {
		uw_maps__free(maps);
		return -ENOENT;
	}
	*size = m->high - m->low;
	*image = malloc(*size);
	if (*image)
		memcpy(*image, (const void *)base, *size);
	uw_maps__free(maps);
	return *image ? 0 : -ENOMEM;
}
