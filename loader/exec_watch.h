/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What followed processes run, looked at while the session runs: each
 * exec of a followed process is an event (loader/follow.h), and the loader
 * looks at the process then.
 *
 *  - Its root. A process that entered another root (a chroot, a
 *    container's mount namespace) sees other files under the paths exec=
 *    names: each new root gets every probed binary's exec= looked up as
 *    the process sees it (probes/view.h). A file found there with the
 *    probed binary's build ID gets that binary's probe points attached too
 *    (the same offsets and plans); one of another build is said, not
 *    probed. Such a process is held at its exec (SIGSTOP from the exec
 *    program) until this is done, so no early call is missed.
 *  - Copies. The file it executes, and the files it maps executable, when
 *    they carry a probed binary's build ID but are another file (uprobes
 *    are per file: a copy is not probed): kept for the report, and with
 *    copies=yes attached like the probed binary. With copies=yes every
 *    exec is held; a probed library is also looked up by its name in the
 *    process's root, as its dynamic loader will find it. The maps of the
 *    processes looked at are read again every RESCAN_NS while they stay
 *    followed, for libraries they map later (dlopen).
 */
#ifndef BPFPROBE_EXEC_WATCH_H
#define BPFPROBE_EXEC_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "util/build_id.h"

struct bp_attach_point;
struct bpfprobe_object;

/* A probed user-space binary: the points' binary. */
struct bp_watched_bin {
	char *path;
	struct stat st;
	uint8_t build_id[BP_BUILD_ID_MAX];
	size_t build_id_len;
	bool copies;		/* a program probing it says copies=yes */
	bool lib;		/* a shared library: looked up by its name too */
	/* the exec= texts its programs name it by (looked up in new roots) */
	const char **execs;
	int nexecs;
};

/* A file with a watched binary's build ID that is not that file. */
struct bp_copy {
	char *path;		/* ours: what is attached */
	char *seen_as;		/* what the process calls it, when otherwise; NULL */
	int bin;		/* the binary it is a copy of (index) */
	pid_t pid;		/* the process it was first seen in */
	struct stat st;
	bool ran;		/* executed */
	bool mapped;		/* mapped executable */
	bool in_root;		/* exec= names it in the process's root */
	bool attached;
	/* its attachments: the binary's points (aps[k].point), of[k] their
	 * index in the object's points (their BPF cookie) */
	struct bp_attach_point *aps;
	int *of;
	int naps;
};

/* A root looked at: its directory and mount namespace. */
struct bp_root_key {
	dev_t dev;
	ino_t ino;
	ino_t mnt_ns;
};

struct bp_exec_watch {
	bool on;
	unsigned int mode;	/* enum bp_watch_mode */
	struct bp_watched_bin *bins;
	int nbins;
	struct bp_copy *copies;
	int ncopies;
	struct bp_root_key *roots;
	int nroots;
	/* files seen that are neither a watched binary nor a copy */
	struct bp_root_key *others;	/* dev, ino (mnt_ns unused) */
	int nothers;
	/* binaries of another build exec= names in some root: said once */
	struct bp_root_key *other_builds;
	int nother_builds;
	/* some watched binary is a library: the followed processes looked at
	 * have their maps read again now and then (what they map later) */
	bool rescan;
	pid_t *pids;
	int npids;
	uint64_t last_scan_ns;	/* CLOCK_MONOTONIC */
};

/*
 * At attach, before following starts: the watched binaries (every user
 * point's), their build IDs, the root the points were resolved in. Returns
 * the watch mode to follow with (0: nothing to watch), or a negative errno
 * after a message.
 */
int bp_exec_watch__setup(struct bpfprobe_object *obj);

/* Looks at process pid now (the -p process, already running). */
void bp_exec_watch__look(struct bpfprobe_object *obj, pid_t pid);

/* Handles the exec events waiting: looks at each process, attaches what
 * it needs, lets a held one go on. Returns how many, or a negative errno. */
int bp_exec_watch__handle(struct bpfprobe_object *obj);

/* Detaches every copy (their links closed). */
void bp_exec_watch__detach(struct bpfprobe_object *obj);

/* loader/copy_attach.c: the binary's points attached to copy c (0, or a
 * negative errno after a message; nothing of it stays attached then), and
 * detached. */
int bp_copy__attach(struct bpfprobe_object *obj, struct bp_copy *c);
void bp_copy__detach(struct bp_copy *c);

/* Frees everything (after detaching). */
void bp_exec_watch__free(struct bp_exec_watch *w);

#endif /* BPFPROBE_EXEC_WATCH_H */
