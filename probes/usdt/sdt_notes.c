// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A binary's SDT markers, read from its notes (sdt_notes.h). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "probes/usdt/sdt_notes.h"
#include "util/grow.h"

#define NT_STAPSDT	3

void bp_sdt_sites__free(struct bp_sdt_site *sites, int n)
{
	for (int i = 0; sites && i < n; i++) {
		free(sites[i].provider);
		free(sites[i].name);
		free(sites[i].args);
	}
	free(sites);
}

int bp_sdt__nargs(const char *args)
{
	int n = 0;

	for (const char *p = args; p && *p;) {
		p += strspn(p, " \t");
		if (!*p)
			break;
		n++;
		p += strcspn(p, " \t");
	}
	return n;
}

/* The address of section name, or 0 when there is none. */
static uint64_t section_addr(Elf *elf, size_t shstrndx, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		const char *s;

		if (!gelf_getshdr(scn, &sh))
			continue;
		s = elf_strptr(elf, shstrndx, sh.sh_name);
		if (s && !strcmp(s, name))
			return sh.sh_addr;
	}
	return 0;
}

/* The file offset of link-time address addr: in a PT_LOAD segment. */
static int file_offset(Elf *elf, uint64_t addr, uint64_t *off)
{
	size_t n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr - ph.p_vaddr < ph.p_filesz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

/* A NUL-terminated string at *p inside [*p, end), moved past. */
static char *take_string(const char **p, const char *end)
{
	const char *nul = memchr(*p, '\0', end - *p);
	char *s;

	if (!nul)
		return NULL;
	s = strdup(*p);
	*p = nul + 1;
	return s;
}

/* One note's descriptor into site; -EINVAL when it is malformed. */
static int parse_desc(Elf *elf, const char *desc, size_t len, uint64_t base,
		      struct bp_sdt_site *site)
{
	size_t asize = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
	const char *p = desc + 3 * asize, *end = desc + len;
	uint64_t v[3] = {};

	if (len < 3 * asize + 3)
		return -EINVAL;
	for (int i = 0; i < 3; i++) {
		if (asize == 4) {
			uint32_t w;

			memcpy(&w, desc + 4 * i, 4);
			v[i] = w;
		} else {
			memcpy(&v[i], desc + 8 * i, 8);
		}
	}
	site->provider = take_string(&p, end);
	site->name = site->provider ? take_string(&p, end) : NULL;
	site->args = site->name ? take_string(&p, end) : NULL;
	if (!site->args)
		return site->provider && site->name && memchr(p, '\0', end - p) ? -ENOMEM : -EINVAL;
	/* prelink moved .stapsdt.base: the notes' addresses move alike */
	site->addr = v[0] + (base && v[1] ? base - v[1] : 0);
	site->sem = v[2] ? v[2] + (base && v[1] ? base - v[1] : 0) : 0;
	return 0;
}

static int read_notes(Elf *elf, struct bp_sdt_site **out, int *n, char *why, size_t len)
{
	size_t shstrndx, cap = 0;
	uint64_t base;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx)) {
		snprintf(why, len, "no section names: %s", elf_errmsg(-1));
		return -ENOEXEC;
	}
	base = section_addr(elf, shstrndx, ".stapsdt.base");
	while ((scn = elf_nextscn(elf, scn))) {
		const char *sname;
		Elf_Data *data;
		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		sname = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!sname || strcmp(sname, ".note.stapsdt"))
			continue;
		data = elf_getdata(scn, NULL);
		while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			struct bp_sdt_site *s;
			int err;

			if (nh.n_type != NT_STAPSDT || nh.n_namesz != 8 ||
			    memcmp((char *)data->d_buf + name_off, "stapsdt", 8))
				continue;
			if (bp_grow((void **)out, *n, &cap, sizeof(**out), 16))
				return -ENOMEM;
			s = &(*out)[*n];
			memset(s, 0, sizeof(*s));
			err = parse_desc(elf, (char *)data->d_buf + desc_off, nh.n_descsz, base, s);
			if (err) {
				free(s->provider);
				free(s->name);
				free(s->args);
				if (err == -ENOMEM)
					return err;
				snprintf(why, len, "a malformed SDT note (%u bytes) in .note.stapsdt",
					 nh.n_descsz);
				return -EINVAL;
			}
			(*n)++;
			if (file_offset(elf, s->addr, &s->offset) ||
			    (s->sem && file_offset(elf, s->sem, &s->sem_offset))) {
				snprintf(why, len, "marker %s:%s at 0x%llx (semaphore 0x%llx) is in no loadable segment",
					 s->provider, s->name, (unsigned long long)s->addr,
					 (unsigned long long)s->sem);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int bp_sdt_sites__read(const char *path, struct bp_sdt_site **sites, char *why, size_t len)
{
	struct bp_sdt_site *v = NULL;
	int fd, n = 0, err;
	struct stat st;
	Elf *elf;

	*sites = NULL;
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err = -errno;
		snprintf(why, len, "cannot open %s: %s", path, strerror(-err));
		return err;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(why, len, "%s is not a regular file", path);
		close(fd);
		return -ENOEXEC;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(why, len, "%s is not an ELF file", path);
		err = -ENOEXEC;
	} else {
		err = read_notes(elf, &v, &n, why, len);
	}
	elf_end(elf);
	close(fd);
	if (err) {
		bp_sdt_sites__free(v, n);
		return err;
	}
	*sites = v;
	return n;
}
