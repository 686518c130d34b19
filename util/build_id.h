/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * GNU build IDs (the NT_GNU_BUILD_ID note the linker writes): read from a
 * note segment's bytes, and this build's own, the ID of the object that
 * holds this code (the bpfprobe command, or libbpfprobe.so), read from its
 * notes in memory. Whatever depends on this very code (the resolution
 * cache's entries) is keyed by it.
 */
#ifndef BPFPROBE_BUILD_ID_H
#define BPFPROBE_BUILD_ID_H

#include <stddef.h>
#include <stdint.h>

#define BP_BUILD_ID_MAX	64

/* The build ID in the note segment at notes (size bytes), into id (at
 * most max bytes): its length, or 0 when none fits. */
size_t bp_build_id__from_notes(const void *notes, size_t size, uint8_t *id, size_t max);

/* The build ID of the 64-bit ELF file open at fd (its PT_NOTE segments),
 * into id (at most max bytes): its length, or 0 when it has none (or is
 * no such file). */
size_t bp_build_id__of_fd(int fd, uint8_t *id, size_t max);
/*
 * The GNU build ID of the 64-bit ELF file open as fd, from its note
 * segments, into id (at most max bytes): its length, 0 when it has none,
 * -1 when the file cannot be read as such. (Only these few bytes are
 * read: libelf would map the file and read its section headers.)
 */
int bp_build_id__of_file(int fd, uint8_t *id, size_t max);

/* The build ID's length (its bytes at *id), or 0 when the object has none. */
size_t bp_self__build_id(const uint8_t **id);

#endif /* BPFPROBE_BUILD_ID_H */
