/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/**
 * @file bpfprobe.h
 * @brief Load BPF objects whose programs carry perf-probe style SEC()
 * annotations, fetching the named arguments through DWARF into R3..R5.
 *
 * Conventions follow libbpf: object__verb functions, opts structs with a
 * leading sz field, negative errno returns, one print callback.
 */
#ifndef BPFPROBE_BPFPROBE_H
#define BPFPROBE_BPFPROBE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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
 * @brief Sets the print callback for bpfprobe and libbpf messages.
 * @param fn new callback, NULL to silence everything
 * @return the previous callback
 */
BPFPROBE_API bpfprobe_print_fn_t bpfprobe_set_print(bpfprobe_print_fn_t fn);

struct bpfprobe_object;
struct bpf_object;

/** @brief Options for bpfprobe_object__open(). */
struct bpfprobe_open_opts {
	size_t sz;	/**< sizeof(struct bpfprobe_open_opts) */
};
#define bpfprobe_open_opts__last_field sz

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
	 * uprobes fire only in this process (also after it execs); -1: in
	 * every process. Children are not followed: the kernel cannot fork a
	 * task whose BPF-attached uprobe event would be inherited.
	 */
	pid_t pid;
};
#define bpfprobe_attach_opts__last_field pid

/**
 * @brief Attaches every probe point to its plan's instance.
 * @return 0 or a negative errno; on error nothing stays attached
 */
BPFPROBE_API int bpfprobe_object__attach(struct bpfprobe_object *obj,
					 const struct bpfprobe_attach_opts *opts);

/** @brief Detaches every probe point (links closed). */
BPFPROBE_API void bpfprobe_object__detach(struct bpfprobe_object *obj);

/** @brief Detaches, unloads and frees everything. NULL is fine. */
BPFPROBE_API void bpfprobe_object__destroy(struct bpfprobe_object *obj);

/** @brief The underlying libbpf object (maps, BTF). */
BPFPROBE_API struct bpf_object *bpfprobe_object__bpf_object(const struct bpfprobe_object *obj);

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
};

/**
 * @brief Describes probe point i (0 <= i < point_cnt).
 * @return 0 or -ENOENT
 */
BPFPROBE_API int bpfprobe_object__point_info(const struct bpfprobe_object *obj, size_t i,
					     struct bpfprobe_point_info *info);

#ifdef __cplusplus
}
#endif

#endif /* BPFPROBE_BPFPROBE_H */
