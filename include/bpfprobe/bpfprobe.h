/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/**
 * @file bpfprobe.h
 * @brief Load BPF objects whose programs carry perf-probe style SEC()
 * annotations, fetching the named arguments through DWARF into R3..R5.
 *
 * Conventions follow libbpf: object__verb functions, opts structs with a
 * leading sz field, negative errno returns, one print callback.
 *
 * Errors: functions returning int return 0 (or a count) on success and a
 * negative errno on failure, and then also set errno to it; those
 * returning a pointer return NULL and set errno. An options struct whose
 * sz covers fields this library does not know is refused (-EINVAL) unless
 * those bytes are zero, as libbpf does.
 *
 * Threads: one object, and the output made from it, must be used by one
 * thread at a time; different objects may be opened, loaded, attached and
 * read from different threads at once (libbpf's section handler, which is
 * process-wide, is used under a lock). bpfprobe_set_print() and
 * bpfprobe_route_libbpf_print() change process-wide state: call them
 * before other threads use the library.
 */
#ifndef BPFPROBE_BPFPROBE_H
#define BPFPROBE_BPFPROBE_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BPFPROBE_API __attribute__((visibility("default")))

/** @brief Message levels passed to the print callback. */
enum bpfprobe_print_level {
	BPFPROBE_WARN,	/**< errors and warnings: always shown */
	BPFPROBE_INFO,	/**< probe points, plans (bpfprobe -v) */
	BPFPROBE_DEBUG,	/**< libbpf and verifier output (bpfprobe -vv) */
};

/** @brief The one log callback; returns what vfprintf would. */
typedef int (*bpfprobe_print_fn_t)(enum bpfprobe_print_level level,
				   const char *fmt, va_list args);

/**
 * @brief Sets the print callback for bpfprobe's messages. The default
 * prints BPFPROBE_WARN to stderr.
 * @param fn new callback, NULL to silence everything
 * @return the previous callback
 */
BPFPROBE_API bpfprobe_print_fn_t bpfprobe_set_print(bpfprobe_print_fn_t fn);

/**
 * @brief Sends libbpf's messages through bpfprobe's print callback too
 * (libbpf's warnings as BPFPROBE_WARN, its info and debug output as
 * BPFPROBE_INFO and BPFPROBE_DEBUG), or, with false, gives libbpf back the
 * callback it had. The library never changes libbpf's callback otherwise:
 * by default libbpf's messages (the verifier's log of a program that does
 * not load, say) go where the application's libbpf_set_print() sends them.
 */
BPFPROBE_API void bpfprobe_route_libbpf_print(bool route);

/**
 * @brief Lets the caller stop long work: when *flag becomes non-zero (the
 * caller's SIGINT or SIGTERM handler sets it), resolving (between probe
 * points, and every few hundred functions of a unit's walk or index),
 * loading (between instances) and attaching (between probe points) give
 * up within milliseconds: bpfprobe_object__load() and
 * bpfprobe_object__attach() return -EINTR, print nothing, and leave
 * nothing loaded or attached. Process-wide, like bpfprobe_set_print():
 * set it before other threads use the library.
 * @param flag the flag, NULL for none (the default)
 */
BPFPROBE_API void bpfprobe_set_stop_flag(const volatile sig_atomic_t *flag);

struct bpfprobe_object;
struct bpf_object;

