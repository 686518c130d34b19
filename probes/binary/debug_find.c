// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The debug-file hunt, opening only regular files without blocking
 * (debug_find.h).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <elfutils/libdwelf.h>

#include "probes/binary/debug_find.h"
#include "probes/binary/inflate_budget.h"
#include "util/log.h"
#include "util/regular_file.h"

#define DEFAULT_PATH	":.debug:/usr/lib/debug"
#define MIN_ID		3	/* elfutils' bounds on a build ID's length */
#define MAX_ID		64

/* What one search wants: the file it found is told by this. */
struct want {
	bool alt;		/* a DWZ file, else the separate debug file */
	const uint8_t *id;	/* the build ID it must have; NULL: none known */
	int id_len;
	bool crc_known;		/* else: the debug link's CRC */
	uint32_t crc;
};

bool bp_debug_find__altlink(struct bp_debug_find *f, Elf *elf)
{
	size_t shstrndx, len;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".gnu_debugaltlink"))
			continue;
		/* a file name, its NUL, then the build ID */
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf)
			return false;
		len = strnlen(data->d_buf, data->d_size);
		if (len == data->d_size || data->d_size - len - 1 < MIN_ID ||
		    data->d_size - len - 1 > MAX_ID)
			return false;
		free(f->alt_name);
		f->alt_name = strndup(data->d_buf, len);
		f->alt_id_len = (int)(data->d_size - len - 1);
		memcpy(f->alt_id, (const char *)data->d_buf + len + 1, f->alt_id_len);
		return f->alt_name != NULL;
	}
	return false;
}

void bp_debug_find__free(struct bp_debug_find *f)
{
	if (!f)
		return;
	free(f->alt_name);
	free(f->search);
	free(f);
}

/* --- one candidate -------------------------------------------------------- */

static bool crc_matches(int fd, uint32_t want)
{
	unsigned char buf[65536];
	uLong crc = crc32(0, Z_NULL, 0);
	off_t off = 0;
	ssize_t n;

	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		crc = crc32(crc, buf, (uInt)n);
		off += n;
	}
	return n == 0 && (uint32_t)crc == want;
}

/* Whether the file open as elf (and fd) is the one w wants. */
static bool is_wanted(const struct want *w, Elf *elf, int fd)
{
	const void *id;
	ssize_t len;

	if (w->id) {
		len = dwelf_elf_gnu_build_id(elf, &id);
		return len == w->id_len && !memcmp(id, w->id, len);
	}
	return !w->crc_known || crc_matches(fd, w->crc);
}

/*
 * path, when it is what w wants: its descriptor, else -1. Anything but a
 * regular file is skipped (said at -v); a file found that inflates past
 * its budget ends the search: f->err.
 */
static int try_file(struct bp_debug_find *f, const struct want *w, const char *path)
{
	const char *what = w->alt ? "DWZ alternate file" : "debug file";
	struct stat st;
	Elf *elf;
	int fd;

	if (f->err)
		return -1;
	fd = bp_regular_file__open(path, &st);
	if (fd == -EINVAL) {
		bp_info("%s: skipping %s as its %s: it is %s, not a regular file\n", f->path,
			path, what, bp_file_type__name(st.st_mode));
		return -1;
	}
	if (fd < 0)
		return -1;
	/* the binary by another name is not its own debug file */
	if (st.st_dev == f->main_st.st_dev && st.st_ino == f->main_st.st_ino) {
		close(fd);
		return -1;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !is_wanted(w, elf, fd)) {
		bp_debug("%s: %s is not its %s (%s)\n", f->path, path, what,
			 elf && elf_kind(elf) == ELF_K_ELF ? "another build ID or CRC" : "not ELF");
		elf_end(elf);
		close(fd);
		return -1;
	}
	if (bp_inflate_budget__check(elf, path, st.st_size, f->why, sizeof(f->why))) {
		f->err = -EFBIG;
		elf_end(elf);
		close(fd);
		return -1;
	}
	/* the DWZ file the debug file names, which is looked for next */
	if (!w->alt)
		bp_debug_find__altlink(f, elf);
	elf_end(elf);
	return fd;
}

