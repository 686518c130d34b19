// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * /proc/kallsyms, loaded once and sorted by name, so that every lookup of a
 * resolver run is a binary search; and the kernel's kprobe-related lists.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/diag.h"
#include "probes/kernel/kallsyms.h"
#include "util/grow.h"

/* the kernel's KSYM_NAME_LEN is 512 since 6.1 */
#define KSYM_NAME_MAX	512

struct bp_kallsyms {
	char *text;		/* the file, as read */
	size_t len;
	/* the last lookup's symbols (bp_kallsyms__find); names and modules
	 * point into names */
	struct bp_ksym *hits;
	int nhits;
	size_t cap;
	char *names;
};

static int read_all(const char *path, char **out, size_t *outlen)
{
	size_t len = 0, cap = 1 << 20;
	char *buf = malloc(cap), *n;
	ssize_t got;
	int fd;

	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	for (;;) {
		if (cap - len < 65536) {
			n = realloc(buf, cap * 2);
			if (!n) {
				close(fd);
				free(buf);
				return -ENOMEM;
			}
			buf = n;
			cap *= 2;
		}
		got = read(fd, buf + len, cap - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += got;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	return 0;
}

int bp_kallsyms__load(const char *path, struct bp_kallsyms **out, struct bp_diag *d)
{
	struct bp_kallsyms *ks;
	int err;

	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	err = read_all(path, &ks->text, &ks->len);
	if (err) {
		bp_diag__set(d, "cannot read %s: %s", path, strerror(-err));
		free(ks);
		return err;
	}
	*out = ks;
	return 0;
}

void bp_kallsyms__free(struct bp_kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->hits);
	free(ks->names);
	free(ks->text);
	free(ks);
}

static bool is_text_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/*
 * One line, "ffffffff810decb0 t do_sched_setscheduler\t[mod]", unparsed:
 * where its name and module start and end. Returns false for non-text
 * symbols. The file is scanned, not indexed: a resolver run looks up a few
 * names, and sorting every symbol costs more than scanning for them.
 */
struct line {
	const char *addr, *name, *mod;
	size_t name_len, mod_len;
};

static bool split_line(const char *p, const char *eol, struct line *l)
{
	const char *sp = memchr(p, ' ', eol - p);

	if (!sp || eol - sp < 4 || sp[2] != ' ' || !is_text_type(sp[1]))
		return false;
	l->addr = p;
	l->name = sp + 3;
	l->name_len = strcspn(l->name, "\t \n");
	if (l->name + l->name_len > eol)
		l->name_len = eol - l->name;
	l->mod = NULL;
	l->mod_len = 0;
	p = l->name + l->name_len;
	while (p < eol && (*p == '\t' || *p == ' '))
		p++;
	if (p < eol && *p == '[') {
		l->mod = p + 1;
		l->mod_len = strcspn(l->mod, "]\n");
	}
	return true;
}

/* Quick test before splitting: does the line's name start with name? */
static bool name_at(const char *p, const char *eol, const char *name, size_t len)
{
	const char *sp = memchr(p, ' ', eol - p);

	return sp && (size_t)(eol - sp) >= len + 3 && sp[3] == name[0] &&
	       !memcmp(sp + 3, name, len);
}

static int ksym_cmp(const void *pa, const void *pb)
{
	const struct bp_ksym *a = pa, *b = pb;
	int c;

	/* vmlinux (no module) first, then by module and address */
	if (!a->module || !b->module)
		c = (a->module != NULL) - (b->module != NULL);
	else
		c = strcmp(a->module, b->module);
	if (c)
		return c;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int add_hit(struct bp_kallsyms *ks, const struct line *l, size_t *names_len,
		   size_t *names_cap)
{
	size_t need = l->name_len + l->mod_len + 2;
	struct bp_ksym *h;

	if (bp_grow((void **)&ks->hits, ks->nhits, &ks->cap, sizeof(*ks->hits), 8))
		return -ENOMEM;
	if (*names_len + need > *names_cap) {
		size_t cap = (*names_cap + need) * 2;
		char *n = realloc(ks->names, cap);

		if (!n)
			return -ENOMEM;
		ks->names = n;
		*names_cap = cap;
	}
	h = &ks->hits[ks->nhits++];
	h->addr = strtoull(l->addr, NULL, 16);
	/* offsets for now: names may still move */
	h->name = (const char *)(uintptr_t)*names_len;
	memcpy(ks->names + *names_len, l->name, l->name_len);
	*names_len += l->name_len;
	ks->names[(*names_len)++] = '\0';
	h->module = NULL;
	if (l->mod) {
		h->module = (const char *)(uintptr_t)*names_len;
		memcpy(ks->names + *names_len, l->mod, l->mod_len);
		*names_len += l->mod_len;
		ks->names[(*names_len)++] = '\0';
	}
	return 0;
}

/* The hits' name offsets made pointers (names stays put now), sorted. */
static int finish_hits(struct bp_kallsyms *ks, const struct bp_ksym **syms)
{
	for (int i = 0; i < ks->nhits; i++) {
		struct bp_ksym *h = &ks->hits[i];

		h->name = ks->names + (uintptr_t)h->name;
		if (h->module)
			h->module = ks->names + (uintptr_t)h->module;
	}
	if (ks->nhits)	/* qsort(NULL, 0) is undefined */
		qsort(ks->hits, ks->nhits, sizeof(*ks->hits), ksym_cmp);
	*syms = ks->nhits ? ks->hits : NULL;
	return ks->nhits;
}

int bp_kallsyms__find(struct bp_kallsyms *ks, const char *name,
		      const char *module, const struct bp_ksym **syms)
{
	bool vmlinux = module && !strcmp(module, "vmlinux");
	size_t len = strlen(name), names_len = 0, names_cap = 0;
	const char *p = ks->text, *end = ks->text + ks->len, *eol;
	struct line l;

	ks->nhits = 0;
	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		if (!name_at(p, eol, name, len) || !split_line(p, eol, &l) ||
		    l.name_len != len)
			continue;
		if (module && (vmlinux ? l.mod != NULL :
			       !l.mod || l.mod_len != strlen(module) ||
			       memcmp(l.mod, module, l.mod_len)))
			continue;
		if (add_hit(ks, &l, &names_len, &names_cap)) {
			ks->nhits = 0;
			break;
		}
	}
	return finish_hits(ks, syms);
}

int bp_kallsyms__at(struct bp_kallsyms *ks, uint64_t addr, const struct bp_ksym **syms)
{
	const char *p = ks->text, *end = ks->text + ks->len, *eol;
	size_t names_len = 0, names_cap = 0;
	struct line l;

	ks->nhits = 0;
	for (; p < end && addr; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		if (strtoull(p, NULL, 16) != addr || !split_line(p, eol, &l))
			continue;
		if (add_hit(ks, &l, &names_len, &names_cap)) {
			ks->nhits = 0;
			break;
		}
	}
	return finish_hits(ks, syms);
}

int bp_kallsyms__clones(const struct bp_kallsyms *ks, const char *name,
			void (*cb)(const char *clone, void *ctx), void *ctx)
{
	const char *p = ks->text, *end = ks->text + ks->len, *eol;
	char clone[KSYM_NAME_MAX + 1];
	size_t len = strlen(name);
	struct line l;
	int n = 0;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		if (!name_at(p, eol, name, len) || !split_line(p, eol, &l) ||
		    l.name_len <= len + 1 || l.name_len > KSYM_NAME_MAX ||
		    l.name[len] != '.')
			continue;
		if (cb) {
			memcpy(clone, l.name, l.name_len);
			clone[l.name_len] = '\0';
			cb(clone, ctx);
		}
		n++;
	}
	return n;
}

