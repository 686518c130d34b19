// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* GNU build IDs: from note bytes, and this build's own from its PT_NOTE segments. */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/build_id.h"

static uint8_t self_id[BP_BUILD_ID_MAX];
static size_t self_len;
static pthread_once_t self_once = PTHREAD_ONCE_INIT;

size_t bp_build_id__from_notes(const void *notes, size_t size, uint8_t *id, size_t max)
{
	const unsigned char *p = notes;
	size_t off = 0;

	while (size - off >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *n = (const void *)(p + off);
		size_t name = (n->n_namesz + 3) & ~(size_t)3, desc = (n->n_descsz + 3) & ~(size_t)3;
		size_t at = off + sizeof(*n);

		if (name > size - at || desc > size - at - name)
			return 0;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
		    !memcmp(p + at, "GNU", 4) && n->n_descsz && n->n_descsz <= max) {
			memcpy(id, p + at + name, n->n_descsz);
			return n->n_descsz;
		}
		off = at + name + desc;
	}
	return 0;
}

/* notes larger than this are no build ID's */
#define NOTES_MAX	(64 * 1024)
#define PHDRS_MAX	256

size_t bp_build_id__of_fd(int fd, uint8_t *id, size_t max)
{
	Elf64_Phdr ph[PHDRS_MAX];
	Elf64_Ehdr eh;
	size_t len = 0;
	void *notes;

	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(ph[0]) ||
	    !eh.e_phnum || eh.e_phnum > PHDRS_MAX)
		return 0;
	if (pread(fd, ph, eh.e_phnum * sizeof(ph[0]), eh.e_phoff) !=
	    (ssize_t)(eh.e_phnum * sizeof(ph[0])))
		return 0;
	for (int i = 0; i < eh.e_phnum && !len; i++) {
		if (ph[i].p_type != PT_NOTE || !ph[i].p_filesz || ph[i].p_filesz > NOTES_MAX)
			continue;
		notes = malloc(ph[i].p_filesz);
		if (!notes)
			return 0;
		if (pread(fd, notes, ph[i].p_filesz, ph[i].p_offset) == (ssize_t)ph[i].p_filesz)
			len = bp_build_id__from_notes(notes, ph[i].p_filesz, id, max);
		free(notes);
	}
	return len;
}

/* dl_iterate_phdr's callback: the object whose segments hold this code. */
static int visit(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t here = (uintptr_t)data;
	bool mine = false;

	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && here >= start && here - start < ph->p_memsz)
			mine = true;
	}
	if (!mine)
		return 0;
	for (int i = 0; i < info->dlpi_phnum && !self_len; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_NOTE)
			self_len = bp_build_id__from_notes((const void *)(info->dlpi_addr + ph->p_vaddr),
							   ph->p_memsz, self_id, sizeof(self_id));
	}
	return 1;
}

static void find_self(void)
{
	dl_iterate_phdr(visit, (void *)(uintptr_t)&find_self);
}

size_t bp_self__build_id(const uint8_t **id)
{
	pthread_once(&self_once, find_self);
	*id = self_id;
	return self_len;
}

static bool read_at(int fd, void *p, size_t size, uint64_t off)
{
	return off <= INT64_MAX && pread(fd, p, size, (off_t)off) == (ssize_t)size;
}

/* The GNU build ID in the note segment of size bytes at off in fd, into
 * id (max bytes): its length, 0 when it has none there. */
static int notes_build_id(int fd, uint64_t off, uint64_t size, uint8_t *id, size_t max)
{
	uint32_t small[256];	/* notes are 4-byte aligned; theirs fit here */
	void *notes = small;
	int got = 0;

	/* a build ID note is small, and near the start of its segment */
	if (size > 64u << 10)
		size = 64u << 10;
	if (size > sizeof(small))
		notes = malloc(size);
	if (notes && read_at(fd, notes, size, off))
		got = bp_build_id__from_notes(notes, size, id, max);
	if (notes != small)
		free(notes);
	return got;
}

int bp_build_id__of_file(int fd, uint8_t *id, size_t max)
{
	Elf64_Phdr ph[16];	/* a binary has about a dozen */
	Elf64_Ehdr eh;
	int got = 0;

	if (!read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(ph[0]))
		return -1;
	for (int at = 0; at < eh.e_phnum && !got; at += 16) {
		int n = eh.e_phnum - at < 16 ? eh.e_phnum - at : 16;

		if (!read_at(fd, ph, n * sizeof(ph[0]), eh.e_phoff + at * sizeof(ph[0])))
			return -1;
		for (int i = 0; i < n && !got; i++)
			if (ph[i].p_type == PT_NOTE)
				got = notes_build_id(fd, ph[i].p_offset, ph[i].p_filesz, id, max);
	}
	return got;
}