/** @brief Options for bpfprobe_object__open(). */
struct bpfprobe_open_opts {
	size_t sz;	/**< sizeof(struct bpfprobe_open_opts) */
	/**
	 * A vmlinux with DWARF for kernel probes; NULL: look in the usual
	 * places (/usr/lib/debug/boot/vmlinux-RELEASE, /boot/vmlinux-RELEASE,
	 * ...), else use kernel BTF.
	 */
	const char *vmlinux;
	/**
	 * The source the object was compiled from (bpfprobe load PROG.c),
	 * recorded with the programs for `bpfprobe list`; NULL: none.
	 */
	const char *source;
	/**
	 * Resolve without the caches: neither read the DWARF index nor
	 * finished resolutions from the user's cache directory, nor store
	 * them, but walk the binaries' DWARF as a whole (slower on large
	 * binaries; the points are the same).
	 */
	bool no_cache;
	/**
	 * The programs will be attached with bpfprobe_attach_opts.follow:
	 * load their uprobe instances with the check of the followed
	 * processes at once. Either way bpfprobe_object__attach() loads again
	 * the instances whose form is not the one it needs (without follow,
	 * no check: the kernel filters by pid, or nothing is filtered).
	 */
	bool follow;
	/**
	 * zero: padding, named so that an initializer zeroes it
	 */
	char reserved_pad[2];
	/**
	 * Look exec= paths up as process view_pid sees them: in its root (a
	 * chroot, a container's root in its own mount namespace, through
	 * /proc/PID/root), a bare name in its PATH and, like its dynamic
	 * loader, in its LD_LIBRARY_PATH, its root's ld.so.cache and library
	 * directories. DWARF comes from that root's /usr/lib/debug or the
	 * host's, by build ID. The file is attached by a path of the caller's
	 * (bpfprobe_point_info.binary); bpfprobe_point_info.seen_as is the
	 * process's. 0: as the caller sees them.
	 */
	pid_t view_pid;
};
#define bpfprobe_open_opts__last_field view_pid

/**
 * @brief Opens a BPF ELF object and parses the SEC() annotation of every
 * annotated program. Nothing is loaded yet.
 * @return the object, or NULL with errno set (a message has been printed)
 */
BPFPROBE_API struct bpfprobe_object *
bpfprobe_object__open(const char *path, const struct bpfprobe_open_opts *opts);

/**
 * @brief Resolves every probe point and argument, loads the object's
 * prototype programs (relocating maps, globals, CO-RE, subprograms) and one
 * program instance per distinct fetch plan.
 * @return 0 or a negative errno; on error nothing stays loaded
 */
BPFPROBE_API int bpfprobe_object__load(struct bpfprobe_object *obj);

/** @brief Options for bpfprobe_object__attach(). */
struct bpfprobe_attach_opts {
	size_t sz;	/**< sizeof(struct bpfprobe_attach_opts) */
	/**
	 * uprobes fire only in this process (its threads, and after it
	 * execs), as the caller's PID namespace numbers it; -1: in every
	 * process. Without follow, the kernel's perf event filters by pid and
	 * children are not followed.
	 */
	pid_t pid;
	/**
	 * With pid: uprobes fire in pid and in every process it (and they)
	 * create from the attach on, through fork, clone and exec. The
	 * uprobes are then attached for every process and each program
	 * starts with a check of the current process against a set of
	 * followed processes that tracepoint programs on sched_process_fork
	 * and sched_process_free keep current (perf_event's inherit cannot:
	 * it breaks fork() for BPF-attached uprobes). A process that maps a
	 * probed binary but is not followed still takes the breakpoint's
	 * trap, and its hits are counted as refused. The check is loaded
	 * with the programs (bpfprobe_open_opts.follow); attach loads the
	 * uprobe instances again when they were loaded for the other mode.
	 */
	bool follow;
	/**
	 * pid as the kernel numbers it (in the initial PID namespace), for
	 * follow when the caller runs inside another PID namespace, where
	 * pids differ (bpfprobe_pid__global() tells a process its own);
	 * 0: pid is that already.
	 */
	pid_t global_pid;
	/**
	 * With follow: look at what the followed processes execute while the
	 * session runs. A process that enters another root (a chroot, a
	 * container's mount namespace) has exec= looked up as it sees it, and
	 * a file found there with the probed binary's build ID is attached
	 * too; files with a probed binary's build ID that are not that file
	 * (copies) are kept (bpfprobe_object__copy_info()) and, for programs
	 * whose SEC says copies=yes, attached. Such processes are held
	 * (stopped) at their exec until looked at: the caller must then call
	 * bpfprobe_object__handle_execs() whenever bpfprobe_object__exec_fd()
	 * is readable, and soon; and now and then (every 50 ms, say) for the
	 * libraries followed processes map later.
	 */
	bool watch_execs;
	/**
	 * zero: the struct's tail, named so that an initializer zeroes it
	 * (padding it would leave as it finds it); later options take its place
	 */
	char reserved_tail[3];
};
#define bpfprobe_attach_opts__last_field watch_execs

