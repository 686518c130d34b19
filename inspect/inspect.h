/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the bpfprobe tool reads beyond the public API, and the only
 * internal header it includes: an object resolved without loading
 * (`bpfprobe resolve`) with its probe points, fetch plans, program
 * instances and their prologues; the functions of a binary (`funcs`) and
 * the variables at a probe point (`vars`). The types are plain data
 * (probes/point.h, inspect/funcs_vars.h). Internal: not installed; this
 * folder is linked into the command (build/inspect.a), not into
 * libbpfprobe.so or libbpfprobe.a.
 */
#ifndef BPFPROBE_INSPECT_H
#define BPFPROBE_INSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <bpfprobe/bpfprobe.h>
#include "inspect/funcs_vars.h"
#include "probes/point.h"
#include "probes/usdt/sdt_notes.h"
#include "util/json.h"

/*
 * For an object from bpfprobe_object__open(): checks each annotated
 * program's prototype, resolves its probe points and groups them into
 * instances exactly as bpfprobe_object__load() does, with the same
 * messages, handing nothing to the kernel (no privileges needed). The
 * object is not loaded and must not be afterwards; destroy it when done.
 * Returns 0 or a negative errno.
 */
int bp_inspect__resolve(struct bpfprobe_object *obj);

/*
 * The same for one SEC() text, as an object holding a single program
 * named after its EVENT= (else its function); opts' vmlinux and no_cache
 * apply (NULL: none). *out is destroyed with bpfprobe_object__destroy();
 * NULL on error (a message was printed).
 */
int bp_inspect__resolve_sec(const char *text, const struct bpfprobe_open_opts *opts,
			    struct bpfprobe_object **out);

/*
 * The same for a SEC text whose program receives a record (the record
 * ABI: int prog(void *ctx, struct S *a)), S being struct struct_id of btf:
 * each argument fills the member of its name, as the loader does it
 * (probes/record.h), so every argument is resolved for what its member
 * wants (a value, a string, bytes) and up to BP_SPEC_MAX_ARGS of them
 * fit. btf is read during the call only.
 */
struct btf;
int bp_inspect__resolve_sec_record(const char *text, const struct bpfprobe_open_opts *opts,
				   const struct btf *btf, __u32 struct_id,
				   struct bpfprobe_object **out);

/* True when the object came from a SEC text, not a file. */
bool bp_inspect__is_sec_text(const struct bpfprobe_object *obj);

/* An annotated program of a resolved object. */
struct bp_inspect_program {
	const char *name;
	const char *sec;
	const char *event;	/* EVENT= of the SEC; NULL if none */
	const char *func;	/* the function the SEC names; NULL for SRC:ALN */
	bool is_return;
	/* per argument of the SEC as written ("req->len"); NULL when the
	 * SEC's $params makes the points' arguments differ */
	const char *arg_expr[BP_MAX_ARGS];
	const struct bp_point *points;
	int npoints;
};

/* An instance: one per distinct fetch plan of a program. */
struct bp_inspect_instance {
	const char *name;
	int program;		/* index of its program */
	const struct bp_plan *plan;
};

size_t bp_inspect__program_cnt(const struct bpfprobe_object *obj);
size_t bp_inspect__instance_cnt(const struct bpfprobe_object *obj);
/* 0, or -ENOENT past the last one. */
int bp_inspect__program(const struct bpfprobe_object *obj, size_t i,
			struct bp_inspect_program *out);
/* The instance point j of program i runs; -ENOENT if there is none. */
int bp_inspect__point_instance(const struct bpfprobe_object *obj, size_t i, int j);
int bp_inspect__instance(const struct bpfprobe_object *obj, size_t i,
			 struct bp_inspect_instance *out);

/*
 * Calls emit with each instruction of instance i's prologue as BPF
 * assembly (an ldimm64 once, at its first slot). Returns the number of
 * instruction slots, or a negative errno after a message.
 */
int bp_inspect__prologue(const struct bpfprobe_object *obj, size_t i,
			 void (*emit)(int slot, const char *text, void *ctx), void *ctx);

/* A fetch as text, "s32 *(u32 *)(%rdi + 8) [user]"; snprintf's value. */
int bp_inspect__fetch_text(const struct bp_fetch *f, char *buf, size_t len);

/*
 * A fetch as a JSON object (a value: write its key first when in an object):
 *   {"text": "s32 *(u32 *)(%rdi + 8) [user]",
 *    "base": "reg" | "const" | "addr" | "expr" | "none",
 *    "expr": "%rbx 16 + *u64 1 +" (base expr only: the expression, postfix),
 *    "reg": "rdi" (base reg; null otherwise), "add": 8,
 *    "anchor": null | {"addr": 5184, "kind": "ip" | "func_ip"}  (base addr, expr:
 *        the load bias is the anchor's run-time address minus addr),
 *    "derefs": [{"off": 8, "user": true}, ...],  innermost first
 *    "size": 4, "signed": true,
 *    "bits": null | {"off": 3, "size": 5}}
 */
