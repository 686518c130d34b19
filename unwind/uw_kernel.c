// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Kernel stacks symbolized through /proc/kallsyms (bp_unwinder__kernel):
 * the text symbols, by address, one per address (a global one before a
 * local or weak one, a function before its __pfx_/__cfi_ padding), each
 * ending where the next begins; the core kernel's text ends at _etext and
 * a module's where /proc/modules says, so that an address past the last
 * symbol is not given to it. Read once, when first needed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/uw_core.h"
#include "unwind/uw_frames.h"
#include "util/grow.h"

/* An address this far past a symbol of no known extent is not its. */
#define MAX_SYM_REACH	(1ULL << 20)

struct uw_ksym {
	__u64 addr;
	size_t name;		/* offsets in names */
	size_t module;		/* 0: the kernel */
	int rank;		/* lower is preferred at one address */
};

struct uw_kmod {
	__u64 lo, hi;
	size_t name;
};

struct uw_kernel {
	int err;		/* why there are no symbols */
	struct uw_ksym *syms;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
	struct uw_kmod *mods;
	size_t nmods, mods_cap;
	__u64 etext;
};

void uw_kernel__free(struct uw_kernel *k)
{
	if (!k)
		return;
	free(k->syms);
	free(k->names);
	free(k->mods);
	free(k);
}

/* Keeps s in k->names; its offset (never 0: offset 0 is ""), or 0 when
 * out of memory. The last module name is reused. */
static size_t add_name(struct uw_kernel *k, const char *s, size_t len)
{
	size_t off;

	while (k->names_len + len + 1 > k->names_cap) {
		size_t cap = k->names_cap ? k->names_cap * 2 : 1 << 20;
		char *p = realloc(k->names, cap);

		if (!p)
			return 0;
		k->names = p;
		if (!k->names_cap)
			k->names[k->names_len++] = 0;
		k->names_cap = cap;
	}
	off = k->names_len;
	memcpy(k->names + off, s, len);
	k->names[off + len] = 0;
	k->names_len += len + 1;
	return off;
}

static int rank_of(char type, const char *name)
{
	int rank = type == 'T' ? 0 : type == 't' ? 1 : 2;

	if (!strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6))
		rank += 4;
	return rank;
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct uw_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->rank - y->rank;
}

static int parse_kallsyms(struct uw_kernel *k, FILE *f)
{
	size_t cap = 0, last_mod = 0, last_mod_len = 0;
	bool any = false;
	char *line = NULL;
	ssize_t len;

	while ((len = getline(&line, &cap, f)) > 0) {
		unsigned long long addr;
		char type, *name, *mod, *end;
		struct uw_ksym *s;
		int n = 0;

		if (sscanf(line, "%llx %c %n", &addr, &type, &n) < 2 || !n)
			continue;
		any = true;
		if (!addr)
			continue;
		name = line + n;
		name[strcspn(name, "\n")] = 0;
		mod = strchr(name, '\t');
		if (mod)
			*mod++ = 0;
		if (!strcmp(name, "_etext"))
			k->etext = addr;
		/* ends of text, not functions */
		if ((type != 't' && type != 'T' && type != 'w' && type != 'W') ||
		    !strcmp(name, "_etext") || !strcmp(name, "_einittext"))
			continue;
		if (bp_grow((void **)&k->syms, k->n, &k->cap, sizeof(*k->syms), 4096))
			goto nomem;
		s = &k->syms[k->n];
		s->addr = addr;
		s->rank = rank_of(type, name);
		s->name = add_name(k, name, strlen(name));
		s->module = 0;
		if (mod && *mod == '[' && (end = strchr(mod, ']'))) {
			size_t mlen = end - mod - 1;

			/* a module's symbols come together: reuse its name */
			if (last_mod && mlen == last_mod_len && !memcmp(k->names + last_mod, mod + 1, mlen)) {
				s->module = last_mod;
			} else {
				s->module = last_mod = add_name(k, mod + 1, mlen);
				last_mod_len = mlen;
			}
		}
		if (!s->name || (mod && *mod == '[' && !s->module))
			goto nomem;
		k->n++;
	}
	free(line);
	if (!any)
		return -ENOENT;
	/* every address 0: kptr_restrict hides them from us */
	return k->n ? 0 : -EPERM;
nomem:
	free(line);
	return -ENOMEM;
}

