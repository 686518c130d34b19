/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Stacks, unwound and symbolized, for the output to print:
 *
 * - user stacks from a sample (util/stack_sample.h: the registers a $ustack
 *   fetch copies and up to 8 KiB of the stack above rsp), unwound with
 *   libdwfl's unwinder through the modules' CFI (.eh_frame, else
 *   .debug_frame, from separate debug files too), reading the stack
 *   from the sample (other memory from the live process, /proc/PID/mem),
 *   over the process's modules as they were at the sample's time: from
 *   the mappings the kernel reported (bp_unwinder__proc_event: perf's
 *   side-band records, so that a process that exited at once can be
 *   unwound), on top of a snapshot of its maps taken when the pid was
 *   first seen for a process that predates the reports;
 * - kernel stacks from addresses (the kernel's stack map), through
 *   /proc/kallsyms and /proc/modules.
 *
 * Frames come as gdb's `bt` shows them, innermost first: for each PC
 * (minus 1 for a return address) the function from DWARF (else from the
 * symbol table), one frame per inlined call around the PC (innermost
 * first, "inlined into" its caller), the file:line (the innermost one's
 * from the line table as gdb reads it; an inlined call's caller's from
 * the call site's DW_AT_call_file/call_line) and the module; and between
 * a frame and its caller, the functions that tail-called on the way when
 * the call sites' DWARF says which unambiguously (gdb's tail-call frames).
 * Known differences from gdb 13: an inlined call's line past 65535 is
 * given whole (gdb keeps its low 16 bits); C++ and other languages'
 * functions are named by DW_AT_name (gdb: the qualified, demangled name).
 *
 * A stack whose unwinding stopped before its outermost frame says why
 * (bp_frames.stop, .reason), and the formatters print it as a last
 * pseudo-frame: "[unwind stopped: no CFI for 0x7f... in /usr/lib/...]".
 * No frame is guessed: without CFI for a PC the stack ends there.
 *
 *	struct bp_unwinder *u = bp_unwinder__new(NULL);
 *	bp_unwinder__note_pid(u, pid);		// when a pid is first seen
 *	...
 *	struct bp_frames f;
 *	if (!bp_unwinder__user(u, sample, len, &f)) {
 *		bp_frames__fprint(&f, stdout, "  ");
 *		bp_frames__free(&f);
 *	}
 *	bp_unwinder__free(u);
 *
 * Without reports, a process that execs maps other modules: note its pid
 * again then (an exec tracepoint's record, say); a PC the snapshot lacks
 * in a process still running makes a new snapshot (a library dlopen'ed
 * since). With them (bp_unwinder__proc_event, given in time order before
 * the samples taken after them), each sample is unwound over the maps of
 * its time: an exec starts the process's maps over, a fork starts the
 * child's with its parent's, each executable mapping reported is laid
 * over them; bp_unwinder__settle() then forgets the processes whose exit
 * was reported, once their samples are unwound.
 *
 * Processes are numbered as the kernel's initial PID namespace does
 * (bpf_get_current_pid_tgid()); /proc must be that namespace's.
 * An unwinder is not thread-safe: one thread uses it at a time.
 */
#ifndef BPFPROBE_UNWINDER_H
#define BPFPROBE_UNWINDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>

#include "util/stack_sample.h"

/* Frames unwound at most (machine frames: inlined calls expand them). */
#define BP_UNWIND_MAX_FRAMES	127

struct bp_unwinder;
struct bp_json;

struct bp_unwinder_opts {
	size_t sz;		/* sizeof(struct bp_unwinder_opts) */
	/*
	 * Processes whose modules are kept (the maps snapshot and the
	 * modules opened for unwinding); 0: 32. Past it the least recently
	 * used process is forgotten.
	 */
	int max_procs;
	/* Module files kept open for symbols, one per build; 0: 64. */
	int max_builds;
	/*
	 * Memory the CFI asks for outside the sample's stack bytes is read
	 * from the live process (/proc/PID/mem), except its stack: by the
	 * time a sample is unwound the process has returned from the
	 * sampled calls, and the live stack past the sample holds other
	 * frames (unwinding through them gives wrong frames). There the
	 * stack ends with "the sample's stack ends at ADDR".
	 * sample_only: never read the live process at all.
	 * live_stack: read the live stack too: right only while the process
	 * is still inside the sampled calls (blocked, stopped).
	 */
	bool sample_only;
	bool live_stack;
	/*
	 * Where separate debug files are looked for, in elfutils' syntax;
	 * NULL: $BPFPROBE_DEBUGINFO_PATH, else ":.debug:/usr/lib/debug"
	 * (beside the file, in .debug/, and under /usr/lib/debug, by
	 * build ID and by .gnu_debuglink).
	 */
	const char *debuginfo_path;
	/* Kernel symbols and modules; NULL: /proc/kallsyms, /proc/modules. */
	const char *kallsyms_path;
	const char *modules_path;
};
#define bp_unwinder_opts__last_field modules_path

/* Why unwinding ended. */
enum bp_unwind_stop {
	BP_UNWIND_END = 0,	/* the outermost frame: its CFI says it has no caller */
	BP_UNWIND_LIMIT,	/* BP_UNWIND_MAX_FRAMES frames */
	BP_UNWIND_NO_MODULE,	/* a PC in no module (anonymous memory, JIT code) */
	BP_UNWIND_NO_CFI,	/* no CFI for a PC in its module */
	BP_UNWIND_STACK_END,	/* the CFI needs stack past the sample's, and no live process */
	BP_UNWIND_NO_MEMORY,	/* the CFI needs memory the process cannot give */
	BP_UNWIND_NO_PROCESS,	/* the process exited before its modules were read */
	BP_UNWIND_NO_ELF,	/* a module's file cannot be opened (deleted, replaced) */
	BP_UNWIND_BAD_RA,	/* a return address of 0 where the CFI does not end the stack */
	BP_UNWIND_LOOP,		/* a frame repeats its callee: the stack did not move */
	BP_UNWIND_BAD_SAMPLE,	/* the sample is shorter than its header says */
	BP_UNWIND_ERROR,	/* another error (libdwfl's), in the reason */
	BP_UNWIND_NO_FP,	/* a frame-pointer walk: a function keeps no frame pointer there */
	BP_UNWIND_FP_END,	/* a frame-pointer walk: the kernel's ended there */
};

struct bp_frame {
	/*
	 * The PC: the sampled one for the innermost frame, a return address
	 * for the others (symbolized at addr - 1). The frames of one PC (an
	 * inlined call and its callers up to the real function) share it.
	 */
	__u64 addr;
	const char *func;		/* NULL: unknown */
	const char *inlined_into;	/* is_inline: the function it is inlined into */
	const char *file;		/* the source file as DWARF names it; NULL: unknown */
	int line;			/* 0: unknown */
	/*
	 * The module: a user frame's file path (as the process maps it, or
	 * "[vdso]"); a kernel frame's module name, NULL for the kernel.
	 */
	const char *module;
	__u64 func_off;			/* has_off: addr - the function's symbol */
	bool has_off;
	bool is_inline;
};

/* An unwound stack. Its strings belong to it (bp_frames__free). */
struct bp_frames {
	struct bp_frame *frames;	/* innermost first */
	int n;
	int n_unwound;			/* machine frames among them */
	bool kernel;
	enum bp_unwind_stop stop;
	/* BP_UNWIND_END: NULL; else why, e.g. "no CFI for 0x... in /path" */
	const char *reason;
	/* private */
	void *strs;
	size_t cap;
};

/* NULL (errno set) on bad opts or out of memory. */
struct bp_unwinder *bp_unwinder__new(const struct bp_unwinder_opts *opts);
void bp_unwinder__free(struct bp_unwinder *u);

/*
 * Snapshots pid's modules (/proc/PID/maps) and opens them now, so that
 * the process's samples can be unwound after it exits: call it when a pid
 * is first seen, without reports (bp_unwinder__proc_event). Calling it
 * again for a process it has is cheap (the snapshot is kept; an exec or a
 * reused pid makes a new one). A process whose exec or fork was reported
 * needs no snapshot: its modules as reported are opened. 0, -ESRCH when
 * the process is gone, -ENOMEM.
 */
int bp_unwinder__note_pid(struct bp_unwinder *u, pid_t pid);

/* Forgets pid's snapshot, reported mappings and modules (after its exit, say). */
void bp_unwinder__forget_pid(struct bp_unwinder *u, pid_t pid);

/*
 * Drops every cache: processes' modules and snapshots, module builds,
 * kernel symbols. What the kernel reported of processes is kept: it
 * cannot be read again.
 */
void bp_unwinder__flush(struct bp_unwinder *u);

/* What the kernel reported of a process (perf's side-band records). */
enum bp_proc_event_kind {
	BP_PROC_MMAP,		/* an executable mapping (PERF_RECORD_MMAP2) */
	BP_PROC_EXEC,		/* an exec (PERF_RECORD_COMM with COMM_EXEC) */
	BP_PROC_FORK,		/* a new process, not a thread (PERF_RECORD_FORK) */
	BP_PROC_EXIT,		/* the process's exit (PERF_RECORD_EXIT of its leader) */
};

struct bp_proc_event {
	enum bp_proc_event_kind kind;
	pid_t pid;		/* the process (tgid), as the initial namespace numbers it */
	pid_t ppid;		/* FORK: its parent */
	__u64 time_ns;		/* CLOCK_MONOTONIC, as bpf_ktime_get_ns() */
	/* MMAP: where, which part of which file */
	__u64 start, len, pgoff;
	__u64 ino;
	__u32 dev_major, dev_minor;
	/* the file as the kernel names it ("/usr/lib/...", "/path (deleted)"),
	 * "[vdso]", or another name in brackets or "//anon" for memory that
	 * is no file's (JIT code): no module, it ends what was mapped there */
	const char *path;
};

/*
 * Records what the kernel reported, in time order (events given out of
 * order are placed by their time). From the first one on, the unwinder
 * tracks processes by their reports: a process reported exec'ing or
 * forking is unwound over the maps reported, with no /proc snapshot
 * needed; one whose reports start with a mapping or an exit predates
 * them and has its /proc snapshot under them. A thread's fork or exit
 * is not a process's: leave it out. 0, -EINVAL, -ENOMEM.
 */
int bp_unwinder__proc_event(struct bp_unwinder *u, const struct bp_proc_event *ev);

/*
 * Says that every sample taken before until_ns has been unwound (and that
 * every sample read so far has: the processes whose exit was reported
 * took theirs before it). Those processes are forgotten; what was
 * reported before until_ns is kept only as the maps it made (the
 * programs processes ran before their last exec are dropped, the many
 * mappings of a JIT compiler merged). How many processes were
 * forgotten, or -ENOMEM.
 */
int bp_unwinder__settle(struct bp_unwinder *u, __u64 until_ns);

/*
 * Unwinds and symbolizes the sample s of len bytes (the header and its
 * s->size stack bytes). Returns 0 with *out filled, stopped early or not
 * (out->stop says); a negative errno (-EINVAL, -ENOMEM) with *out empty.
 * A pid never noted is noted now if it still lives.
 */
int bp_unwinder__user(struct bp_unwinder *u, const struct bp_stack_sample *s,
		      size_t len, struct bp_frames *out);

/*
 * Symbolizes a kernel stack of n addresses, innermost first (the
 * kernel's stack map gives return addresses after the first: they are
 * looked up at addr - 1). 0 with *out filled, or a negative errno.
 * Kernel symbols are read once (bp_unwinder__flush reads them again).
 */
int bp_unwinder__kernel(struct bp_unwinder *u, const __u64 *ips, int n,
			struct bp_frames *out);

void bp_frames__free(struct bp_frames *f);

/* The pseudo-frame's text, "[unwind stopped: REASON]", with snprintf's
 * return convention; -ENOENT when unwinding did not stop early. */
int bp_frames__stop_snprintf(const struct bp_frames *f, char *buf, size_t size);

/*
 * One frame as a line of text, without a newline, address first:
 *	0x55d0c4a1b2c3 weigh (inlined into compare_weighed) uw_target.c:33 [/path/uw_target]
 *	0xffffffff8123abcd do_sys_openat2+0x7f [ext4]
 * "??" for an unknown function, +0xOFF when there is no file:line, the
 * file by its base name. snprintf's return convention.
 */
int bp_frame__snprintf(const struct bp_frame *fr, char *buf, size_t size);

/* Every frame on a line of its own after indent, then the pseudo-frame
 * when unwinding stopped early. */
void bp_frames__fprint(const struct bp_frames *f, FILE *out, const char *indent);

/*
 * A JSON array of frames (in an object, after its key): objects with
 * "addr" ("0x..."), "func", "offset", "inlined_into", "file" (as DWARF
 * names it), "line", "module", "inline" (members that are unknown are
 * left out); when unwinding stopped early, last, {"stopped": REASON}.
 */
void bp_frames__write_json(const struct bp_frames *f, struct bp_json *j);

/*
 * The folded form's frames (flamegraph.pl, speedscope, inferno):
 * "outer;...;inner", outermost first, inlined calls included, "??" for
 * an unknown function; a stack that stopped early starts with
 * "[unwind stopped]". malloc'd, or NULL when out of memory.
 */
char *bp_frames__folded(const struct bp_frames *f);

#endif /* BPFPROBE_UNWINDER_H */
