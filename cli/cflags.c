// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cflags.h"

static int push(struct bp_cflags *c, char *word)
{
	char **v;

	if (!word)
		return -ENOMEM;
	v = realloc(c->v, (c->n + 2) * sizeof(*v));
	if (!v) {
		free(word);
		return -ENOMEM;
	}
	c->v = v;
	c->v[c->n++] = word;
	c->v[c->n] = NULL;
	return 0;
}

int bp_cflags__add_words(struct bp_cflags *c, const char *words)
{
	const char *p = words;

	while (*p) {
		size_t len;

		p += strspn(p, " \t\n");
		len = strcspn(p, " \t\n");
		if (len && push(c, strndup(p, len)))
			return -ENOMEM;
		p += len;
	}
	return 0;
}

int bp_cflags__add(struct bp_cflags *c, const char *flag, const char *arg)
{
	size_t len = strlen(flag) + strlen(arg) + 1;
	char *word = malloc(len);

	if (word) {
		strcpy(word, flag);
		strcat(word, arg);
	}
	return push(c, word);
}

int bp_cflags__option(struct bp_cflags *c, int key, int key_cflags, const char *arg)
{
	if (key == key_cflags)
		return bp_cflags__add_words(c, arg);
	if (key == 'I' || key == 'D')
		return bp_cflags__add(c, key == 'I' ? "-I" : "-D", arg);
	return 1;
}

const char *const *bp_cflags__list(const struct bp_cflags *c)
{
	return c->n ? (const char *const *)c->v : NULL;
}

void bp_cflags__free(struct bp_cflags *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->v[i]);
	free(c->v);
	c->v = NULL;
	c->n = 0;
}
