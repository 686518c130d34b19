/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The function index of one binary's DWARF: which DIEs are the functions
 * of a name and where their inlined copies are, so that finding FUNC parses
 * only the units that hold it instead of walking every function of every
 * unit (most of the time a resolve of a large binary took); and where the
 * structs, unions, classes and enums of a name are defined, so that a type
 * one unit only declares is completed from another without a walk.
 *
 *   index.c        getting it (from the cache, else built and stored) and
 *                  looking names up in it
 *   index_scan.c   building it: one pass over .debug_info's bytes
 *   index_file.c   the file in the user's cache directory: its identity
 *                  checks, reading it as untrusted input, writing it
 *
 * What it lists is exactly what the walks of sites.c (dwarf_getfuncs over
 * every compile unit) and inline.c (inlined calls in those functions'
 * bodies, through lexical blocks and other inlined calls) would visit; the
 * resolver then reads the DIEs it names through libdw and checks each, so a
 * wrong entry is caught and the walk done instead. Names are those
 * bp_die_name() gives (through abstract origins and specifications).
 *
 * The layout below is both the file and what is kept in memory, in the
 * machine's byte order (the header says which).
 */
#ifndef BPFPROBE_DWARF_INDEX_H
#define BPFPROBE_DWARF_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "probes/spec_name.h"

struct bp_debuginfo;

#define BP_INDEX_MAGIC		"BPIDXv04"
#define BP_INDEX_VERSION	4
#define BP_INDEX_BUILD_ID_MAX	64
/* the payload is checked by blocks of this size, each when first used */
#define BP_INDEX_BLOCK		4096

/* A file's identity: what changes when it is rebuilt, touched, replaced
 * or rewritten in place. */
struct bp_index_file_id {
	uint64_t dev, ino, size;
	uint64_t mtime_sec, mtime_nsec;
	uint64_t ctime_sec, ctime_nsec;
};

struct bp_index_header {
	char magic[8];
	uint32_t version;
	uint32_t byte_order;	/* 0x01020304 as written by this machine */
	/* of the header (this field taken as 0) and the block sums */
	uint64_t checksum;
	uint32_t build_id_len;	/* 0: the binary has none */
	uint8_t build_id[BP_INDEX_BUILD_ID_MAX];
	uint32_t has_debug_file;	/* the DWARF is in another file */
	struct bp_index_file_id binary;
	struct bp_index_file_id debug;
	uint64_t payload_off;	/* where the payload starts in the file */
	uint64_t payload_size;
	uint32_t block_size;	/* BP_INDEX_BLOCK */
	uint32_t nblocks;	/* of the payload, each with its sum */
	/* the parts, at these offsets in the payload (8-byte aligned) */
	uint64_t names_off, slots_off, funcs_off, inlines_off, units_off, strings_off;
	uint64_t types_off;
	uint32_t nnames;
	uint32_t nslots;	/* a power of two, more than nnames */
	uint32_t nfuncs;
	uint32_t ninlines;
	uint32_t ntypes;
	uint32_t nunits;
	uint32_t strings_size;
	/* every unit's header, for the unit of a DIE (unit_window.h) */
	uint64_t cus_off;
	uint32_t ncus;
	/* 1: every unit is a compile unit whose DIEs refer only inside it
	 * (no DW_FORM_ref_addr, type signatures or other files' forms) */
	uint32_t self_contained;
};

/* A name, and the functions and inlined copies that have it. */
struct bp_index_name {
	uint32_t str;		/* offset in the strings */
	uint32_t func_first;	/* funcs[func_first, func_first + nfuncs) */
	uint32_t nfuncs;
	uint32_t inline_first;
	uint32_t ninlines;
	uint32_t type_first;	/* types[type_first, type_first + ntypes) */
	uint32_t ntypes;
	uint32_t pad;
};

/* An inlined copy (DW_TAG_inlined_subroutine) in the body of a function
 * dwarf_getfuncs() reports. */
struct bp_index_inline {
	uint64_t die;		/* DIE offset in .debug_info */
	uint64_t frame;		/* the function whose body holds it */
	uint64_t unit;		/* offset of its unit's DIE */
};

