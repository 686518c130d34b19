/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * ELF images for libdwfl's find_elf callbacks: mapped files whose
 * descriptor is closed at once (a cache of many modules holds no file
 * descriptors), and the vDSO.
 */
#ifndef BPFPROBE_UW_ELF_H
#define BPFPROBE_UW_ELF_H

#include <stddef.h>
#include <libelf.h>
#include <linux/types.h>

struct uw_map;

/*
 * Opens path as a mapped ELF image. With want, the file must be the one
 * a process mapped there, by its device and inode, not a file put in its
 * place since. 0, or -ENOENT (and other open errors), -ESTALE (another
 * file), -ENOEXEC (not ELF).
 */
int uw_elf__open(const char *path, const struct uw_map *want, Elf **out);

/* The link-time span of the PT_LOAD segments, low aligned down as libdwfl
 * aligns a module's start. 0 or -ENOEXEC. */
int uw_elf__span(Elf *elf, __u64 *low, __u64 *high);

/*
 * The span of a module whose executable mapping starts at start and maps
 * its file from pgoff: its first PT_LOAD's page to its last's end, where
 * that mapping puts them (the addresses /proc/PID/maps would show, from
 * the first mapping of the file). 0 or -ENOEXEC (no PT_LOAD holds pgoff).
 */
int uw_elf__module_span(Elf *elf, __u64 start, __u64 pgoff, __u64 *low, __u64 *high);

/* The file offset of the len bytes at link-time address addr (in a
 * PT_LOAD's file bytes): 0 or -ENOENT. (A mapping of the file shows the
 * uprobes attached to it: read the bytes with pread.) */
int uw_elf__file_offset(Elf *elf, __u64 addr, size_t len, __u64 *off);

/* The GNU build ID of elf, in hex (size at least 2 * 64 + 1), or -ENOENT. */
int uw_elf__build_id(Elf *elf, char *hex, size_t size);

/* A copy of this process's vDSO: every process of this kernel maps the
 * same image. 0 or -ENOENT, -ENOMEM. */
int uw_elf__vdso(void **image, size_t *size);

#endif /* BPFPROBE_UW_ELF_H */
