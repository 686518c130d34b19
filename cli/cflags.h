/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The compile step's own flags, from --cflags 'WORDS', -I DIR and -D NAME[=V]. */
#ifndef BPFPROBE_CLI_CFLAGS_H
#define BPFPROBE_CLI_CFLAGS_H

#include "cli/options.h"

/* The three options, for a command's table; --cflags takes key KEY. */
#define BP_CFLAGS_OPTIONS(KEY)							\
	{ "cflags", (KEY), required_argument, "FLAGS",				\
	  "PROG.c: more clang flags, split at blanks" },			\
	{ "include", 'I', required_argument, "DIR", "PROG.c: clang's -I DIR" },	\
	{ "define", 'D', required_argument, "NAME[=VAL]", "PROG.c: clang's -D NAME[=VAL]" }

struct bp_cflags {
	char **v;	/* NULL-terminated, for bp_compile_c() */
	int n;
};

/* --cflags 'WORDS': split at blanks (no quoting). 0 or -ENOMEM. */
int bp_cflags__add_words(struct bp_cflags *c, const char *words);
/* -I DIR, -D NAME[=VALUE]: flag is "-I" or "-D". 0 or -ENOMEM. */
int bp_cflags__add(struct bp_cflags *c, const char *flag, const char *arg);
/* Takes option key (--cflags' is key_cflags) when it is one of the three:
 * 0, or -ENOMEM; 1 when it is another option. */
int bp_cflags__option(struct bp_cflags *c, int key, int key_cflags, const char *arg);
/* The list for bp_compile_c(), NULL when empty. */
const char *const *bp_cflags__list(const struct bp_cflags *c);
void bp_cflags__free(struct bp_cflags *c);

#endif /* BPFPROBE_CLI_CFLAGS_H */