void bp_inspect__fetch_json(const struct bp_fetch *f, struct bp_json *j);

/*
 * Every function of binary (found like exec=) whose name matches glob
 * (NULL: all); see bp_func_list__collect(). l must be freed with
 * bp_inspect__funcs_free() either way.
 */
int bp_inspect__funcs(struct bp_func_list *l, const char *binary, const char *glob);
void bp_inspect__funcs_free(struct bp_func_list *l);

/* The SDT markers of a binary (`bpfprobe markers`): its sites, in note
 * order, those whose PROVIDER:NAME glob matches (all without one). */
struct bp_marker_list {
	char *binary;		/* its path, found as exec= finds it */
	struct bp_sdt_site *sites;
	int n;
	bool had_notes;		/* some marker, matched or not */
};

/* 0, or a negative errno after a message; bp_inspect__markers_free()
 * either way. */
int bp_inspect__markers(struct bp_marker_list *l, const char *binary, const char *glob);
void bp_inspect__markers_free(struct bp_marker_list *l);

/*
 * The variables at every probe point POINT names in binary (POINT as the
 * SEC text "exec=BINARY;POINT" would, without arguments); no_cache: found
 * without the DWARF index; view_pid > 0: binary as that process sees it
 * (bpfprobe_open_opts.view_pid). Returns 0 or a negative errno after a
 * message naming point. l must be freed with bp_var_list__free() either way.
 */
int bp_inspect__vars(struct bp_var_list *l, const char *binary, const char *point,
		     bool no_cache, pid_t view_pid);
void bp_inspect__vars_free(struct bp_var_list *l);

/* "param", "local", "retval"; "fetchable", "absent", ... (funcs_vars.h) */
const char *bp_inspect__var_kind(enum bp_var_kind kind);
const char *bp_inspect__var_class(enum bp_var_class cls);

/*
 * `bpfprobe monitor --map MAP` (inspect/map_monitor.c): bpfprobe's own
 * programs on every function that updates or deletes MAP's elements
 * (those map=MAP;update and map=MAP;delete would attach to), copying
 * keys, values and flags into a ring buffer. Works on any map of a type
 * map tracing knows, whoever loaded it.
 */
struct bp_map_monitor;

struct bp_map_event {
	uint64_t ts_ns;		/* CLOCK_MONOTONIC */
	uint32_t pid, tid;	/* of the writer (tgid, thread) */
	char comm[16];
	int cpu;
	bool update;		/* else a delete */
	uint64_t flags;		/* updates: BPF_ANY, BPF_NOEXIST, BPF_EXIST, BPF_F_LOCK */
	const char *func;	/* the kernel function it was seen in */
	const char *via;	/* who calls that function */
	bool read_failed;	/* key or value could not be read */
	const void *key;
	size_t key_size;
	/* updates: the value; with percpu, nvalues values, every possible
	 * CPU's (the bpf() syscall on a per-CPU map), value_stride bytes apart */
	const void *value;
	size_t value_size;
	bool percpu;
	int nvalues;
	size_t value_stride;
	bool value_cut;		/* only the first values fitted the record */
};

struct bp_map_monitor_info {
	uint32_t id;
	const char *name;
	const char *type;	/* "hash", "percpu_array", ... */
	const struct btf *btf;	/* the map's; NULL: none (raw bytes) */
	uint32_t key_type, value_type;	/* in btf; 0: raw bytes */
	bool fentry;		/* else kprobes (bpf() syscall changes unseen) */
	int nfuncs;
	const char *const *funcs;	/* the functions attached to */
};

/* Resolves MAP, loads and attaches the programs. Returns 0 or a negative
 * errno after a message; nothing stays loaded then. */
int bp_map_monitor__open(const char *map, struct bp_map_monitor **out);
const struct bp_map_monitor_info *bp_map_monitor__info(const struct bp_map_monitor *m);
/* Waits up to timeout_ms (-1: forever) and calls cb with each event.
 * Returns how many, or a negative errno (-EINTR: a signal). */
int bp_map_monitor__poll(struct bp_map_monitor *m, int timeout_ms,
			 void (*cb)(const struct bp_map_event *ev, void *ctx), void *ctx);
/* Detaches and frees everything. NULL is fine. */
void bp_map_monitor__free(struct bp_map_monitor *m);

#endif /* BPFPROBE_INSPECT_H */
