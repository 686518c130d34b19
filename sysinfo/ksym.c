// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* /proc/kallsyms, loaded on first use and sorted by address. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sysinfo/ksym.h"
#include "util/grow.h"

struct ksym {
	uint64_t addr;
	char *name;
};

static struct ksym *syms;
static size_t nsyms;
static int loaded;

static int cmp_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void load(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	size_t cap = 0;
	char line[512];

	loaded = 1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr)
			continue;
		if (bp_grow((void **)&syms, nsyms, &cap, sizeof(*syms), 4096))
			break;
		syms[nsyms].addr = addr;
		syms[nsyms].name = strdup(name);
		if (syms[nsyms].name)
			nsyms++;
	}
	fclose(f);
	bp_sort(syms, nsyms, sizeof(*syms), cmp_addr);
}

char *bp_ksym__name(uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi;

	if (!loaded)
		load();
	hi = nsyms;
	if (!nsyms || addr < syms[0].addr)
		return NULL;
	/* last symbol with syms[i].addr <= addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*off = addr - syms[lo].addr;
	return strdup(syms[lo].name);
}
