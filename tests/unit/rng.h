/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A reproducible random number generator for the unit tests: xorshift64*,
 * the same sequence on every run for a seed. */
#ifndef BPFPROBE_TEST_RNG_H
#define BPFPROBE_TEST_RNG_H

#include <stdint.h>

struct rng {
	uint64_t state;		/* the seed, never 0 */
};

static inline uint64_t rng_next(struct rng *r)
{
	r->state ^= r->state >> 12;
	r->state ^= r->state << 25;
	r->state ^= r->state >> 27;
	return r->state * 0x2545f4914f6cdd1dULL;
}

static inline unsigned int rng_below(struct rng *r, unsigned int n)
{
	return rng_next(r) % n;
}

#endif /* BPFPROBE_TEST_RNG_H */
