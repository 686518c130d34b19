// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Finding the running kernel's debug files (vmlinux and module .ko with
 * DWARF) in the places distributions install them, and telling whether a
 * file belongs to the running kernel by its GNU build-id.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <gelf.h>

#include "probes/kernel/kernel.h"
#include "util/build_id.h"
#include "util/log.h"

#define BUILD_ID_MAX	BP_BUILD_ID_MAX

/* The running kernel's (module NULL) or a loaded module's build-id, from
 * the raw notes sysfs shows. Returns its length, 0 when unknown. */
static size_t running_build_id(const char *module, unsigned char *id)
{
	unsigned char buf[4096] __attribute__((aligned(8)));
	char path[300];
	ssize_t n;
	int fd;

	if (module)
		snprintf(path, sizeof(path), "/sys/module/%s/notes/.note.gnu.build-id", module);
	else
		snprintf(path, sizeof(path), "/sys/kernel/notes");
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? bp_build_id__from_notes(buf, n, id, BUILD_ID_MAX) : 0;
}

/* The build-id of the ELF file at path. Returns its length, 0 if none. */
static size_t file_build_id(const char *path, unsigned char *id)
{
	Elf_Scn *scn = NULL;
	size_t len = 0;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (elf && !len && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf)
			len = bp_build_id__from_notes(d->d_buf, d->d_size, id, BUILD_ID_MAX);
	}
	elf_end(elf);
	close(fd);
	return len;
}

int bp_kdwarf__build_id_matches(const char *path, const char *module)
{
	unsigned char want[BUILD_ID_MAX], got[BUILD_ID_MAX];
	size_t wlen = running_build_id(module, want), glen;

	if (!wlen)
		return -ENOENT;
	glen = file_build_id(path, got);
	if (!glen)
		return -ENOENT;
	return wlen == glen && !memcmp(want, got, wlen);
}

/* /usr/lib/debug/.build-id/ab/cdef....debug for the running build-id */
static bool build_id_path(const char *module, char *path, size_t len)
{
	unsigned char id[BUILD_ID_MAX];
	size_t n = running_build_id(module, id), pos;

	if (!n)
		return false;
	pos = snprintf(path, len, "/usr/lib/debug/.build-id/%02x/", id[0]);
	for (size_t i = 1; i < n && pos < len; i++)
		pos += snprintf(path + pos, len - pos, "%02x", id[i]);
	if (pos < len)
		snprintf(path + pos, len - pos, ".debug");
	return true;
}

/* "kernel/fs/9p/9p.ko" for module 9p, from modules.dep ('-' and '_' are
 * the same in module names). */
static bool module_relpath(const char *release, const char *module, char *out, size_t len)
{
	char path[300], line[4096];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", release);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *base, *dot, *name;

		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		dot = strstr(base, ".ko");
		if (!dot)
			continue;
		name = bp_module__normalize(base);
		if (!name)
			break;
		name[dot - base] = '\0';
		if (!strcmp(name, module) && (size_t)(dot - line) + 4 <= len) {
			/* the debug copy is not compressed */
			memcpy(out, line, dot - line);
			memcpy(out + (dot - line), ".ko", 4);
			found = true;
		}
		free(name);
	}
	fclose(f);
	return found;
}

static bool has_dwarf_section(const char *path)
{
	Elf_Scn *scn = NULL;
	bool found = false;
	size_t shstrndx;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && !elf_getshdrstrndx(elf, &shstrndx)) {
		while (!found && (scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *n;

			if (!gelf_getshdr(scn, &sh))
				continue;
			n = elf_strptr(elf, shstrndx, sh.sh_name);
			found = n && (!strcmp(n, ".debug_info") || !strcmp(n, ".zdebug_info"));
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}

/* A candidate is used when it exists, has DWARF, and (checked) is ours. */
static bool usable(const char *path, const char *module, bool check_build_id)
{
	int match;

	if (access(path, R_OK) || !has_dwarf_section(path))
		return false;
	if (!check_build_id)
		return true;
	match = bp_kdwarf__build_id_matches(path, module);
	if (match == 0) {
		bp_info("%s: its build-id is not the running kernel's%s%s: not used\n",
			path, module ? " module " : "", module ? module : "");
		return false;
	}
	/* unknown (no notes in sysfs, no build-id in the file): trust it */
	return true;
}

char *bp_kdwarf__find(const char *module, bool check_build_id)
{
	char path[512], rel[300];
	struct utsname u;

	if (uname(&u))
		return NULL;
	if (build_id_path(module, path, sizeof(path)) && usable(path, module, check_build_id))
		return strdup(path);
	if (module) {
		if (!module_relpath(u.release, module, rel, sizeof(rel)))
			return NULL;
		snprintf(path, sizeof(path), "/usr/lib/debug/lib/modules/%s/%s", u.release, rel);
		if (usable(path, module, check_build_id))
			return strdup(path);
		snprintf(path, sizeof(path), "/lib/modules/%s/%s", u.release, rel);
		return usable(path, module, check_build_id) ? strdup(path) : NULL;
	}
	static const char *const places[] = {
		"/usr/lib/debug/boot/vmlinux-%s",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/boot/vmlinux-%s",
		"/lib/modules/%s/vmlinux",
		"/lib/modules/%s/build/vmlinux",
	};
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		snprintf(path, sizeof(path), places[i], u.release);
		if (usable(path, NULL, check_build_id))
			return strdup(path);
	}
	return NULL;
}
