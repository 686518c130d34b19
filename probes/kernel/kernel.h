/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Kernel probe points: a spec without exec= names a kernel function (of
 * module= MOD, or of whichever module kallsyms says holds it).
 *
 *   kernel_resolve.c the driver: which function, which source, kallsyms
 *               checks (exists, probeable, ambiguous)
 *   btf.c       arguments from kernel BTF: parameters by calling-
 *               convention position, member chains
 *   btf_fetcharg.c  perf's fetch arguments ($argN, %REG, +OFFS(...))
 *   vmlinux.c   finding vmlinux / module debug files whose build-id
 *               matches the running kernel
 *   kallsyms.c  /proc/kallsyms, ftrace's and kprobes' lists
 *   kconfig.c   the running kernel's config
 *
 * Arguments come from DWARF when a matching debug file exists (through the
 * user-space DWARF resolver, probes/dwarf/), else from BTF. Dereferences read
 * kernel memory; with @user, those of the argument's member chain read
 * user memory (the argument's own value is kernel state: a register or a
 * kernel stack slot).
 */
#ifndef BPFPROBE_RESOLVE_KERNEL_H
#define BPFPROBE_RESOLVE_KERNEL_H

#include <stdbool.h>
#include <bpf/btf.h>

#include "probes/diag.h"
#include "probes/kernel/kallsyms.h"
#include "probes/point.h"
#include "probes/report.h"
#include "probes/spec.h"

/*
 * The DWARF resolver, for a vmlinux or module with DWARF: given by the
 * caller (the front door, probes/resolve.c), so kernel resolution needs
 * no DWARF header. resolve opens the debug file at path and resolves spec
 * against it as bp_dwarf__resolve() does (link-time addresses); what went
 * wrong is printed, or kept in rep, named after where.
 */
struct bp_kernel_dwarf {
	int (*resolve)(void *ctx, const char *path, const struct bp_spec *spec,
		       const char *where, struct bp_point **points, int *npoints,
		       struct bp_report *rep);
	void *ctx;
};

/* Where the kernel's facts are read; tests point them elsewhere. */
struct bp_kernel_paths {
	const char *kallsyms;		/* /proc/kallsyms */
	const char *btf_dir;		/* /sys/kernel/btf */
	const char *filter_functions;	/* tracefs available_filter_functions */
	const char *blacklist;		/* debugfs kprobes/blacklist */
	/* a vmlinux with DWARF to use (NULL: look in the usual places);
	 * "" disables DWARF */
	const char *vmlinux;
	bool no_build_id_check;		/* tests: accept a foreign vmlinux */
};

struct bp_kernel;

struct bp_kernel *bp_kernel__new(void);
/* paths: NULL members keep the defaults; the strings must outlive k */
void bp_kernel__set_paths(struct bp_kernel *k, const struct bp_kernel_paths *paths);
void bp_kernel__free(struct bp_kernel *k);

/* Resolves a kernel spec into points (see bp_resolver__resolve); a
 * vmlinux or module with DWARF is read through dwarf. What went wrong
 * is printed, or kept in rep (see probes/report.h). */
int bp_kernel__resolve(struct bp_kernel *k, const struct bp_kernel_dwarf *dwarf,
		       const struct bp_spec *spec, struct bp_point **points,
		       int *npoints, struct bp_report *rep);

/* --- btf.c: functions and parameters; btf_walk.c: member chains --------- */

/* The BTF FUNC ids called name in btf (split BTF: the module's own part
 * only). Returns how many, up to max. */
int bp_kbtf__find_funcs(const struct btf *btf, const char *name, __u32 *ids, int max);

/* --- btf_types.c ---------------------------------------------------------- */

/* C-like name of BTF type id: "struct file *", "const char *", "int[4]". */
void bp_kbtf__type_name(const struct btf *btf, __u32 id, char *buf, size_t len);
/* id without typedefs, qualifiers and type tags: 0 is void. */
__u32 bp_kbtf__peel(const struct btf *btf, __u32 id);
/* The kind of a peeled type id; 0 (BTF_KIND_UNKN) for void. */
int bp_kbtf__kind(const struct btf *btf, __u32 id);
/* A struct or union. */
bool bp_kbtf__is_record(int kind);