/**
 * @brief Attaches every probe point to its plan's instance. Probe point i
 * (bpfprobe_object__point_info()) is attached with BPF cookie i, which its
 * program reads with bpf_get_attach_cookie() to tell the points of one
 * program apart (uprobes and kprobes; not fentry, nor kernels before 5.15,
 * where it reads 0).
 * @return 0 or a negative errno; on error nothing stays attached
 */
BPFPROBE_API int bpfprobe_object__attach(struct bpfprobe_object *obj,
					 const struct bpfprobe_attach_opts *opts);

/**
 * @brief The calling process's pid as the kernel numbers it: its pid in
 * the initial PID namespace, which differs from getpid() inside a PID
 * namespace (a container, `unshare --pid`). Found by running a
 * three-instruction BPF program in the process (CAP_BPF is needed).
 * @return the pid, or a negative errno (errno set)
 */
BPFPROBE_API pid_t bpfprobe_pid__global(void);

/** @brief What an annotated program's hits were, since the load. */
struct bpfprobe_program_stats {
	size_t sz;		/**< set by caller: sizeof(struct bpfprobe_program_stats) */
	bool ran;		/**< its code ran at least once (past the follow check) */
	uint64_t refused;	/**< hits in processes not followed (see follow) */
};

/**
 * @brief Whether annotated program i (0 <= i < program_cnt) ran, and the
 * hits it refused, over its instances and CPUs: each instance marks its
 * runs (a byte it stores each time, in a memory line of its own) and
 * counts per CPU what its follow check refuses. Kernel probes only mark.
 * (For run counts and times, see kernel.bpf_stats_enabled.)
 * @return 0, -ENOENT, or -EINVAL (not loaded)
 */
BPFPROBE_API int bpfprobe_object__program_stats(const struct bpfprobe_object *obj, size_t i,
						struct bpfprobe_program_stats *stats);

/** @brief What following processes (bpfprobe_attach_opts.follow) saw. */
struct bpfprobe_follow_stats {
	size_t sz;		/**< set by caller: sizeof(struct bpfprobe_follow_stats) */
	uint64_t joined;	/**< processes and threads that joined the followed set */
	uint64_t missed;	/**< created by followed processes but not followed: the set was full */
};

/** @brief Fills stats. @return 0 or -EINVAL */
BPFPROBE_API int bpfprobe_object__follow_stats(const struct bpfprobe_object *obj,
					       struct bpfprobe_follow_stats *stats);

/**
 * @brief Calls @p cb with the name (comm, up to 15 characters) of each
 * program a followed process executed since the attach, once per name;
 * stops at and returns the first non-zero result of @p cb.
 */
BPFPROBE_API int bpfprobe_object__for_each_followed_exec(const struct bpfprobe_object *obj,
							 int (*cb)(const char *comm, void *ctx),
							 void *ctx);

/**
 * @brief With bpfprobe_attach_opts.watch_execs: an fd (epoll) that is
 * readable when followed processes executed something to look at.
 * @return the fd, -ENOENT when nothing is watched, -EINVAL
 */
BPFPROBE_API int bpfprobe_object__exec_fd(const struct bpfprobe_object *obj);

