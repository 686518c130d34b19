/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/**
 * @file bpf.h
 * @brief What BPF programs loaded by bpfprobe commonly need: the stack
 * type bpfprobe symbolizes, string copies, and histograms bpfprobe prints
 * with bars.
 *
 * Include it after <linux/bpf.h> and <bpf/bpf_helpers.h>:
 *
 *	#include <linux/bpf.h>
 *	#include <bpf/bpf_helpers.h>
 *	#include <bpfprobe/bpf.h>
 *
 * `bpfprobe load prog.c` finds it by itself; a build of your own passes
 * -I with the directory bpfprobe installed its headers in.
 */
#ifndef BPFPROBE_BPF_H
#define BPFPROBE_BPF_H

#include <linux/types.h>

/**
 * A stack id, as the `$ustack` (the user stack) and `$kstack` (the
 * kernel's) arguments give it. A record member, map key or map value of
 * this type is printed as the symbolized stack, a frame per line (a JSON
 * array of frames with --json). 0 is no stack: the fetch failed, and the
 * error flag of the argument says so.
 *
 * A user stack id is unique to one hit: a map keyed by it does not count
 * equal stacks (bpfprobe merges entries whose stacks print the same when
 * it dumps the map, summing integer values); `bpfprobe trace --folded`
 * counts stacks with no program of yours.
 */
typedef __u64 bpfprobe_stack_t;

/* ---- strings ---- */

/**
 * Copies the NUL-terminated string at user address @p src into the char
 * array @p dst (its whole size at most, always terminated). The length
 * copied, NUL included, or a negative errno (then dst is "").
 */
#define bpfprobe_str_user(dst, src) \
	bpfprobe__str_done((dst), bpf_probe_read_user_str((dst), sizeof(dst), (src)))
/** The same for a kernel address. */
#define bpfprobe_str_kernel(dst, src) \
	bpfprobe__str_done((dst), bpf_probe_read_kernel_str((dst), sizeof(dst), (src)))

static __always_inline long bpfprobe__str_done(char *dst, long n)
{
	if (n < 0)
		dst[0] = '\0';
	return n;
}

/**
 * Whether the char array @p s starts with the string literal @p lit,
 * its NUL included (an equal string, not a prefix).
 */
#define bpfprobe_streq(s, lit) bpfprobe__streq((s), sizeof(s), (lit), sizeof(lit))

static __always_inline int bpfprobe__streq(const char *s, __u32 size, const char *lit,
					   __u32 lit_size)
{
	if (lit_size > size)
		return 0;
#pragma unroll
	for (__u32 i = 0; i < lit_size && i < 256; i++)
		if (s[i] != lit[i])
			return 0;
	return 1;
}

/* ---- histograms ---- */

/**
 * A power-of-two histogram: slot 0 counts negative values, slot 1 zeros,
 * slot k + 2 the values in [2^k, 2^(k+1)). bpfprobe prints a map whose
 * value is this struct as bars, a histogram per key.
 */
#define BPFPROBE_HIST_SLOTS 65
struct bpfprobe_hist {
	__u64 slot[BPFPROBE_HIST_SLOTS];
};

/**
 * A linear histogram of buckets [min + i * step, min + (i + 1) * step)
 * for i below (max - min) / step, at most BPFPROBE_LHIST_BUCKETS: slot 0
 * counts values below min, slot i + 1 bucket i, the slot after the last
 * bucket the values from max up. min, max and step are the ones the last
 * bpfprobe_lhist_add() gave.
 */
#define BPFPROBE_LHIST_BUCKETS 256
struct bpfprobe_lhist {
	__s64 min;
	__s64 max;
	__s64 step;
	__u64 slot[BPFPROBE_LHIST_BUCKETS + 2];
};

/**
 * Declares a hash map @p name of up to @p entries histograms keyed by
 * @p key_type; VALUE is struct bpfprobe_hist or struct bpfprobe_lhist:
 *
 *	BPFPROBE_HIST_MAP(sizes, __u32, struct bpfprobe_hist, 1024);
 */
#define BPFPROBE_HIST_MAP(name, key_type, value_type, entries)	\
	struct {						\
		__uint(type, BPF_MAP_TYPE_HASH);		\
		__uint(max_entries, entries);			\
		__type(key, key_type);				\
		__type(value, value_type);			\
	} name SEC(".maps")

/* Hides what the compiler knows of v: the bound check after it stays
 * for the verifier, which knows less (it loses a quotient's range). */
#define bpfprobe__opaque(v) asm volatile("" : "+r"(v))

/* What a new key's histogram starts from (the stack is too small for one). */
static const struct bpfprobe_hist bpfprobe__hist_zero;
static const struct bpfprobe_lhist bpfprobe__lhist_zero;

/** The slot of struct bpfprobe_hist that counts @p v. */
static __always_inline __u32 bpfprobe_hist_slot(__s64 v)
{
	__u64 x = v;
	__u32 r = 0;

	if (v < 0)
		return 0;
	if (!v)
		return 1;
	if (x >> 32) { x >>= 32; r += 32; }
	if (x >> 16) { x >>= 16; r += 16; }
	if (x >> 8) { x >>= 8; r += 8; }
	if (x >> 4) { x >>= 4; r += 4; }
	if (x >> 2) { x >>= 2; r += 2; }
	if (x >> 1) r += 1;
	return r + 2;
}

static __always_inline void *bpfprobe__hist_entry(void *map, const void *key, const void *zero)
{
	void *h = bpf_map_lookup_elem(map, key);

	if (h)
		return h;
	bpf_map_update_elem(map, key, zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, key);
}

/**
 * Counts @p value in the power-of-two histogram of @p key (a pointer) in
 * @p map (a map of struct bpfprobe_hist). 0, or -1 when the map is full.
 */
static __always_inline int bpfprobe_hist_add(void *map, const void *key, __s64 value)
{
	struct bpfprobe_hist *h = bpfprobe__hist_entry(map, key, &bpfprobe__hist_zero);
	__u32 s = bpfprobe_hist_slot(value);

	if (!h)
		return -1;
	bpfprobe__opaque(s);
	if (s < BPFPROBE_HIST_SLOTS)
		__sync_fetch_and_add(&h->slot[s], 1);
	return 0;
}

/**
 * Counts @p value in the linear histogram of @p key in @p map (a map of
 * struct bpfprobe_lhist), buckets of @p step from @p min to @p max (at
 * most BPFPROBE_LHIST_BUCKETS of them: max is lowered to fit). 0, or -1
 * when the map is full or step is not positive.
 */
static __always_inline int bpfprobe_lhist_add(void *map, const void *key, __s64 value,
					      __s64 min, __s64 max, __s64 step)
{
	struct bpfprobe_lhist *h;
	__u64 s;

	if (step <= 0)
		return -1;
	if (max < min)
		max = min;
	if ((__u64)(max - min) / (__u64)step > BPFPROBE_LHIST_BUCKETS)
		max = min + step * BPFPROBE_LHIST_BUCKETS;
	h = bpfprobe__hist_entry(map, key, &bpfprobe__lhist_zero);
	if (!h)
		return -1;
	h->min = min;
	h->max = max;
	h->step = step;
	if (value < min)
		s = 0;
	else if (value >= max)
		s = (__u64)(max - min) / (__u64)step + 1;
	else
		s = (__u64)(value - min) / (__u64)step + 1;
	bpfprobe__opaque(s);
	if (s < BPFPROBE_LHIST_BUCKETS + 2)
		__sync_fetch_and_add(&h->slot[s], 1);
	return 0;
}

#endif /* BPFPROBE_BPF_H */
