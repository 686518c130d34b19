/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Finding the file an exec= names: a path, a program in PATH, or a shared
 * library by bare name like the dynamic loader (LD_LIBRARY_PATH,
 * /etc/ld.so.cache, the system directories).
 */
#ifndef BPFPROBE_LIBPATH_H
#define BPFPROBE_LIBPATH_H

#include <stdbool.h>
#include <stddef.h>

#define BP_LD_SO_CACHE	"/etc/ld.so.cache"

struct bp_proc_root;

/* Replaces the environment and system defaults (tests). */
struct bp_libpath_opts {
	size_t sz;
	bool use_opts;			/* false: defaults, as with NULL opts */
	const char *ld_library_path;	/* "dir:dir", or NULL */
	const char *cache;		/* an ld.so.cache file, or NULL */
	const char *const *dirs;	/* NULL-terminated, or NULL */
	/* look in this process's root (util/proc_root.h), with its own
	 * LD_LIBRARY_PATH; NULL: ours */
	const struct bp_proc_root *root;
};

/*
 * The absolute real path of the library called name (no '/'), found as
 * ld.so would; NULL when there is none. opts may be NULL. In opts->root,
 * the path is the one the process sees.
 */
char *bp_libpath__find(const char *name, const struct bp_libpath_opts *opts);

/* True for NAME.so and NAME.so.N[.N...]: looked up as a library first. */
bool bp_libpath__is_lib_name(const char *name);

/* Finds an executable like execvp would (PATH search when no '/'), a
 * library like the dynamic loader. Returns a malloc'ed absolute path or
 * NULL. */
char *bp_find_binary(const char *name);

/*
 * bp_find_binary() as process root->pid sees it: a path in its root (a
 * relative one from its current directory), a bare name in its PATH and
 * like its dynamic loader (its LD_LIBRARY_PATH, its root's ld.so.cache and
 * library directories). On 0, *inside is the file's canonical path as the
 * process sees it and *host a path of ours to the same file (both
 * malloc'ed). Returns -ENOENT when there is none, -EXDEV when no path of
 * ours reaches it, -ENOMEM.
 */
int bp_find_binary_in(const struct bp_proc_root *root, const char *name, char **inside,
		      char **host);

#endif /* BPFPROBE_LIBPATH_H */
