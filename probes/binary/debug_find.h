/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The debug-file hunt (debug_find.c): libdwfl's find_debuginfo callback,
 * in place of dwfl_standard_find_debuginfo(). It looks where elfutils 0.188
 * looks, in the same order, for a binary's separate debug file and for a
 * DWZ alternate file:
 *   DIR/.build-id/xx/rest.debug for each absolute DIR of the path, by the
 *       build ID (the binary's, or the one .gnu_debugaltlink names);
 *   the debug link's NAME (else BINARY.debug) in the binary's directory,
 *       its .debug/ and /usr/lib/debug/DIR/ (each path element: "" the
 *       binary's directory, a relative one under it, an absolute one with
 *       the binary's directory under it); a DWZ file's NAME as written
 *       (libdw's own fallback), in each directory and its .dwz/;
 *   the binary's real path's, when it is a symbolic link;
 *   debuginfod, when DEBUGINFOD_URLS is set.
 * The path is search when set (a root's debug directory first, for
 * another process's binaries), else BPFPROBE_DEBUGINFO_PATH, else
 * ":.debug:/usr/lib/debug".
 *
 * But a binary names these files, and it may be anyone's: every candidate
 * is opened without blocking and kept only when it is a regular file
 * (util/regular_file.h); anything else (a FIFO, a device, a directory) is
 * skipped, and -v says so. A debug file is the binary's when its build ID
 * is the binary's (without one, when its CRC is the debug link's); a DWZ
 * file when its build ID is the one named. The one found must also inflate
 * within its budget (inflate_budget.h), else the search ends in an error.
 */
#ifndef BPFPROBE_DEBUG_FIND_H
#define BPFPROBE_DEBUG_FIND_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <elfutils/libdwfl.h>

/* What one binary's searches share: the module's userdata. */
struct bp_debug_find {
	const char *path;	/* the binary, for messages */
	/* the directories, in elfutils' syntax; NULL: the default (below);
	 * freed with it */
	char *search;
	struct stat main_st;	/* never its own debug file */
	/* the main ELF's debug link as libdwfl passes it (the same bytes):
	 * a call with another name looks for the DWZ file */
	const char *main_debuglink;
	/* .gnu_debugaltlink of the file with the DWARF (the binary, then
	 * the debug file once found): the DWZ file's name and build ID */
	char *alt_name;
	uint8_t alt_id[64];
	int alt_id_len;
	bool debug_found;
	bool alt_searched;	/* a DWZ file was looked for */
	bool alt_found;
	/* a file found but refused (its inflate budget): -EFBIG and why */
	int err;
	char why[1024];
};

/* .gnu_debugaltlink of elf into f (alt_name, alt_id): whether it has one. */
bool bp_debug_find__altlink(struct bp_debug_find *f, Elf *elf);

/* libdwfl's find_debuginfo; *userdata is the module's struct bp_debug_find. */
int bp_debug_find__callback(Dwfl_Module *mod, void **userdata, const char *modname,
			    Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			    GElf_Word debuglink_crc, char **debuginfo_file_name);

void bp_debug_find__free(struct bp_debug_find *f);

#endif /* BPFPROBE_DEBUG_FIND_H */
