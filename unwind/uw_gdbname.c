// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The name gdb prints for a minimal symbol (an ELF symbol, no DWARF).
 *
 * gdb guesses a minimal symbol's language from its name, and the last
 * language it tries, Ada, claims every name its decoder changes without
 * giving up (gdb's ada-lang.c, ada_decode and sniff_from_mangled_name):
 * then the decoded name is what `bt` shows. For C symbols that means:
 * "foo.part.0" shows as "foo.part", "foo.lto_priv.0" as "foo.lto_priv",
 * "foo.cold" as "foo[cold]", "a__b" as "a.b"; a name that starts with '_',
 * or whose decoded form holds an uppercase letter, is left alone. This is
 * gdb 13's decoder, without its operator names and hexadecimal character
 * escapes (both need uppercase letters, with which C names come out
 * unchanged anyway).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/uw_msyms.h"

static bool is_lower_alphanum(char c)
{
	return isdigit((unsigned char)c) || islower((unsigned char)c);
}

/* A trailing ".alpha+" (".cold"): cut, and where it starts (past the
 * '.'), or -1. */
static int remove_compiler_suffix(const char *s, int *len)
{
	int off = *len - 1;

	while (off > 0 && isalpha((unsigned char)s[off]))
		off--;
	if (off > 0 && s[off] == '.') {
		*len = off;
		return off + 1;
	}
	return -1;
}

/* A trailing ".digits", "$digits", "___digits" or "__digits". */
static void remove_trailing_digits(const char *s, int *len)
{
	int i;

	if (*len <= 1 || !isdigit((unsigned char)s[*len - 1]))
		return;
	for (i = *len - 2; i > 0 && isdigit((unsigned char)s[i]); i--)
		;
	if (i >= 0 && (s[i] == '.' || s[i] == '$'))
		*len = i;
	else if (i >= 2 && !strncmp(s + i - 2, "___", 3))
		*len = i - 2;
	else if (i >= 1 && !strncmp(s + i - 1, "__", 2))
		*len = i - 1;
}

/* gdb's ada_decode: the decoded name (malloc'd), or NULL when the
 * decoder gives up (or out of memory). */
static char *ada_decode(const char *enc)
{
	int len0, i, k, suffix, n = 0;
	const char *p;
	char *out;

	if (enc[0] == '.')
		enc++;
	if (!strncmp(enc, "_ada_", 5))
		enc += 5;
	if (!strncmp(enc, "___ghost_", 9))
		enc += 9;
	if (enc[0] == '_' || enc[0] == '<')
		return NULL;
	len0 = strlen(enc);
	suffix = remove_compiler_suffix(enc, &len0);
	remove_trailing_digits(enc, &len0);
	/* a protected subprogram's trailing N */
	if (len0 > 1 && enc[len0 - 1] == 'N' &&
	    (isdigit((unsigned char)enc[len0 - 2]) || islower((unsigned char)enc[len0 - 2])))
		len0--;
	p = strstr(enc, "___");
	if (p && p - enc < len0 - 3) {
		if (p[3] != 'X')
			return NULL;
		len0 = p - enc;
	}
	if (len0 > 3 && !strncmp(enc + len0 - 3, "TKB", 3))
		len0 -= 3;
	if (len0 > 2 && !strncmp(enc + len0 - 2, "TB", 2))
		len0 -= 2;
	if (len0 > 1 && enc[len0 - 1] == 'B')
		len0 -= 1;
	if (len0 > 1 && isdigit((unsigned char)enc[len0 - 1])) {
		for (i = len0 - 2; (i >= 0 && isdigit((unsigned char)enc[i])) ||
				   (i >= 1 && enc[i] == '_' && isdigit((unsigned char)enc[i - 1]));)
			i--;
		if (i > 1 && enc[i] == '_' && enc[i - 1] == '_')
			len0 = i - 1;
		else if (i >= 0 && enc[i] == '$')
			len0 = i;
	}
	out = malloc(2 * strlen(enc) + 4);
	if (!out)
		return NULL;
	for (i = 0; i < len0 && !isalpha((unsigned char)enc[i]); i++)
		out[n++] = enc[i];
	while (i < len0) {
		if (i < len0 - 4 && !strncmp(enc + i, "TK__", 4))
			i += 2;
		if (len0 - i > 5 && enc[i] == '_' && enc[i + 1] == '_' && enc[i + 2] == 'B' &&
		    enc[i + 3] == '_' && isdigit((unsigned char)enc[i + 4])) {
			for (k = i + 5; k < len0 && isdigit((unsigned char)enc[k]); k++)
				;
			if (len0 - k > 2 && enc[k] == '_' && enc[k + 1] == '_')
				i = k;
		}
		if (len0 - i > 3 && enc[i] == '_' && enc[i + 1] == 'E' &&
		    isdigit((unsigned char)enc[i + 2])) {
			for (k = i + 3; k < len0 && isdigit((unsigned char)enc[k]); k++)
				;
			if (k < len0 && (enc[k] == 'b' || enc[k] == 's')) {
				k++;
				if (k == len0 || enc[k] == '_')
					i = k;
			}
		}
		if (i < len0 + 3 && enc[i] == 'N' && enc[i + 1] == '_' && enc[i + 2] == '_') {
			const char *ptr = enc + i - 1;

			while (ptr >= enc && is_lower_alphanum(ptr[0]))
				ptr--;
			if (ptr < enc || (ptr > enc && ptr[0] == '_' && ptr[-1] == '_'))
				i++;
		}
		if (enc[i] == 'X' && i != 0 && isalnum((unsigned char)enc[i - 1])) {
			do
				i++;
			while (i < len0 && (enc[i] == 'b' || enc[i] == 'n'));
			if (i < len0) {
				free(out);
				return NULL;
			}
		} else if (i < len0 - 2 && enc[i] == '_' && enc[i + 1] == '_') {
			out[n++] = '.';
			i += 2;
		} else {
			out[n++] = enc[i++];
		}
	}
	out[n] = 0;
	for (i = 0; i < n; i++) {
		if (isupper((unsigned char)out[i]) || out[i] == ' ') {
			free(out);
			return NULL;
		}
	}
	if (suffix >= 0) {
		out[n++] = '[';
		strcpy(out + n, enc + suffix);
		strcat(out, "]");
	}
	return out;
}

char *uw_gdb_msym_name(const char *name)
{
	char *d = ada_decode(name);

	/* only a name the decoder changes is Ada's to gdb */
	if (d && (!strcmp(d, name) || d[0] == '<')) {
		free(d);
		return NULL;
	}
	return d;
}