/* Line of a kernel list: its function name and module, cut in place. */
static void list_entry(char *line, char **name, char **mod)
{
	char *p = line;

	/* blacklist: "0xffffffff81000000-0xffffffff81000010\tname [mod]" */
	if (p[0] == '0' && p[1] == 'x') {
		p += strcspn(p, "\t ");
		p += strspn(p, "\t ");
	}
	*name = p;
	p += strcspn(p, "\t \n");
	*mod = NULL;
	if (*p && *p != '\n') {
		*p++ = '\0';
		p += strspn(p, "\t ");
		if (*p == '[') {
			*mod = p + 1;
			(*mod)[strcspn(*mod, "]")] = '\0';
		}
	} else {
		*p = '\0';
	}
}

int bp_klist__has(const char *path, const char *name, const char *module)
{
	FILE *f = fopen(path, "re");
	char line[512], *n, *m;
	int found = 0;

	if (!f)
		return -ENOENT;
	while (!found && fgets(line, sizeof(line), f)) {
		list_entry(line, &n, &m);
		if (strcmp(n, name))
			continue;
		if (!module || (m && !strcmp(m, module)) ||
		    (!m && !strcmp(module, "vmlinux")))
			found = 1;
	}
	fclose(f);
	return found;
}

char *bp_module__normalize(const char *module)
{
	char *m = strdup(module), *p;

	if (!m)
		return NULL;
	for (p = m; *p; p++)
		if (*p == '-')
			*p = '_';
	return m;
}
