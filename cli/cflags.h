/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The compile step's own flags, from --cflags 'WORDS', -I DIR and -D NAME[=V]. */
#ifndef BPFPROBE_CLI_CFLAGS_H
#define BPFPROBE_CLI_CFLAGS_H

struct bp_cflags {
	char **v;	/* NULL-terminated, for bp_compile_c() */
	int n;
};

/* --cflags 'WORDS': split at blanks (no quoting). 0 or -ENOMEM. */
int bp_cflags__add_words(struct bp_cflags *c, const char *words);
/* -I DIR, -D NAME[=VALUE]: flag is "-I" or "-D". 0 or -ENOMEM. */
int bp_cflags__add(struct bp_cflags *c, const char *flag, const char *arg);
/* The list for bp_compile_c(), NULL when empty. */
const char *const *bp_cflags__list(const struct bp_cflags *c);
void bp_cflags__free(struct bp_cflags *c);

#endif /* BPFPROBE_CLI_CFLAGS_H */
