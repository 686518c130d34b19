/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* `bpfprobe load prog.c`: compile a BPF C file, cached by content. */
#ifndef BPFPROBE_COMPILE_C_H
#define BPFPROBE_COMPILE_C_H

#include <stdbool.h>
#include <stddef.h>

bool bp_is_c_source(const char *path);

/*
 * Compiles src with clang for BPF (unless an object built from the same
 * preprocessed text with the same flags is cached) and writes the object's
 * path to out. Returns 0, or non-zero after clang printed its errors.
 */
int bp_compile_c(const char *src, char *out, size_t len);

#endif /* BPFPROBE_COMPILE_C_H */
