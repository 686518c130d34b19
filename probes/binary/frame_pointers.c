// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A binary's DT_NEEDED closure, asked whether it keeps frame pointers
 * (frame_pointers.h). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/binary/frame_pointers.h"
#include "probes/binary/libpath.h"
#include "util/cfi_fp.h"

struct closure {
	char *names[BP_FP_MAX_MODULES];	/* DT_NEEDED names, or the first path */
	char *paths[BP_FP_MAX_MODULES];
	int n;
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The function symbol at addr, from .symtab or .dynsym; NULL if none. */
static const char *func_at(Elf *elf, uint64_t addr)
{
	const char *found = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *data;

	while ((scn = elf_nextscn(elf, scn)) && !found) {
		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize && !found; i++) {
			if (gelf_getsym(data, (int)i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
			    sym.st_value == addr && sym.st_shndx != SHN_UNDEF)
				found = elf_strptr(elf, sh.sh_link, sym.st_name);
		}
	}
	return found && *found ? found : NULL;
}

static bool known(const struct closure *c, const char *name, const char *path)
{
	for (int i = 0; i < c->n; i++)
		if ((name && c->names[i] && !strcmp(c->names[i], name)) ||
		    (path && c->paths[i] && !strcmp(c->paths[i], path)))
			return true;
	return false;
}

static int add(struct closure *c, const char *name, char *path)
{
	if (c->n == BP_FP_MAX_MODULES) {
		free(path);
		return -E2BIG;
	}
	c->names[c->n] = strdup(name);
	c->paths[c->n] = path;
	if (!c->names[c->n]) {
		free(path);
		return -ENOMEM;
	}
	c->n++;
	return 0;
}

/* Adds the libraries elf needs; 0, or 1 with why set when one cannot be
 * found, or -ENOMEM. */
static int add_needed(struct closure *c, Elf *elf, const char *who,
		      const struct bp_libpath_opts *opts, char *why, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Dyn dyn;
	Elf_Data *data;
	const char *name;
	char *path;
	int err;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag != DT_NEEDED ||
			    !(name = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val)))
				continue;
			if (known(c, name, NULL))
				continue;
			path = strchr(name, '/') ? realpath(name, NULL) : bp_libpath__find(name, opts);
			if (!path) {
				snprintf(why, len, "%s, which %s needs, is not found", name, who);
				return 1;
			}
			if (known(c, NULL, path)) {
				free(path);
				continue;
			}
			err = add(c, name, path);
			if (err == -E2BIG) {
				snprintf(why, len, "more than %d libraries to check", BP_FP_MAX_MODULES);
				return 1;
			}
			if (err)
				return err;
		}
	}
	return 0;
}

/* One module: 1 when it keeps frame pointers, 0 when not (why set),
 * -ENOMEM. Its libraries join the closure. */
static int check_module(struct closure *c, int k, const struct bp_libpath_opts *opts, char *why,
			size_t len)
{
	const char *name = base_name(c->paths[k]), *func;
	struct bp_fp_verdict v;
	Elf *elf;
	int fd, err;

	fd = open(c->paths[k], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "cannot open %s: %s", c->paths[k], strerror(errno));
		return 0;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		snprintf(why, len, "cannot read %s: %s", c->paths[k], elf_errmsg(-1));
		close(fd);
		return 0;
	}
	err = bp_cfi_fp__module(elf, &v);
	if (err == -ENOMEM) {
		/* (the error alone) */
	} else if (err) {
		snprintf(why, len, "%s: %s", name,
			 err == -ENODATA ? "no CFI (.eh_frame) tells whether it keeps frame pointers" :
			 "its CFI cannot be read");
		err = 0;
	} else if (!v.keeps) {
		func = func_at(elf, v.bad_addr);
		snprintf(why, len, "%s keeps no frame pointers: %s%s0x%llx does not", name,
			 func ? func : "", func ? " at " : "the function at ",
			 (unsigned long long)v.bad_addr);
		err = 0;
	} else {
		err = add_needed(c, elf, name, opts, why, len);
		err = err < 0 ? err : !err;
	}
	elf_end(elf);
	close(fd);
	return err;
}

int bp_frame_pointers__closure(const char *path, const struct bp_libpath_opts *opts,
			       int *nmods, char *why, size_t len)
{
	struct closure c = {};
	char *first = realpath(path, NULL);
	int k, rc, err = 0;

	*nmods = 0;
	if (why && len)
		why[0] = '\0';
	elf_version(EV_CURRENT);
	if (!first) {
		snprintf(why, len, "cannot find %s: %s", path, strerror(errno));
		return errno == ENOMEM ? -ENOMEM : 0;
	}
	err = add(&c, path, first);
	for (k = 0; !err && k < c.n; k++) {
		rc = check_module(&c, k, opts, why, len);
		if (rc < 0)
			err = rc;
		else if (!rc)
			break;
	}
	if (!err && k == c.n)
		*nmods = c.n;
	for (int i = 0; i < c.n; i++) {
		free(c.names[i]);
		free(c.paths[i]);
	}
	if (err < 0)
		return err;
	return *nmods ? 1 : 0;
}
