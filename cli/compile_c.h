/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* `bpfprobe load prog.c`: compile a BPF C file, cached by content. */
#ifndef BPFPROBE_COMPILE_C_H
#define BPFPROBE_COMPILE_C_H

#include <stdbool.h>
#include <stddef.h>

/* path names a C source file (ends in ".c"). */
bool bp_is_c_source(const char *path);

/*
 * Compiles the C file src with clang for BPF, unless an object built from
 * the same preprocessed text with the same flags and the same compiler is
 * in the cache, and writes the object's path to out (len bytes).
 *
 * The default flags are "-O2 -g -target bpf -D__TARGET_ARCH_<arch>", the
 * distribution's multiarch include directory (asm/ headers) after the
 * system ones (-idirafter) and src's directory for #include "..." only
 * (-iquote: <...> never comes from there).
 *
 * extra is NULL or a NULL-terminated list of further clang arguments, one
 * word each, e.g. { "-DDEBUG=1", "-I", "inc", "-O1", NULL }. They come
 * after the defaults: "-O1" or "-g0" override them, -I directories are
 * searched before the system's, -D/-U work as on a command line. They are
 * part of the cache key. Words that would change what clang outputs or
 * where ("-o", "-c", "-E", "-S", "-M", "-MM", "-fsyntax-only", "-" for
 * stdin) are refused.
 *
 * no_cache (--no-cache): the cache is neither read nor written; the
 * object goes to a private temporary directory. A cache that cannot be
 * written (a full or read-only file system, no permission) sends it there
 * too, said under -v (compile_cache.h).
 *
 * Returns 0, or a negative errno after printing why (a compile error: after
 * clang printed its messages).
 */
int bp_compile_c(const char *src, const char *const *extra, bool no_cache, char *out,
		 size_t len);

#endif /* BPFPROBE_COMPILE_C_H */