/* [DIR/][SUB/]NAME tried; on success *found is its name (malloc'ed). */
static int try_at(struct bp_debug_find *f, const struct want *w, const char *dir,
		  const char *sub, const char *name, char **found)
{
	char path[PATH_MAX];
	int fd, n;

	if (dir && sub)
		n = snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	else if (dir || sub)
		n = snprintf(path, sizeof(path), "%s/%s", dir ? dir : sub, name);
	else
		n = snprintf(path, sizeof(path), "%s", name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -1;
	fd = try_file(f, w, path);
	if (fd >= 0 && !(*found = strdup(path))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* --- the searches --------------------------------------------------------- */

static const char *search_path(const struct bp_debug_find *f)
{
	const char *p = getenv("BPFPROBE_DEBUGINFO_PATH");

	return f->search ? f->search : p ? p : DEFAULT_PATH;
}

/* DIR/.build-id/xx/rest.debug for each absolute DIR of the path. */
static int by_build_id(struct bp_debug_find *f, const struct want *w, char **found)
{
	char *path = strdup(search_path(f)), *rest = path, *dir;
	char name[sizeof(".build-id/xx/") + 2 * MAX_ID + sizeof(".debug")];
	int fd = -1, n;

	if (!path || !w->id || w->id_len < MIN_ID || w->id_len > MAX_ID) {
		free(path);
		return -1;
	}
	n = snprintf(name, sizeof(name), ".build-id/%02x/", w->id[0]);
	for (int i = 1; i < w->id_len; i++)
		n += snprintf(name + n, sizeof(name) - n, "%02x", w->id[i]);
	snprintf(name + n, sizeof(name) - n, ".debug");
	while (fd < 0 && (dir = strsep(&rest, ":"))) {
		if (*dir == '+' || *dir == '-')
			dir++;
		if (*dir == '/')
			fd = try_at(f, w, dir, NULL, name, found);
	}
	free(path);
	return fd;
}

/*
 * NAME in the path's directories for the binary file (elfutils'
 * find_debuginfo_in_path): "" its directory, "rel" DIR/rel, "/abs" the
 * binary's directory under /abs (and its tails: /abs/usr/bin, /abs/bin),
 * or for a DWZ file /abs itself; a DWZ file also in each .dwz/.
 */
static int in_path(struct bp_debug_find *f, struct want w, const char *file, const char *name,
		   bool made_up, char **found)
{
	char *path = strdup(search_path(f)), *rest = path, *el, *dir = NULL;
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	const char *sub, *dwz_name = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	bool cancheck = w.crc_known, defcheck = true;
	int fd = -1;

	if (!path)
		return -1;
	if (base != file)
		dir = strndup(file, base - 1 - file);
	if (base != file && !dir) {
		free(path);
		return -1;
	}
	/* a leading + or - in the whole path, then in each element, says
	 * whether CRCs are checked there */
	if (*rest == '+' || *rest == '-')
		defcheck = *rest++ == '+';
	while (fd < 0 && !f->err && (el = strsep(&rest, ":"))) {
		bool check = defcheck;

		if (*el == '+' || *el == '-')
			check = *el++ == '+';
		w.crc_known = cancheck && check;
		if (!*el) {
			fd = try_at(f, &w, dir, NULL, name, found);
			if (fd < 0 && w.alt)
				fd = try_at(f, &w, dir, ".dwz", dwz_name, found);
		} else if (*el == '/' && w.alt) {
			fd = try_at(f, &w, el, NULL, dwz_name, found);
			if (fd < 0)
				fd = try_at(f, &w, el, ".dwz", dwz_name, found);
		} else if (*el == '/') {
			/* /usr/lib/debug + usr/bin, then + bin */
			for (sub = dir && *dir == '/' ? dir : NULL; fd < 0 && sub && *sub;
			     sub = strchr(sub, '/')) {
				sub++;
				if (!*sub)
					break;
				fd = try_at(f, &w, el, sub, name, found);
				if (fd < 0 && made_up)
					fd = try_at(f, &w, el, sub, base, found);
			}
		} else {
			fd = try_at(f, &w, dir, el, name, found);
			if (fd < 0 && made_up)
				fd = try_at(f, &w, dir, el, base, found);
		}
	}
	free(dir);
	free(path);
	return fd;
}

/* The DWZ file's name as written (libdw's fallback): absolute, or
 * relative to the directory of the file with the DWARF. */
static int as_named(struct bp_debug_find *f, const struct want *w, const char *file,
		    const char *name, char **found)
{
	const char *slash = strrchr(file, '/');
	char dir[PATH_MAX];

	if (*name == '/' || !slash)
		return try_at(f, w, NULL, NULL, name, found);
	if ((size_t)(slash - file) >= sizeof(dir))
		return -1;
	memcpy(dir, file, slash - file);
	dir[slash - file] = '\0';
	return try_at(f, w, dir, NULL, name, found);
}

/* debuginfod's client, loaded as libdwfl loads it, when DEBUGINFOD_URLS
 * names a server: its descriptor for the build ID, or -1. */
static int from_debuginfod(struct bp_debug_find *f, const struct want *w, char **found)
{
	static void *(*begin)(void);
	static int (*find)(void *client, const unsigned char *id, int len, char **path);
	static void (*end)(void *client);
	static bool tried;
	const char *urls = getenv("DEBUGINFOD_URLS");
	char *path = NULL;
	void *client, *so;
	int fd;

	if (!urls || !*urls || !w->id)
		return -1;
	if (!tried) {
		tried = true;
		so = dlopen("libdebuginfod.so.1", RTLD_LAZY);
		begin = so ? (void *(*)(void))dlsym(so, "debuginfod_begin") : NULL;
		find = so ? (int (*)(void *, const unsigned char *, int, char **))
			    dlsym(so, "debuginfod_find_debuginfo") : NULL;
		end = so ? (void (*)(void *))dlsym(so, "debuginfod_end") : NULL;
	}
	if (!begin || !find || !end || !(client = begin()))
		return -1;
	fd = find(client, w->id, w->id_len, &path);
	end(client);
	if (fd >= 0)
		close(fd);
	/* what it fetched is in its cache: opened as any other candidate */
	fd = fd >= 0 && path ? try_at(f, w, NULL, NULL, path, found) : -1;
	free(path);
	return fd;
}

static int search(struct bp_debug_find *f, const struct want *w, const char *file,
		  const char *name, bool made_up, char **found)
{
	char *canon;
	int fd;

	fd = by_build_id(f, w, found);
	if (fd < 0 && name && file)
		fd = in_path(f, *w, file, name, made_up, found);
	/* a symbolic link's target may have its debug file beside it */
	if (fd < 0 && name && file && !f->err && (canon = realpath(file, NULL))) {
		if (strcmp(canon, file))
			fd = in_path(f, *w, canon, name, made_up, found);
		free(canon);
	}
	if (fd < 0 && w->alt && name && file)
		fd = as_named(f, w, file, name, found);
	if (fd < 0 && !f->err)
		fd = from_debuginfod(f, w, found);
	return fd;
}

int bp_debug_find__callback(Dwfl_Module *mod, void **userdata, const char *modname,
			    Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			    GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct bp_debug_find *f = *userdata;
	struct want w = {};
	char made_up[PATH_MAX], *found = NULL;
	const unsigned char *id;
	GElf_Addr vaddr;
	int fd, n;

	if (!f)
		return -1;
	w.alt = debuglink_file && debuglink_file != f->main_debuglink && f->alt_name &&
		!strcmp(debuglink_file, f->alt_name);
	if (w.alt) {
		f->alt_searched = true;
		w.id = f->alt_id;
		w.id_len = f->alt_id_len;
	} else {
		n = dwfl_module_build_id(mod, &id, &vaddr);
		if (n > 0) {
			w.id = id;
			w.id_len = n;
		}
		/* no build ID: the debug link's CRC, when it has one */
		w.crc_known = !w.id && debuglink_file && debuglink_crc;
		w.crc = debuglink_crc;
	}
	/* no debug link: BINARY.debug (and, in subdirectories, BINARY) */
	if (!w.alt && !debuglink_file && file_name) {
		const char *b = strrchr(file_name, '/') ? strrchr(file_name, '/') + 1 : file_name;

		if (snprintf(made_up, sizeof(made_up), "%s.debug", b) < (int)sizeof(made_up))
			debuglink_file = made_up;
	}
	fd = search(f, &w, file_name, debuglink_file, debuglink_file == made_up, &found);
	/* never a name without a descriptor: libdwfl would open() it itself */
	free(*debuginfo_file_name);
	*debuginfo_file_name = fd >= 0 ? found : NULL;
	if (fd < 0)
		free(found);
	if (fd >= 0 && w.alt)
		f->alt_found = true;
	else if (fd >= 0)
		f->debug_found = true;
	errno = 0;
	return fd;
}