/*
 * The file: the header, nblocks uint64_t sums (one per block of the
 * payload, bp_index__block_sum), the payload at payload_off. The payload's
 * parts:
 *   nnames bp_index_name, in the order the scan met them;
 *   nslots uint32_t: a hash table of the names (bp_index__hash of the
 *     name, linear probing), each slot a name's index + 1, 0 when empty;
 *   nfuncs uint64_t: DIE offsets of the functions dwarf_getfuncs() reports
 *     (DW_TAG_subprogram that are no declaration), grouped by name, in DIE
 *     order within a name;
 *   ninlines bp_index_inline, grouped by name, by frame then DIE within;
 *   ntypes uint64_t: DIE offsets of the named struct, union, class and
 *     enum definitions (no DW_AT_declaration) of a unit's outer scopes (the
 *     unit, its namespaces and, in C++, its classes and structs; never
 *     inside a function: bp_type_defs_walk's), grouped by name, in DIE
 *     order within a name;
 *   nunits uint64_t: unit DIE offsets (sorted) whose inlined calls may
 *     name a function of another unit (LTO, DWZ: see inline.c);
 *   ncus uint64_t: the offsets of every unit's header in .debug_info
 *     (sorted);
 *   strings_size bytes of names, each NUL-terminated.
 *
 * A stored index is read as untrusted input: the header and the sums when
 * it is opened, and each block of the payload when a look-up first needs
 * it (index_format.c: its sum checked, then every offset and count read
 * from it), so that a warm resolve reads a few blocks of a large index.
 * A block that fails makes the look-up fail with -EBADMSG: the index is
 * then not used (index.c), whatever block it was.
 */
struct bp_dwarf_index {
	void *mem;		/* the whole file's size: malloc'ed, mmap'ed
				 * (mapped) and filled as blocks are read, or
				 * util/bigmem.h's (bigmem: a built index) */
	bool mapped;
	bool bigmem;
	size_t size;
	const struct bp_index_header *hdr;
	const uint64_t *sums;
	const char *payload;
	/* the parts, in mem: read only through index_format.c's accessors */
	const struct bp_index_name *names;
	const uint32_t *slots;
	const uint64_t *funcs;
	const struct bp_index_inline *inlines;
	const uint64_t *types;
	const uint64_t *units;
	const uint64_t *cus;
	const char *strings;
	/* a file's blocks are read from fd as needed; none: all are there */
	int fd;
	uint8_t *loaded;	/* per block: 1 read and checked */
	bool units_checked;
	bool cus_checked;
	/* where it came from, for -v */
	bool from_file;
	char name[96];		/* its file's name in the cache */
};

/* The hash of a name the slots are placed by (FNV-1a, 32 bits). */
uint32_t bp_index__hash(const char *name);

/* A function or inlined copy found in the index, with its name. */
struct bp_index_hit {
	const char *name;	/* in the index */
	uint64_t die;
	uint64_t frame;		/* inlined copies */
	uint64_t unit;		/* inlined copies */
};

/*
 * di's index (di->dwarf set), or NULL when none is to be used: --no-cache
 * (di->no_index), a binary the scan does not handle (split DWARF, DWZ,
 * ...), or out of memory. Read from the user's cache when a valid one is
 * there for exactly this binary, else built and stored there (when the
 * cache directory can be trusted); kept with di. Says what it did at -v.
 */
struct bp_dwarf_index *bp_dwarf_index__get(const struct bp_debuginfo *di);

/*
 * The functions whose name may match pat (the name part of
 * bp_func_pattern__matches: the caller checks each DIE), in DIE order,
 * malloc'ed into *hits. Returns how many, -ENOMEM, or -EBADMSG when a
 * block of the index read for it is corrupt.
 */
int bp_dwarf_index__funcs(struct bp_dwarf_index *idx, const struct bp_func_pattern *pat,
			  struct bp_index_hit **hits);

/*
 * The inlined copies of the functions whose name may match pat, in the
 * order inline.c's walk finds them (by frame, then DIE), malloc'ed.
 * Returns how many, -ENOMEM or -EBADMSG.
 */
int bp_dwarf_index__inlines(struct bp_dwarf_index *idx, const struct bp_func_pattern *pat,
			    struct bp_index_hit **hits);

/*
 * The resolver found an entry of di's index that is not what the DWARF
 * says (why): the index is no longer used for di (said at -v), a stored
 * one is removed, and the walks are done instead.
 */
void bp_dwarf_index__reject(const struct bp_debuginfo *di, const char *why);

/*
 * The DIE offsets of the definitions of types called name (a struct,
 * union, class or enum, of any scope: the caller checks kind and scope),
 * in DIE order, pointing into the index (*offs). Returns how many, or
 * -EBADMSG.
 */
int bp_dwarf_index__types(struct bp_dwarf_index *idx, const char *name, const uint64_t **offs);

/* Whether the inlined calls of the unit whose DIE is at unit_off may name
 * functions of other units: 1, 0, or -EBADMSG. */
int bp_dwarf_index__unit_inlines_from_outside(struct bp_dwarf_index *idx, uint64_t unit_off);

/* The offset of the header of the unit that holds the DIE at die_off:
 * 0 with *unit set, -ENOENT (before the first unit), or -EBADMSG. */
int bp_dwarf_index__unit_of(struct bp_dwarf_index *idx, uint64_t die_off, uint64_t *unit);

/* --- building (index_scan.c) ------------------------------------------------ */

