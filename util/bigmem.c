// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "util/bigmem.h"
#include "util/grow.h"

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

static void *resize(void *old, size_t old_size, size_t new_size)
{
	void *p = new_size <= SIZE_MAX / 2 ? bp_bigmem__alloc(new_size) : NULL;

	if (p && old) {
		memcpy(p, old, old_size);
		bp_bigmem__free(old, old_size);
	}
	return p;
}

int bp_bigmem__grow(void **v, size_t n, size_t *cap, size_t elem, size_t first)
{
	return bp_grow__with(v, n, cap, elem, first, resize);
}

/* bp_bigmem__heap's blocks, kept for good (volatile: the compiler
 * would drop a malloc whose block nothing reads) */
static void *volatile heap_kept[2];

void bp_bigmem__heap(size_t size)
{
	uintptr_t lo, hi, at;
	void *p, *end;

	if (size > INT32_MAX - 2 * HUGE_SIZE)
		return;
	/* the heap grows by size and a huge page more the next time it
	 * grows, never shrinks, and serves requests of up to size itself */
	if (!mallopt(M_TOP_PAD, (int)(size + 2 * HUGE_SIZE)) ||
	    !mallopt(M_TRIM_THRESHOLD, INT32_MAX) || !mallopt(M_MMAP_THRESHOLD, (int)size))
		return;
	/* the heap grows now */
	p = heap_kept[0] = malloc(64u << 10);
	end = sbrk(0);
	if (!p || end == (void *)-1 || (uintptr_t)end <= (uintptr_t)p)
		return;
	at = (uintptr_t)p + (64u << 10);
	lo = (at + HUGE_SIZE - 1) & ~((uintptr_t)HUGE_SIZE - 1);
	hi = (uintptr_t)end & ~((uintptr_t)HUGE_SIZE - 1);
	if (hi <= lo)
		return;
	madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	/*
	 * What is allocated next comes from the heap's top, just past p:
	 * below lo, in 4 KiB pages. A block up to lo, kept (its pages are
	 * never touched), moves the top there. p is kept too: freed, it
	 * would serve small requests from below lo.
	 */
	if (lo - at > (64u << 10))
		heap_kept[1] = malloc(lo - at - 256);
}
