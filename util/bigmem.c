// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "util/bigmem.h"

#define HUGE_SIZE	(2u << 20)
/* below this, ordinary pages: a huge page is zeroed whole */
#define HUGE_FROM	(256u << 10)

/* What is mapped for size bytes (what bp_bigmem__free unmaps). */
static size_t mapped_size(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (!size)
		size = 1;
	if (size >= HUGE_FROM && size <= SIZE_MAX - HUGE_SIZE)
		return (size + HUGE_SIZE - 1) & ~((size_t)HUGE_SIZE - 1);
	return (size + page - 1) & ~(page - 1);
}

void *bp_bigmem__alloc(size_t size)
{
	size_t len = mapped_size(size), lead, tail;
	uint8_t *m, *p;

	if (len < HUGE_SIZE) {
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return m == MAP_FAILED ? NULL : m;
	}
	/* a huge page must start on a 2 MiB boundary: map more, keep the
	 * aligned part */
	if (len > SIZE_MAX - HUGE_SIZE)
		return NULL;
	m = mmap(NULL, len + HUGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	p = (uint8_t *)(((uintptr_t)m + HUGE_SIZE - 1) & ~((uintptr_t)HUGE_SIZE - 1));
	lead = p - m;
	tail = HUGE_SIZE - lead;
	if (lead)
		munmap(m, lead);
	if (tail)
		munmap(p + len, tail);
	/* a kernel without transparent huge pages says no: 4 KiB pages then */
	madvise(p, len, MADV_HUGEPAGE);
	return p;
}

void bp_bigmem__free(void *p, size_t size)
{
	if (p)
		munmap(p, mapped_size(size));
}

int bp_bigmem__grow(void **v, size_t n, size_t *cap, size_t elem, size_t first)
{
	size_t want;
	void *tmp;

	if (n < *cap)
		return 0;
	want = *cap ? *cap * 2 : first;
	if (!elem || want > SIZE_MAX / elem / 2)
		return -ENOMEM;
	tmp = bp_bigmem__alloc(want * elem);
	if (!tmp)
		return -ENOMEM;
	if (*v) {
		memcpy(tmp, *v, n * elem);
		bp_bigmem__free(*v, *cap * elem);
	}
	*v = tmp;
	*cap = want;
	return 0;
}
