/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The unwinder's insides, shared by its files: what the kernel reported
 * of processes' mappings (uw_hist.c), the maps of a sample's time
 * (uw_at.c), the processes it has modules for (uw_proc.c: their maps at
 * some time and a Dwfl of their modules for unwinding),
 * the module builds it keeps for symbols (uw_build.c: one offline Dwfl per
 * GNU build ID, whatever process maps it where), and the unwinding and
 * symbolizing of a sample (uw_user.c).
 */
#ifndef BPFPROBE_UW_CORE_H
#define BPFPROBE_UW_CORE_H

#include <stdbool.h>
#include <elfutils/libdwfl.h>

#include "unwind/unwinder.h"
#include "unwind/uw_hist.h"
#include "unwind/uw_maps.h"

struct uw_dbg;
struct uw_kernel;

#define UW_BUILD_ID_HEX	(2 * 64 + 1)
/* How far above rsp memory counts as the sampled thread's stack */
#define UW_STACK_REACH	(8ULL << 20)

/* A module of a process's Dwfl (its userdata). */
struct uw_mod {
	struct uw_proc *p;
	const struct uw_map *m;
	Dwfl_Module *mod;
	int open_err;			/* why its file could not be opened */
	Elf *pending;			/* opened for its span, for find_elf */
	char build_id[UW_BUILD_ID_HEX];	/* "" when none (or not read yet) */
	bool build_id_read;
	struct uw_dbg *own;		/* its symbols when no build is shared */
};

/* What unwinding learnt of a process's addresses, remembered (uw_user.c):
 * whether the CFI at a PC unwinds, the tail-call frames between a
 * function and a return address. Tables of fixed size, reset when full. */
#define UW_MEMO_SLOTS	1024
#define UW_MEMO_TAILS	4

struct uw_cfi_memo {
	Dwarf_Addr pc;
	signed char cfi;	/* cfi_at()'s answer */
	bool used;
};

struct uw_tail_memo {
	Dwarf_Addr caller_pc, callee;
	Dwarf_Addr pcs[UW_MEMO_TAILS];
	unsigned char n;
	bool used;
};

struct uw_memo {
	struct uw_cfi_memo cfi[UW_MEMO_SLOTS];
	struct uw_tail_memo tail[UW_MEMO_SLOTS];
	unsigned int ncfi, ntail;
};

/* Which maps a uw_proc has: those of a generation (uw_hist.h) with
 * nrecs of its records, for a sample of time_ns. */
struct uw_proc_key {
	unsigned long long gen_id;
	size_t nrecs;
	__u64 time_ns;
	bool may_live;		/* the generation is the process's current one */
	/* its maps before the reports could not be read: a PC in no module
	 * may be in one of them */
	bool partial;
};

struct uw_proc {
	struct bp_unwinder *u;
	struct uw_memo *memo;		/* made when first needed */
	pid_t pid;
	struct uw_maps *maps;
	struct uw_proc_key key;
	bool may_live;			/* /proc/PID may be it (uw_proc__alive checks) */
	Dwfl *dwfl;
	bool attached;
	const char *why_not;		/* not attached: why (static text) */
	struct uw_mod *mods;
	size_t nmods;
	int mem_fd;			/* /proc/PID/mem, bound to this process; -1 */
	unsigned long long stamp;	/* last use */
	/* the sample being unwound, and the memory it could not give */
	const struct bp_stack_sample *s;
	bool read_failed;
	__u64 failed_addr;
};

struct uw_build {
	char build_id[UW_BUILD_ID_HEX];
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *pending;			/* for its find_elf callback */
	char *path;
	struct uw_dbg *dbg;
	unsigned long long stamp;
};

struct bp_unwinder {
	int max_procs, max_builds;
	bool sample_only, live_stack;
	char *debuginfo_path;
	char *kallsyms_path, *modules_path;
	Dwfl_Callbacks proc_cb, build_cb;
	struct uw_proc **procs;
	size_t nprocs;
	struct uw_build **builds;
	size_t nbuilds;
	unsigned long long clock;
	void *vdso;
	size_t vdso_size;
	bool vdso_tried;
	struct uw_kernel *kernel;
	struct uw_hists hists;
};

/* uw_proc.c */
/* The process pid's modules as last built, or NULL. */
struct uw_proc *uw_proc__get(struct bp_unwinder *u, pid_t pid);
/*
 * pid's modules from maps (taken), those that key names, replacing what
 * was built for pid; past max_procs the least recently used one is
 * dropped. 0, -ENOMEM.
 */
int uw_proc__build(struct bp_unwinder *u, pid_t pid, struct uw_maps *maps,
		   const struct uw_proc_key *key, struct uw_proc **out);
void uw_proc__forget(struct bp_unwinder *u, pid_t pid);
void uw_proc__free(struct uw_proc *p);
/* Whether p's process still runs (the same one, not a reused pid). */
bool uw_proc__alive(const struct uw_proc *p);
/* The process Dwfl's find_elf callback. */
int uw_proc__find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		      Dwarf_Addr base, char **file_name, Elf **elfp);
/* The uw_mod of a module of p's Dwfl. */
struct uw_mod *uw_proc__mod(Dwfl_Module *mod);
/* len bytes at off of um's file, read from the file itself (as the
 * process mapped it): 0, or a negative errno. */
int uw_proc__pread(struct uw_mod *um, void *buf, size_t len, __u64 off);
/* The vDSO image (read once), or NULL. */
const void *uw_unwinder__vdso(struct bp_unwinder *u, size_t *size);

/* uw_at.c */
/*
 * The modules of s's process at s's time, built when not built yet.
 * 0 with *out; 1 when there are none, with *why (BP_UNWIND_NO_PROCESS)
 * in reason (size bytes); -ENOMEM.
 */
int uw_at__proc(struct bp_unwinder *u, const struct bp_stack_sample *s, struct uw_proc **out,
		char *reason, size_t size);
/*
 * After a PC in no module: when p's maps are the live process's snapshot
 * taken before the sample (a library dlopen'ed since, unreported), a new
 * snapshot and its modules in *p. 0 when there is one, -EAGAIN when not,
 * -ENOMEM.
 */
int uw_at__refresh(struct bp_unwinder *u, const struct bp_stack_sample *s, struct uw_proc **p);
/* bp_unwinder__note_pid: pid's modules now. 0, -ESRCH, -ENOMEM. */
int uw_at__note(struct bp_unwinder *u, pid_t pid);

/* uw_build.c */
/*
 * The symbols of um's module: the shared build's (*addr turned into its
 * link-time address) or, without a build ID or a file to open again, the
 * process module's own. NULL when out of memory.
 */
struct uw_dbg *uw_build__dbg(struct bp_unwinder *u, struct uw_mod *um, Dwarf_Addr *addr);
void uw_build__free(struct uw_build *b);
/* The build Dwfl's find_elf callback. */
int uw_build__find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		       Dwarf_Addr base, char **file_name, Elf **elfp);

/* uw_tail.c */
/*
 * The tail-call frames gdb puts between a frame whose function is
 * entered at callee and its caller, which the call returns to at
 * caller_pc (process addresses): their PCs, innermost first, at most
 * max. The count (0: none, or gdb could not tell), or -ENOMEM.
 */
int uw_tail__frames(struct bp_unwinder *u, struct uw_proc *p, Dwarf_Addr caller_pc,
		    Dwarf_Addr callee, Dwarf_Addr *pcs, int max);

/* uw_kernel.c */
void uw_kernel__free(struct uw_kernel *k);

#endif /* BPFPROBE_UW_CORE_H */