/**
 * @brief Looks at every process whose exec waits (see
 * bpfprobe_attach_opts.watch_execs): attaches what it needs (its root's
 * view of exec=, copies with copies=yes) and lets it go on; and, when a
 * probed binary is a library, reads again (at most every 250 ms) the maps
 * of the processes looked at, for copies they mapped since. Never blocks.
 * @return how many execs, or a negative errno
 */
BPFPROBE_API int bpfprobe_object__handle_execs(struct bpfprobe_object *obj);

/** @brief A file with a probed binary's build ID that is not that file. */
struct bpfprobe_copy_info {
	size_t sz;		/**< set by caller: sizeof(struct bpfprobe_copy_info) */
	const char *path;	/**< the copy: a path of the caller's */
	const char *seen_as;	/**< what the process calls it, when otherwise; NULL */
	const char *of;		/**< the probed binary it has the build ID of */
	pid_t pid;		/**< the process it was seen in first (the kernel's number) */
	bool ran;		/**< a followed process executed it */
	bool mapped;		/**< a followed process mapped it (a library) */
	bool in_root;		/**< exec= names it in a followed process's root */
	bool attached;		/**< the binary's probe points are attached to it too */
};

/** @brief Copies seen so far (bpfprobe_attach_opts.watch_execs). */
BPFPROBE_API size_t bpfprobe_object__copy_cnt(const struct bpfprobe_object *obj);

/**
 * @brief Describes copy i (0 <= i < copy_cnt).
 * @return 0 or -ENOENT
 */
BPFPROBE_API int bpfprobe_object__copy_info(const struct bpfprobe_object *obj, size_t i,
					    struct bpfprobe_copy_info *info);

/** @brief Detaches every probe point (links closed). */
BPFPROBE_API void bpfprobe_object__detach(struct bpfprobe_object *obj);

/**
 * @brief Detaches, unloads and frees everything. NULL is fine. The probes
 * stop at once; an output made from the object holds it (its maps and
 * BTF), so what it still reads is freed with the last such output
 * (bpfprobe_output__free()), in either order.
 */
BPFPROBE_API void bpfprobe_object__destroy(struct bpfprobe_object *obj);

/** @brief The underlying libbpf object (maps, BTF). */
BPFPROBE_API struct bpf_object *bpfprobe_object__bpf_object(const struct bpfprobe_object *obj);

/**
 * @brief The maps the `$ustack` and `$kstack` arguments write, after load:
 * in @p samples_fd the ring buffer of user stack samples (a struct of
 * registers and stack bytes per id; bpfprobe_output reads it itself and
 * prints ids as symbolized stacks), in @p kstacks_fd the stack map of
 * kernel stacks (keyed by an id's low 32 bits). -1 for a map no program
 * needs. Either pointer may be NULL. The fds belong to the object.
 * @return 0, or -EINVAL before load
 */
BPFPROBE_API int bpfprobe_object__stack_fds(const struct bpfprobe_object *obj, int *samples_fd,
					    int *kstacks_fd);

/** @brief Number of annotated programs. */
BPFPROBE_API size_t bpfprobe_object__program_cnt(const struct bpfprobe_object *obj);
/** @brief Number of probe points (after load). */
BPFPROBE_API size_t bpfprobe_object__point_cnt(const struct bpfprobe_object *obj);
/** @brief Number of loaded program instances (after load). */
BPFPROBE_API size_t bpfprobe_object__instance_cnt(const struct bpfprobe_object *obj);

/** @brief A probe point as seen by users of the library. */
struct bpfprobe_point_info {
	size_t sz;		/**< set by caller: sizeof(struct bpfprobe_point_info) */
	const char *program;	/**< BPF program name */
	const char *sec;	/**< SEC() text */
	const char *binary;	/**< probed file */
	const char *func;	/**< function */
	uint64_t addr;		/**< link-time address */
	uint64_t offset;	/**< file offset (uprobe) */
	bool is_return;
	size_t instance;	/**< index of the instance it runs */
	int prog_fd;		/**< that instance's fd */
	/**
	 * the probed file as process seen_by sees it, when exec= was looked
	 * up in that process's root (bpfprobe_open_opts.view_pid) and it calls
	 * the file otherwise than binary; NULL: it does not
	 */
	const char *seen_as;
	pid_t seen_by;		/**< with seen_as: that process */
};