/*
 * Scans di's DWARF into a new index in memory (hdr filled but for the
 * identities and the sums, which the caller sets: bp_index__seal). Returns 0, -ENOMEM, or
 * -EOPNOTSUPP with why: DWARF the scan does not read (split units,
 * imported units, other byte orders, a form it does not know, bytes past a
 * section's end), for which the walks are used as before.
 */
int bp_index_scan(const struct bp_debuginfo *di, struct bp_dwarf_index *out,
		  char *why, size_t len);

/* --- the file (index_file.c) -------------------------------------------------- */

/*
 * The identity of di's binary and debug file and its build ID, into hdr,
 * and the name of its file in the cache, into name (at least 96 bytes).
 * -errno with why when they cannot be known (the binary changed while it
 * was opened).
 */
int bp_index_file__identify(const struct bp_debuginfo *di, struct bp_index_header *hdr,
			    char *name, size_t name_len, char *why, size_t len);

/* A file's identity from its stat. */
void bp_index_file__id(const struct stat *st, struct bp_index_file_id *id);

/* path opened again (read-only) when it is still the file id names: its
 * fd, or -errno (-ESTALE: another file, or the same one changed). */
int bp_index_file__reopen(const char *path, const struct bp_index_file_id *id);

/* The sum of the header (its checksum field taken as 0) and the block
 * sums that follow it; of one block of the payload. */
uint64_t bp_index__header_sum(const struct bp_index_header *h, const uint64_t *sums);
uint64_t bp_index__block_sum(const void *block, size_t size, uint32_t k);

/* Sets an index built in memory (the header filled) to its sums: the
 * blocks', then the header's. */
void bp_index__seal(struct bp_dwarf_index *idx);

/*
 * Checks the header at idx->mem (and its block sums, which follow it) for
 * an index of file_size bytes as untrusted input and points idx's parts
 * into idx->mem; whole: also every block and every offset of the payload
 * now (an index in memory), else they are checked as they are read
 * (bp_index__load). -EINVAL with why.
 */
int bp_index__validate(struct bp_dwarf_index *idx, size_t file_size, bool whole,
		       char *why, size_t len);

/* Reads and checks the blocks holding [p, p + len) of the payload when not
 * yet done. 0, or -EBADMSG (a block's sum differs, or it cannot be read). */
int bp_index__load(struct bp_dwarf_index *idx, const void *p, size_t len);

/* Name i, its offsets checked, and its string; -EBADMSG. */
int bp_index__name(struct bp_dwarf_index *idx, uint32_t i, const struct bp_index_name **n,
		   const char **str);

/* The name index in hash slot k (-1: empty); -EBADMSG. */
int bp_index__slot(struct bp_dwarf_index *idx, uint32_t k, int64_t *name);

/* n's functions and inlined copies, read; -EBADMSG. */
int bp_index__name_funcs(struct bp_dwarf_index *idx, const struct bp_index_name *n,
			 const uint64_t **dies);
int bp_index__name_inlines(struct bp_dwarf_index *idx, const struct bp_index_name *n,
			   const struct bp_index_inline **copies);
int bp_index__name_types(struct bp_dwarf_index *idx, const struct bp_index_name *n,
			 const uint64_t **dies);

/* The units inlining from outside, read and checked sorted; -EBADMSG. */
int bp_index__units(struct bp_dwarf_index *idx, const uint64_t **units);

/* The unit headers, read and checked sorted; -EBADMSG. */
int bp_index__cus(struct bp_dwarf_index *idx, const uint64_t **cus);

/*
 * Opens the index stored as name in the user's cache into idx, its header
 * checked and made for exactly the binary want identifies (build ID and
 * file identities, as bp_index_file__identify filled it); its blocks are
 * read as look-ups need them. 0, -ENOENT (none stored), or another -errno
 * with why (a stale, corrupt, truncated or untrusted file, an untrusted
 * cache directory); idx is then empty. path gets the file's path, for
 * messages.
 */
int bp_index_file__read(const struct bp_index_header *want, const char *name,
			struct bp_dwarf_index *idx, char *path, size_t path_len,
			char *why, size_t len);

/* Stores idx (its header complete) as name, atomically; 0 or -errno with
 * why. */
int bp_index_file__write(const struct bp_dwarf_index *idx, const char *name,
			 char *path, size_t path_len, char *why, size_t len);

/* Removes the stored file name (it proved wrong). */
void bp_index_file__remove(const char *name);

void bp_dwarf_index__free(struct bp_dwarf_index *idx);
/* What idx holds (its memory, its file), not idx itself: an index that
 * bp_index_scan() built in a struct of the caller's. */
void bp_dwarf_index__release(struct bp_dwarf_index *idx);

#endif /* BPFPROBE_DWARF_INDEX_H */
