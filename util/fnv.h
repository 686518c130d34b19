/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * FNV-1a, 64 bits: a hash of bytes for names of cache files (not for
 * anything an attacker's collision could harm: whoever uses it compares
 * the whole key it hashed).
 */
#ifndef BPFPROBE_FNV_H
#define BPFPROBE_FNV_H

#include <stddef.h>
#include <stdint.h>

#define BP_FNV1A_INIT	0xcbf29ce484222325ull

/* h (BP_FNV1A_INIT to start) carried on over n bytes at p. */
static inline uint64_t bp_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ull;
	return h;
}

#endif /* BPFPROBE_FNV_H */
