/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * User-space probe points as bytes and back: what the resolution cache
 * (probes/resolution_cache.h) stores. The bytes are this build's own
 * (native byte order, this build's plan layout): whoever stores them keys
 * them by the build. Decoding checks every length and every field's range,
 * as for any input read from a file.
 */
#ifndef BPFPROBE_POINT_CODEC_H
#define BPFPROBE_POINT_CODEC_H

#include <stdbool.h>
#include <stddef.h>

#include "probes/point.h"

/* Bytes being written: data[0..len), malloc'ed. */
struct bp_bytes {
	unsigned char *data;
	size_t len, cap;
};

void bp_bytes__free(struct bp_bytes *b);
/* Appends size bytes (0 or -ENOMEM). */
int bp_bytes__put(struct bp_bytes *b, const void *p, size_t size);
/* Appends s as a length and its bytes; NULL has its own length (0 or -ENOMEM). */
int bp_bytes__put_str(struct bp_bytes *b, const char *s);

/* Bytes being read: p[0..size), off where the next value starts. */
struct bp_bytes_reader {
	const unsigned char *p;
	size_t size, off;
};

/* The next size bytes into out; false past the end. */
bool bp_bytes__get(struct bp_bytes_reader *r, void *out, size_t size);
/* The next string, malloc'ed into *s (NULL when NULL was put); false past
 * the end, for a string holding a NUL, or out of memory. */
bool bp_bytes__get_str(struct bp_bytes_reader *r, char **s);

/* Whether the points are user space's, which encode (not kernel or
 * map-tracing points). */
bool bp_points__encodable(const struct bp_point *pts, int n);
/* Appends the n points (0, -EINVAL for points that do not encode, or -ENOMEM). */
int bp_points__encode(const struct bp_point *pts, int n, struct bp_bytes *out);
/* The n points that follow in r, into a malloc'ed array (bp_points__free):
 * 0, -EINVAL for bytes that are no such points, or -ENOMEM. */
int bp_points__decode(struct bp_bytes_reader *r, int n, struct bp_point **pts);

#endif /* BPFPROBE_POINT_CODEC_H */
