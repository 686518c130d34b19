/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* UTF-8, for output that must stay valid text: JSON, a terminal. */
#ifndef BPFPROBE_UTF8_H
#define BPFPROBE_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence of 2 to 4 bytes at s (at most n
 * bytes), 0 if there is none (an ASCII byte included). */
size_t bp_utf8__seq_len(const unsigned char *s, size_t n);

#endif /* BPFPROBE_UTF8_H */
