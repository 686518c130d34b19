/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * UTF-8, for output that must stay valid text: JSON, a terminal. Text that
 * came from outside (a process's name, DWARF names, SEC text, strings read
 * from a traced process) may hold bytes a terminal acts on: ESC starts
 * sequences that retitle a window, move the cursor or redefine keys. Text
 * output shows them escaped, through bp_utf8__escape() alone.
 */
#ifndef BPFPROBE_UTF8_H
#define BPFPROBE_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence of 2 to 4 bytes at s (at most n
 * bytes), 0 if there is none (an ASCII byte included). */
size_t bp_utf8__seq_len(const unsigned char *s, size_t n);

/*
 * Length of the incomplete UTF-8 sequence s ends with (1 to 3 bytes that
 * start a valid sequence its next bytes may complete), 0 if none: what a
 * stream cut into pieces keeps back for the next one.
 */
size_t bp_utf8__partial_tail(const unsigned char *s, size_t n);

/* bp_utf8__escape() flags */
enum bp_utf8_escape_flags {
	/*
	 * Inside "...": '"' and '\\' as \" and \\, newline and tab as \n
	 * and \t. Without it, newline and tab pass (the lines and columns
	 * of text) and so do '"' and '\\'.
	 */
	BP_ESC_QUOTED = 1 << 0,
};

/* The most bytes bp_utf8__escape() writes for one byte it reads. */
#define BP_ESC_MAX 4

/*
 * Copies s[0..len) to dst (room for BP_ESC_MAX * len bytes; no NUL added)
 * with what a terminal would act on escaped: ESC as \e, other control
 * characters (C0 and DEL) as \xNN, C1 controls (U+0080..U+009F) as
 * \u00NN, bytes that are not UTF-8 as \xNN. Printable ASCII and valid
 * UTF-8 pass. Returns the bytes written.
 */
size_t bp_utf8__escape(char *dst, const char *s, size_t len, unsigned int flags);

/* The length of the longest prefix of s[0..len) bp_utf8__escape() leaves
 * as it is. */
size_t bp_utf8__plain_len(const char *s, size_t len, unsigned int flags);

/* bp_utf8__escape() to a stdio stream. */
void bp_utf8__fput(FILE *f, const char *s, size_t len, unsigned int flags);

/* A NUL-terminated string, flags 0 (a name in text). */
void bp_utf8__fputs(FILE *f, const char *s);

#endif /* BPFPROBE_UTF8_H */
