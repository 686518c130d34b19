/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * This build's identity: the GNU build ID the linker gave the object that
 * holds this code (the bpfprobe command, or libbpfprobe.so), read from its
 * notes in memory. Whatever depends on this very code (the resolution
 * cache's entries) is keyed by it.
 */
#ifndef BPFPROBE_SELF_BUILD_ID_H
#define BPFPROBE_SELF_BUILD_ID_H

#include <stddef.h>
#include <stdint.h>

#define BP_SELF_BUILD_ID_MAX	64

/* The build ID's length (its bytes at *id), or 0 when the object has none. */
size_t bp_self__build_id(const uint8_t **id);

#endif /* BPFPROBE_SELF_BUILD_ID_H */