/* --- btf_complete.c -------------------------------------------------------- */


/*
 * A forward declaration fwd (BTF_KIND_FWD) completed from the struct or
 * union of its name in btf (btf_complete.c): 0 with *out, and "TYPE
 * completed from BTF type [ID]" in from; -ENOENT when btf defines none,
 * -ENOTUNIQ when it defines several different ones, recorded in c->diag.
 */
struct bp_arg_ctx;
int bp_kbtf__complete(const struct btf *btf, __u32 fwd, const struct bp_arg_ctx *c,
		      __u32 *out, char *from, size_t fromlen);

/* True when the FUNCs ids[0..n) have equivalent prototypes. */
bool bp_kbtf__same_protos(const struct btf *btf, const __u32 *ids, int n);

/*
 * Compiles spec's arguments at the entry (or, for $retval, the return) of
 * the BTF function func_id into pt->plan, pt->loc_desc and pt->type_name.
 * What fails is recorded in d (an argument's failure names the argument);
 * where is "FUNC in the kernel" for the messages. btf NULL (func_id 0): no
 * BTF for the function, which only perf's fetch arguments do without.
 */
int bp_kbtf__resolve_args(const struct btf *btf, __u32 func_id,
			  const struct bp_spec *spec, const char *where,
			  struct bp_point *pt, struct bp_diag *d);

/*
 * Compiles arg's member chain (and :TYPE) from a value of BTF type 'type'
 * (in btf) that base fetches: a register, or an fentry ctx slot; the
 * value itself, not memory (base has no dereference). Reads kernel memory
 * (user memory with @user). Map tracing uses it for key and value, typed
 * by the map's own BTF. *type_name gets the final C type (malloc'ed).
 * Failures are recorded in d about the argument; where is for messages.
 */
int bp_kbtf__compile_value(const struct btf *btf, __u32 type, const struct bp_fetch *base,
			   const struct bp_arg_spec *arg, const char *where,
			   struct bp_fetch *out, char **type_name, struct bp_diag *d);

struct bp_arg_ctx;
struct bp_val;

/*
 * Compiles arg's member chain (and :TYPE, :string) from val, a value of
 * BTF type 'type' (a register, or a kernel stack slot as an lvalue), in
 * the context c: what bp_kbtf__compile_value does from a fetch.
 */
int bp_kbtf__compile_val(const struct btf *btf, __u32 type, const struct bp_arg_ctx *c,
			 const struct bp_arg_spec *arg, struct bp_val *val,
			 struct bp_fetch *out, char **type_name);
/* The same, saying in from (fromlen bytes) which forward declaration was
 * completed from where, if one was ("" else). */
int bp_kbtf__compile_chain(const struct btf *btf, __u32 type, const struct bp_arg_ctx *c,
			   const struct bp_arg_spec *arg, struct bp_val *val,
			   struct bp_fetch *out, char **type_name, char *from, size_t fromlen);

/* --- btf_fetcharg.c ------------------------------------------------------ */

/*
 * One of perf's fetch arguments (arg->farg set: $argN, %REG, +OFFS(...))
 * at the entry (or return, or +OFFS) of the function of prototype proto
 * in btf (both NULL: no BTF for it; $argN is then untyped). Failures are
 * recorded in c->diag; desc gets where the argument is.
 */
int bp_kbtf__fetcharg(const struct btf *btf, const struct btf_type *proto,
		      const struct bp_spec *spec, struct bp_arg_ctx *c,
		      const struct bp_arg_spec *arg, struct bp_fetch *out,
		      char **type_name, char *desc, size_t desclen);

/* --- vmlinux.c ----------------------------------------------------------- */

/*
 * The debug file (with DWARF) of module (NULL: vmlinux) for the running
 * kernel release, from the usual places, or NULL. A file whose build-id
 * differs from the running kernel's is skipped (said at info level).
 * Returns a malloc'ed path.
 */
char *bp_kdwarf__find(const char *module, bool check_build_id);

/* Whether the ELF file at path has the build-id of the running kernel
 * (module NULL) or of the loaded module. 1 yes, 0 no, -ENOENT unknown. */
int bp_kdwarf__build_id_matches(const char *path, const char *module);

#endif /* BPFPROBE_RESOLVE_KERNEL_H */