/**
 * @brief Describes probe point i (0 <= i < point_cnt).
 * @return 0 or -ENOENT
 */
BPFPROBE_API int bpfprobe_object__point_info(const struct bpfprobe_object *obj, size_t i,
					     struct bpfprobe_point_info *info);

/** @brief An annotated program. */
struct bpfprobe_program_info {
	size_t sz;		/**< set by caller: sizeof(struct bpfprobe_program_info) */
	const char *name;	/**< BPF program name */
	const char *sec;	/**< SEC() text */
	bool kernel;		/**< probes kernel functions (no exec=) */
	size_t arg_cnt;		/**< arguments fetched into R3.. */
	size_t point_cnt;	/**< its probe points (after load) */
};

/**
 * @brief Describes annotated program i (0 <= i < program_cnt).
 * @return 0 or -ENOENT
 */
BPFPROBE_API int bpfprobe_object__program_info(const struct bpfprobe_object *obj, size_t i,
					       struct bpfprobe_program_info *info);

/** @brief A loaded program instance: one per distinct fetch plan of a program. */
struct bpfprobe_instance_info {
	size_t sz;		/**< set by caller: sizeof(struct bpfprobe_instance_info) */
	const char *name;	/**< kernel-visible name: prog, prog_1, ... */
	const char *program;	/**< the annotated program it was made from */
	int prog_fd;		/**< its fd (-1 before load) */
	size_t prologue_len;	/**< instructions the prologue adds */
	size_t arg_cnt;		/**< fetched arguments */
	/** per argument, the fetch plan, e.g. "s32 *(u32 *)(%rdi + 8) [user]" */
	const char *arg_plan[3];
};

/**
 * @brief Describes instance i (0 <= i < instance_cnt).
 * @return 0 or -ENOENT
 */
BPFPROBE_API int bpfprobe_object__instance_info(const struct bpfprobe_object *obj, size_t i,
						struct bpfprobe_instance_info *info);

/*
 * Output: what the loaded programs print, through every channel at once,
 * and their maps at exit (see README "Output").
 */
struct bpfprobe_output;

/** @brief Options for bpfprobe_output__new(). */
struct bpfprobe_output_opts {
	size_t sz;		/**< sizeof(struct bpfprobe_output_opts) */
	FILE *file;		/**< where records go; NULL: stdout */
	bool json;		/**< one JSON object per line (JSON Lines) */
	bool quiet_meta;	/**< printk: the message alone; records: without the map name */
	size_t perf_pages;	/**< pages per CPU of each perf buffer, a power of 2; 0: 64 */
	/**
	 * turn the top-level bpf_trace_printk event back off: pass true when
	 * bpfprobe_output__global_printk() said 0 before bpfprobe_object__load()
	 */
	bool global_printk_off;
	/**
	 * zero: the struct's tail, named so that an initializer zeroes it
	 * (padding it would leave as it finds it); later options take its place
	 */
	char reserved_tail[7];
};
#define bpfprobe_output_opts__last_field global_printk_off

/**
 * @brief Whether the top-level tracefs instance has the bpf_trace_printk
 * event on. The kernel turns it on whenever it loads a program that calls
 * bpf_trace_printk, so readers of /sys/kernel/tracing/trace_pipe would see
 * our lines too; ask before loading, and let bpfprobe_output__new() turn it
 * back off (bpfprobe_output_opts.global_printk_off) when it was off.
 * @return 1, 0, or a negative errno (no tracefs)
 */