static void parse_modules(struct uw_kernel *k, FILE *f)
{
	size_t cap = 0;
	char *line = NULL;

	while (getline(&line, &cap, f) > 0) {
		char name[256];
		unsigned long long size, addr;

		if (sscanf(line, "%255s %llu %*s %*s %*s %llx", name, &size, &addr) != 3 || !addr ||
		    bp_grow((void **)&k->mods, k->nmods, &k->mods_cap, sizeof(*k->mods), 64))
			continue;
		k->mods[k->nmods].lo = addr;
		k->mods[k->nmods].hi = addr + size;
		k->mods[k->nmods].name = add_name(k, name, strlen(name));
		if (k->mods[k->nmods].name)
			k->nmods++;
	}
	free(line);
}

static struct uw_kernel *load(const char *kallsyms, const char *modules)
{
	struct uw_kernel *k = calloc(1, sizeof(*k));
	size_t i, j;
	FILE *f;

	if (!k)
		return NULL;
	f = fopen(kallsyms, "re");
	if (!f) {
		k->err = -errno;
		return k;
	}
	k->err = parse_kallsyms(k, f);
	fclose(f);
	if (k->err)
		return k;
	bp_sort(k->syms, k->n, sizeof(*k->syms), cmp_ksym);
	/* one symbol per address: the best ranked, first after sorting */
	for (i = 0, j = 0; i < k->n; i++)
		if (!j || k->syms[i].addr != k->syms[j - 1].addr)
			k->syms[j++] = k->syms[i];
	k->n = j;
	f = fopen(modules, "re");
	if (f) {
		parse_modules(k, f);
		fclose(f);
	}
	return k;
}

static const struct uw_kmod *module_named(const struct uw_kernel *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->nmods; i++)
		if (!strcmp(k->names + k->mods[i].name, name))
			return &k->mods[i];
	return NULL;
}

/* The symbol holding addr, or NULL. */
static const struct uw_ksym *find(const struct uw_kernel *k, __u64 addr)
{
	size_t lo = 0, hi = k->n;
	const struct uw_ksym *s;
	const struct uw_kmod *m;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &k->syms[lo - 1];
	if (!s->module) {
		/* the kernel's text, up to _etext */
		if (k->etext && s->addr < k->etext)
			return addr < k->etext ? s : NULL;
	} else {
		m = module_named(k, k->names + s->module);
		if (m)
			return addr >= m->lo && addr < m->hi ? s : NULL;
	}
	return addr - s->addr < MAX_SYM_REACH ? s : NULL;
}

int bp_unwinder__kernel(struct bp_unwinder *u, const __u64 *ips, int n, struct bp_frames *out)
{
	struct uw_kernel *k;
	int i, err = 0;

	if (!out)
		return -EINVAL;
	uw_frames__init(out, true);
	if (!u || (n && !ips) || n < 0)
		return -EINVAL;
	if (!u->kernel) {
		u->kernel = load(u->kallsyms_path ? u->kallsyms_path : "/proc/kallsyms",
				 u->modules_path ? u->modules_path : "/proc/modules");
		if (!u->kernel)
			return -ENOMEM;
	}
	k = u->kernel;
	for (i = 0; i < n && ips[i] && !err; i++) {
		struct bp_frame fr = { .addr = ips[i] };
		/* after the first, return addresses: looked up in their call */
		const struct uw_ksym *s = k->err ? NULL : find(k, i ? ips[i] - 1 : ips[i]);

		if (s) {
			fr.func = k->names + s->name;
			fr.module = s->module ? k->names + s->module : NULL;
			fr.func_off = ips[i] - s->addr;
			fr.has_off = true;
		}
		err = uw_frames__push(out, &fr);
	}
	out->n_unwound = out->n;
	if (!err && k->err)
		err = uw_frames__stop(out, BP_UNWIND_ERROR, "no kernel symbols: %s",
				      k->err == -EPERM ? "kallsyms hides the addresses (kptr_restrict)" :
				      strerror(-k->err));
	if (err) {
		bp_frames__free(out);
		uw_frames__init(out, true);
	}
	return err;
}
