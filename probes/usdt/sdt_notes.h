/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The SDT markers a binary ships (<sys/sdt.h>'s STAP_PROBE, DTRACE_PROBE):
 * its .note.stapsdt notes, name "stapsdt", type 3, each the marker's
 * address, the link-time address of .stapsdt.base, its semaphore's address
 * (0: none), then provider, name and argument specs ("8@%rdi -4@8(%rbx)").
 * A binary moved after linking (prelink) moves .stapsdt.base with it: the
 * difference is added to the marker's and the semaphore's addresses.
 */
#ifndef BPFPROBE_SDT_NOTES_H
#define BPFPROBE_SDT_NOTES_H

#include <stddef.h>
#include <stdint.h>

struct bp_sdt_site {
	char *provider;
	char *name;
	char *args;		/* the argument specs as the note writes them */
	uint64_t addr;		/* link-time address of the marker's nop */
	uint64_t offset;	/* its file offset (what a uprobe takes) */
	uint64_t sem;		/* link-time address of the semaphore; 0: none */
	uint64_t sem_offset;	/* its file offset (a uprobe's ref_ctr_offset) */
};

/*
 * Every marker site of the ELF file at path, in note order, into *sites
 * (malloc'ed; free with bp_sdt_sites__free). Returns how many (0: the
 * file has no SDT notes), or a negative errno with why.
 */
int bp_sdt_sites__read(const char *path, struct bp_sdt_site **sites, char *why, size_t len);
void bp_sdt_sites__free(struct bp_sdt_site *sites, int n);

/* How many operands the argument specs args hold. */
int bp_sdt__nargs(const char *args);

#endif /* BPFPROBE_SDT_NOTES_H */