BPFPROBE_API int bpfprobe_output__global_printk(void);

/**
 * @brief Sets up the output of a loaded object, before it is attached so
 * nothing is missed: bpf_trace_printk lines (when a program calls it)
 * through a tracefs instance of our own, read raw with libtraceevent; every
 * ring buffer map and perf event array map (records typed by the
 * `__bpfprobe_record_<map>` variable's BTF type, else hex; perf's
 * `__bpf_stdout__` as text); lost-record counts. The object must be loaded
 * (else -EINVAL, said); the output holds a reference to it, so
 * bpfprobe_object__destroy() before bpfprobe_output__free() is safe: the
 * probes stop, the maps stay readable until the output is freed.
 * @return the output, or NULL with errno set (a message has been printed)
 */
BPFPROBE_API struct bpfprobe_output *
bpfprobe_output__new(struct bpfprobe_object *obj, const struct bpfprobe_output_opts *opts);

/**
 * @brief Shows only bpf_trace_printk lines of process @p pid's threads and
 * of processes and threads it creates later. Call it before attaching:
 * lines printed until then are discarded. @p pid is the kernel's number
 * (tracefs filters by the initial PID namespace's pids): inside another
 * PID namespace pass bpfprobe_pid__global()'s, and only a process whose
 * one thread is pid itself (a child held before exec) is covered whole.
 * @return 0 or a negative errno
 */
BPFPROBE_API int bpfprobe_output__scope_pid(struct bpfprobe_output *out, pid_t pid);

/**
 * @brief The output of pinned session @p name (bpfprobe_object__pin()):
 * the records its ring buffer and perf event array maps receive from now
 * on, typed by the session's BTF as for a loaded object. Read it with
 * bpfprobe_output__poll() like any output; one reader at a time (a
 * second one would take records from the first). Its bpf_trace_printk
 * lines are not here: they go to tracefs's global trace_pipe.
 * bpfprobe_output__dump_maps() refuses such an output (-EINVAL).
 * @return the output, or NULL with errno set: ENOENT (no such session, or
 * nothing in it to read; a message has been printed), EINVAL (bad name)
 */
BPFPROBE_API struct bpfprobe_output *
bpfprobe_output__open_pinned(const char *name, const struct bpfprobe_output_opts *opts);

/** @brief An epoll fd, readable when output waits (to poll it with yours). */
BPFPROBE_API int bpfprobe_output__fd(const struct bpfprobe_output *out);

/**
 * @brief Waits up to @p timeout_ms (-1: forever) for output, then prints
 * everything waiting. A signal ends the wait early.
 * @return records printed, or a negative errno; once a write of records
 * failed, bpfprobe_output__write_error()'s
 */
BPFPROBE_API int bpfprobe_output__poll(struct bpfprobe_output *out, int timeout_ms);

/** @brief Prints everything waiting, without waiting. Same return. */
BPFPROBE_API int bpfprobe_output__drain(struct bpfprobe_output *out);

/**
 * @brief Prints the object's hash, array and per-CPU maps (per-CPU values
 * summed) with their BTF types, like bpftrace at exit.
 * @return the number of maps dumped, or a negative errno (the same as
 * bpfprobe_output__poll() after a failed write)
 */
BPFPROBE_API int bpfprobe_output__dump_maps(struct bpfprobe_output *out);

/**
 * @brief The first write of records to the output's file that failed,
 * as a negative errno: -EPIPE (the reader of a pipe went away; ignore
 * SIGPIPE to see it rather than be killed), -ENOSPC, -EIO, ... From then
 * on nothing more is written to the file: the channels are still read,
 * and their records counted (bpfprobe_output__unwritten()).
 * @return that errno, 0 when every write succeeded, -EINVAL for NULL
 */
BPFPROBE_API int bpfprobe_output__write_error(const struct bpfprobe_output *out);

/**
 * @brief Records (printk lines, ring and perf buffer records, map entries)
 * not written because of bpfprobe_output__write_error(): the one whose
 * write failed and those after it. Records a fully buffered file held
 * when a flush failed are not in it.
 */
BPFPROBE_API uint64_t bpfprobe_output__unwritten(const struct bpfprobe_output *out);

/** @brief Records the kernel reported lost so far (perf buffers and printk). */
BPFPROBE_API uint64_t bpfprobe_output__lost(const struct bpfprobe_output *out);

/** @brief Stops reading and frees everything. NULL is fine. */
BPFPROBE_API void bpfprobe_output__free(struct bpfprobe_output *out);

struct btf;

/**
 * @brief Formats a value the way bpfprobe prints typed records and map
 * entries: by its BTF type (members by name, strings, enumerators), or as
 * hex bytes when @p type_id is 0, @p btf NULL, or the data shorter than
 * the type.
 * @param json a JSON value instead of text
 * @return a malloc'ed string (free() it), or NULL with errno set
 */
BPFPROBE_API char *bpfprobe_value__format(const struct btf *btf, unsigned int type_id,
					  const void *data, size_t size, bool json);

/**
 * @brief Where pinned sessions live by default: one directory per name.
 * The environment variable of the same name may point elsewhere under
 * /sys/fs/bpf (a test suite's own root, say); see bpfprobe_pin__root().
 */
#define BPFPROBE_PIN_ROOT "/sys/fs/bpf/bpfprobe"

/**
 * @brief The pin root in effect: $BPFPROBE_PIN_ROOT when it is an absolute
 * path under /sys/fs/bpf (whose names may not hold a '.'), else
 * BPFPROBE_PIN_ROOT.
 */
BPFPROBE_API const char *bpfprobe_pin__root(void);

/** @brief Options for bpfprobe_object__pin(). */
struct bpfprobe_pin_opts {
	size_t sz;	/**< sizeof(struct bpfprobe_pin_opts) */
	bool replace;	/**< replace a session of that name instead of failing */
	/**
	 * zero: the struct's tail, named so that an initializer zeroes it
	 * (padding it would leave as it finds it); later options take its place
	 */
	char reserved_tail[7];
};
#define bpfprobe_pin_opts__last_field replace

/**
 * @brief Pins an attached object as session @p name: its links, program
 * instances, standard programs and maps under bpfprobe_pin__root()/name
 * (mounting the BPF filesystem on /sys/fs/bpf if needed), so the probes
 * keep running after the process exits or destroys the object. The
 * programs' metadata (what `bpfprobe list` shows) records the name.
 * @param name 1..64 of [A-Za-z0-9_-], starting with a letter or digit
 * @return 0; -EEXIST when the name is taken and !opts->replace; -EINVAL
 * for a bad name or an object not loaded; -EOPNOTSUPP for an attachment
 * that is not a bpf_link; another negative errno. On error nothing new
 * stays pinned (with replace, the old session stays).
 */
BPFPROBE_API int bpfprobe_object__pin(struct bpfprobe_object *obj, const char *name,
				      const struct bpfprobe_pin_opts *opts);

/**
 * @brief Removes pinned session @p name: once nothing else holds them its
 * probes detach and its programs and maps are freed.
 * @return 0, -ENOENT (no such session), -EINVAL (bad name) or a negative errno
 */
BPFPROBE_API int bpfprobe_pin__remove(const char *name);

/** @brief 1 when session @p name is pinned, 0 when not, -EINVAL for a bad name. */
BPFPROBE_API int bpfprobe_pin__exists(const char *name);

/**
 * @brief Calls @p cb with the name of every pinned session (it may remove
 * it); stops at and returns the first non-zero result of @p cb.
 */
BPFPROBE_API int bpfprobe_pin__for_each(int (*cb)(const char *name, void *ctx), void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* BPFPROBE_BPFPROBE_H */
